/**
 * The `edifact` command line. Node-only (file system, process); the core library does not depend on it.
 *
 *   edifact validate <file|->… [--store DIR] [--strict] [--json] [--summary] [--max-findings N]
 *   edifact directories import|list|download …
 *
 * `validate` streams its input and its output (src/cli/validate-command.ts). Exit codes: 0 no errors, 1 errors
 * found, 2 usage or file problem.
 */
import { runValidate, VALIDATE_USAGE } from './cli/validate-command.ts';
import { processOutput, type Output } from './cli/output.ts';
import { runDirectoriesCommand } from './cli/directories-command.ts';

export type { Output } from './cli/output.ts';

const USAGE = `Usage:
${VALIDATE_USAGE}
  edifact directories import <zip-or-folder>... [--store DIR]
  edifact directories list [--store DIR]
  edifact directories download <NAME>... [--store DIR]

The store defaults to $EDIFACT_DIRECTORIES, else $DATA_DIR/edifact, else ./data/edifact (the server's store).
`;

/** Runs the CLI with the arguments after the program name; returns the exit code. */
export const main = async (
  argv: string[],
  io: Output = processOutput,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> => {
  const [command, ...rest] = argv;
  if (command === 'validate') return runValidate(rest, io, env);
  if (command === 'directories') return runDirectoriesCommand(rest);
  if (command === '--help' || command === '-h' || command === 'help') {
    await io.out(USAGE);
    return 0;
  }
  io.err(USAGE);
  return 2;
};
