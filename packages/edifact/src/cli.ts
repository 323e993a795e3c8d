/**
 * The `edifact` command line. Node-only (file system, process); the core library does not depend on it.
 *
 *   edifact validate <file>… [--store DIR] [--strict] [--json]
 *   edifact directories import|list|download …   (wired by src/directory/cli-commands.ts when present)
 *
 * Exit codes: 0 no errors, 1 errors found, 2 usage or file problem.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidationLevelPlugin } from './levels.ts';
import type { Finding } from './model.ts';
import { validate, type ValidationResult } from './validate.ts';

const USAGE = `Usage:
  edifact validate <file>... [--store DIR] [--strict] [--json]
  edifact directories import <zip-or-folder>... [--store DIR]
  edifact directories list [--store DIR]
  edifact directories download <NAME>... [--store DIR]
`;

type Output = { out: (text: string) => void; err: (text: string) => void };

const defaultOutput: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

type ValidateArgs = { files: string[]; store?: string; strict: boolean; json: boolean };

const parseValidateArgs = (argv: string[]): ValidateArgs | string => {
  const args: ValidateArgs = { files: [], strict: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--strict') args.strict = true;
    else if (a === '--json') args.json = true;
    else if (a === '--store') {
      const dir = argv[++i];
      if (dir === undefined) return '--store needs a directory';
      args.store = dir;
    } else if (a.startsWith('--store=')) args.store = a.slice('--store='.length);
    else if (a.startsWith('-')) return `unknown option ${a}`;
    else args.files.push(a);
  }
  if (args.files.length === 0) return 'no file given';
  return args;
};

const here = dirname(fileURLToPath(import.meta.url));

/**
 * HOOK for the directory store (owned by src/directory/ and src/spec/): when present,
 * `src/directory/cli-commands.ts` exports `runDirectoriesCommand(argv): Promise<number>` and, optionally,
 * `createLevels({ store }): Promise<ValidationLevelPlugin[]>` giving the specification and map levels that
 * `validate` runs after the syntax level. Imported dynamically so that this CLI works without them.
 */
type DirectoryCommands = {
  runDirectoriesCommand?: (argv: string[]) => Promise<number>;
  createLevels?: (options: { store?: string }) => Promise<ValidationLevelPlugin[]>;
};

const loadDirectoryCommands = async (): Promise<DirectoryCommands | undefined> => {
  const file = join(here, 'directory', 'cli-commands.ts');
  if (!existsSync(file)) return undefined;
  return (await import('./directory/cli-commands.ts' as string)) as DirectoryCommands;
};

const pad = (text: string, width: number): string =>
  text.length >= width ? text : text + ' '.repeat(width - text.length);

const table = (rows: string[][]): string => {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, Math.min(cell.length, 60))));
  return (
    rows
      .map((row) =>
        row
          .map((cell, i) => pad(cell, widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
};

const describe = (f: Finding): string => {
  const parts: string[] = [];
  if (f.expected !== undefined) parts.push(`expected ${f.expected}`);
  if (f.actual !== undefined) parts.push(`found ${JSON.stringify(f.actual)}`);
  return parts.join(', ');
};

const human = (file: string, result: ValidationResult): string => {
  let text = `${file}: ${result.ok ? 'OK' : 'ERRORS'} (${result.interchanges.length} interchange(s), ${result.messages.length} message(s), ${result.findings.length} finding(s))\n`;
  if (result.messages.length > 0) {
    text += table([
      ['LINE', 'REFERENCE', 'TYPE', 'VERSION', 'ASSOCIATION', 'DOCUMENT', 'STATUS'],
      ...result.messages.map((m) => [
        String(m.line),
        m.reference,
        m.type,
        m.version,
        m.association ?? '',
        m.documentNumber,
        m.status,
      ]),
    ]);
  }
  if (result.findings.length > 0) {
    text +=
      '\n' +
      table([
        ['LINE:COL', 'SEVERITY', 'LEVEL', 'CODE', 'PATH', 'MESSAGE', 'DETAIL'],
        ...result.findings.map((f) => [
          `${f.line}:${f.column}`,
          f.severity,
          f.level,
          f.code,
          f.path,
          f.messageReference ?? '',
          describe(f),
        ]),
      ]);
  }
  return text;
};

const runValidate = async (argv: string[], io: Output): Promise<number> => {
  const args = parseValidateArgs(argv);
  if (typeof args === 'string') {
    io.err(`edifact validate: ${args}\n${USAGE}`);
    return 2;
  }
  let levels: ValidationLevelPlugin[] = [];
  const commands = await loadDirectoryCommands();
  if (commands?.createLevels)
    levels = await commands.createLevels(args.store === undefined ? {} : { store: args.store });
  if (args.store !== undefined && levels.length === 0) {
    io.err(`edifact validate: no directories in ${args.store}: syntax level only\n`);
  }
  let worst = 0;
  const reports: unknown[] = [];
  for (const file of args.files) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch (error) {
      io.err(`edifact validate: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
      worst = 2;
      continue;
    }
    const result = await validate(bytes, { strict: args.strict, levels });
    if (!result.ok) worst = Math.max(worst, 1);
    if (args.json) {
      reports.push({
        file,
        ok: result.ok,
        interchanges: result.interchanges.map((i) => ({
          controlReference: i.controlReference,
          syntaxIdentifier: i.syntaxIdentifier,
          syntaxVersion: i.syntaxVersion,
          sender: i.sender ?? '',
          recipient: i.recipient ?? '',
          line: i.header?.position.line ?? i.una?.position.line ?? 1,
        })),
        messages: result.messages,
        findings: result.findings,
      });
    } else {
      io.out(human(file, result));
    }
  }
  if (args.json) io.out(JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2) + '\n');
  return worst;
};

/** Runs the CLI with the arguments after the program name; returns the exit code. */
export const main = async (argv: string[], io: Output = defaultOutput): Promise<number> => {
  const [command, ...rest] = argv;
  if (command === 'validate') return runValidate(rest, io);
  if (command === 'directories') {
    const commands = await loadDirectoryCommands();
    if (!commands?.runDirectoriesCommand) {
      io.err('edifact directories: the directory store is not available in this build\n');
      return 2;
    }
    return commands.runDirectoriesCommand(rest);
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return 0;
  }
  io.err(USAGE);
  return 2;
};
