/**
 * Test helpers: the UNECE originals the package ships (`directories/d96a.zip`, `d01b.zip`) imported once into a
 * temporary store that every test file and run reuses until the importer changes; and the paths of the third-party
 * data beside the clone (`../shared`), which only the conformance suite (`*.conformance.test.ts`) reads.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shippedDirectoryZips } from '../../src/directory/node/shipped.ts';
import { openDirectoryStore, type DirectoryStore } from '../../src/directory/node/store.ts';
import type { Directory } from '../../src/directory/types.ts';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const sharedRoot = join(repoRoot, '..', 'shared');
/** True when the third-party data is beside the clone (CI has it; a fresh clone does not). */
export const hasShared = existsSync(join(sharedRoot, 'edifact-directories'));
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

/** The cached test store holding D96A and D01B, imported from the shipped zips on first use. */
export const getTestStore = async (): Promise<DirectoryStore> => {
  if (store) return store;
  const path = join(tmpdir(), 'edifact-test-directories', importerKey());
  const opened = openDirectoryStore(path);
  const have = new Set((await opened.list()).map((info) => info.name));
  const { importDirectory } = await import('../../src/directory/node/store.ts');
  for (const name of ['D96A', 'D01B'] as const) {
    if (have.has(name)) continue;
    await importDirectory(shippedDirectoryZips[name], opened);
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
