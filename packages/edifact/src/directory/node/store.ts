/**
 * The directory store on disk: one folder per directory (`<store>/D96A/meta.json`, `tables.json`, `codes.json`),
 * written by the importer and read lazily, once per directory, by the validators. Node only.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  decodeDirectory,
  describeDirectory,
  encodeCodes,
  encodeTables,
  STORE_FORMAT,
  type StoredCodes,
  type StoredTables,
} from '../store-format.ts';
import type { Directory, DirectoryInfo, DirectoryProvider } from '../types.ts';
import { readDirectorySource, readDirectoryZip } from './import.ts';

/** A directory store over a folder, which is also a {@link DirectoryProvider} for the validators. */
export type DirectoryStore = DirectoryProvider & {
  /** The folder. */
  path: string;
  /** Summaries of the stored directories, sorted by name. */
  list(): Promise<DirectoryInfo[]>;
  /** Writes a directory's tables (replacing a previous import of the same name whole) and returns its summary. */
  save(directory: Directory, source: string): Promise<DirectoryInfo>;
};

const NAME = /^D\d\d[A-Z]$/;

const readJson = async <T>(path: string): Promise<T | undefined> => {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
};

/**
 * Opens (without reading anything yet) the store in `path`, e.g. `DATA_DIR/edifact`. Directories are loaded on the
 * first `load(name)` and kept in memory.
 */
export const openDirectoryStore = (path: string): DirectoryStore => {
  const root = resolve(path);
  const loaded = new Map<string, Directory>();
  const loading = new Map<string, Promise<Directory | undefined>>();

  const read = async (name: string): Promise<Directory | undefined> => {
    if (!NAME.test(name)) return undefined;
    const tables = await readJson<StoredTables>(join(root, name, 'tables.json'));
    if (tables?.format !== STORE_FORMAT) return undefined;
    const codes = await readJson<StoredCodes>(join(root, name, 'codes.json'));
    const directory = decodeDirectory(tables, codes);
    loaded.set(name, directory);
    return directory;
  };

  return {
    path: root,
    get: (name) => loaded.get(name),
    load(name) {
      const ready = loaded.get(name);
      if (ready) return Promise.resolve(ready);
      let pending = loading.get(name);
      if (!pending) {
        pending = read(name).finally(() => loading.delete(name));
        loading.set(name, pending);
      }
      return pending;
    },
    async list() {
      let names: string[];
      try {
        names = (await readdir(root, { withFileTypes: true }))
          .filter((entry) => entry.isDirectory() && NAME.test(entry.name))
          .map((entry) => entry.name)
          .sort();
      } catch {
        return [];
      }
      const infos: DirectoryInfo[] = [];
      for (const name of names) {
        const info = await readJson<DirectoryInfo>(join(root, name, 'meta.json'));
        if (info) infos.push(info);
      }
      return infos;
    },
    async save(directory, source) {
      const info = describeDirectory(directory, source, new Date().toISOString());
      // Written to a temporary folder first, then renamed: a reader never sees half a directory.
      const target = join(root, directory.name);
      const temporary = join(root, `.${directory.name}.${process.pid}.${Date.now()}`);
      await mkdir(temporary, { recursive: true });
      await writeFile(join(temporary, 'tables.json'), JSON.stringify(encodeTables(directory)));
      await writeFile(join(temporary, 'codes.json'), JSON.stringify(encodeCodes(directory)));
      await writeFile(join(temporary, 'meta.json'), `${JSON.stringify(info, null, 2)}\n`);
      // The old tables move aside before the new ones take their name, and come back if that fails, so an import
      // either replaces the directory whole or leaves it as it was.
      const previous = `${temporary}.old`;
      const hadPrevious = await rename(target, previous).then(
        () => true,
        () => false,
      );
      try {
        await rename(temporary, target);
      } catch (error) {
        if (hadPrevious) await rename(previous, target);
        await rm(temporary, { recursive: true, force: true });
        throw error;
      }
      if (hadPrevious) await rm(previous, { recursive: true, force: true });
      loaded.delete(directory.name);
      return info;
    },
  };
};

/** Imports a distribution zip or folder into the store and returns the summary of what was written. */
export const importDirectory = async (source: string, store: DirectoryStore): Promise<DirectoryInfo> =>
  store.save(await readDirectorySource(source), source);

/** Imports a distribution zip given as bytes (e.g. an upload or a download) into the store. */
export const importDirectoryZip = async (
  bytes: Uint8Array,
  store: DirectoryStore,
  source: string,
): Promise<DirectoryInfo> => store.save(readDirectoryZip(bytes), source);
