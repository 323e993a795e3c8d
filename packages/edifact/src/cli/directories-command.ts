/**
 * `edifact directories …`: import, list and download UN/EDIFACT directories into a store. Node only; returns the
 * exit code (0 ok, 1 failure, 2 usage).
 */
import { downloadDirectory } from '../directory/node/download.ts';
import { importDirectory, openDirectoryStore } from '../directory/node/store.ts';
import type { DirectoryInfo } from '../directory/types.ts';
import { resolveStorePath } from './store.ts';

const USAGE = `Usage:
  edifact directories import <zip-or-folder>... [--store DIR]
  edifact directories list [--store DIR]
  edifact directories download <NAME>... [--store DIR] [--base-url URL]

The store defaults to $EDIFACT_DIRECTORIES, else $DATA_DIR/edifact, else ./data/edifact.`;

type Parsed = {
  command: string | undefined;
  args: string[];
  store: string;
  baseUrl: string | undefined;
  error?: string;
};

const parseArgs = (argv: readonly string[]): Parsed => {
  const parsed: Parsed = {
    command: undefined,
    args: [],
    store: resolveStorePath(undefined, process.env).path,
    baseUrl: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.startsWith('--') ? arg.split('=', 2) : [arg, undefined];
    if (flag === '--store' || flag === '--base-url') {
      const value = inline ?? argv[++i];
      if (!value) return { ...parsed, error: `${flag} needs a value` };
      if (flag === '--store') parsed.store = value;
      else parsed.baseUrl = value;
    } else if (flag === '--help' || flag === '-h') parsed.command = 'help';
    else if (arg.startsWith('--')) return { ...parsed, error: `unknown option ${arg}` };
    else if (parsed.command === undefined) parsed.command = arg;
    else parsed.args.push(arg);
  }
  return parsed;
};

const line = (info: DirectoryInfo): string =>
  `${info.name}  ${String(info.messages).padStart(4)} messages  ${String(info.segments).padStart(4)} segments  ` +
  `${String(info.codeLists).padStart(4)} code lists  imported ${info.importedAt}  from ${info.source}`;

/**
 * Runs `edifact directories <argv…>` (argv without `directories`). Writes to stdout/stderr; returns the exit code.
 */
export const runDirectoriesCommand = async (argv: string[]): Promise<number> => {
  const parsed = parseArgs(argv);
  if (parsed.error) {
    process.stderr.write(`${parsed.error}\n${USAGE}\n`);
    return 2;
  }
  const store = openDirectoryStore(parsed.store);
  switch (parsed.command) {
    case 'import':
    case 'download': {
      if (parsed.args.length === 0) {
        process.stderr.write(`${parsed.command}: nothing given\n${USAGE}\n`);
        return 2;
      }
      let failed = false;
      for (const arg of parsed.args) {
        try {
          const info =
            parsed.command === 'import'
              ? await importDirectory(arg, store)
              : await downloadDirectory(arg.toUpperCase(), {
                  store,
                  ...(parsed.baseUrl ? { baseUrl: parsed.baseUrl } : {}),
                });
          process.stdout.write(`${line(info)}\n`);
        } catch (error) {
          failed = true;
          process.stderr.write(`${arg}: ${(error as Error).message}\n`);
        }
      }
      return failed ? 1 : 0;
    }
    case 'list': {
      const infos = await store.list();
      if (infos.length === 0) process.stdout.write(`no directories in ${store.path}\n`);
      for (const info of infos) process.stdout.write(`${line(info)}\n`);
      return 0;
    }
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    default:
      process.stderr.write(`${parsed.command ? `unknown command ${parsed.command}\n` : ''}${USAGE}\n`);
      return 2;
  }
};
