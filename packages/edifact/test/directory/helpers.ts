/**
 * Test helpers: the shared UNECE originals (beside the clone, `../shared/edifact-directories`, never copied into
 * the project) imported once into a temporary store that every test file and run reuses until the importer changes.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDirectoryStore, type DirectoryStore } from '../../src/directory/node/store.ts';
import type { Directory } from '../../src/directory/types.ts';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const sharedRoot = join(repoRoot, '..', 'shared');
export const unecePath = (name: string): string => join(sharedRoot, 'edifact-directories', 'unece', name);
export const extractedPath = (name: string): string => join(sharedRoot, 'edifact-directories', 'extracted', name);
export const phpMappingPath = (name: string): string =>
  join(sharedRoot, 'edifact-directories', 'php-edifact-mapping', name);
export const samplesPath = join(sharedRoot, 'samples', 'edifact');

const sourceRoot = fileURLToPath(new URL('../../src/directory/', import.meta.url));

/** A key that changes when any importer source changes, so a stale cached store is never used. */
const importerKey = (): string => {
  const hash = createHash('sha256');
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(sourceRoot);
  return hash.digest('hex').slice(0, 16);
};

let store: DirectoryStore | undefined;

/** The cached test store holding D96A and D01B, imported from the shared originals on first use. */
export const getTestStore = async (): Promise<DirectoryStore> => {
  if (store) return store;
  const path = join(tmpdir(), 'edifact-test-directories', importerKey());
  const opened = openDirectoryStore(path);
  const have = new Set((await opened.list()).map((info) => info.name));
  const { importDirectory } = await import('../../src/directory/node/store.ts');
  for (const name of ['D96A', 'D01B']) {
    if (have.has(name)) continue;
    if (!existsSync(unecePath(name))) throw new Error(`shared directory data missing: ${unecePath(name)}`);
    await importDirectory(unecePath(name), opened);
  }
  store = opened;
  return opened;
};

/** A directory of the test store. */
export const getTestDirectory = async (name: 'D96A' | 'D01B'): Promise<Directory> => {
  const directory = await (await getTestStore()).load(name);
  if (!directory) throw new Error(`test directory ${name} missing`);
  return directory;
};
