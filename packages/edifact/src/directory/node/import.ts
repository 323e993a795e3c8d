/**
 * Reads a UNECE directory distribution as published (a zip holding nested zips) or unpacked into a folder (files,
 * nested zips or sub-folders, any mix) and builds its tables. Node only.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDirectory, classifyDirectoryFile, type DirectoryFile } from '../build.ts';
import type { Directory } from '../types.ts';
import { createZipBudget, isZip, readZip, type ZipBudget, type ZipLimits } from './zip.ts';

const collectFromZip = (
  bytes: Uint8Array,
  prefix: string,
  out: DirectoryFile[],
  budget: ZipBudget,
  depth = 0,
): void => {
  for (const entry of readZip(bytes, budget, depth)) {
    const name = `${prefix}/${entry.name}`;
    if (/\.zip$/i.test(entry.name)) {
      const inner = entry.read();
      if (isZip(inner)) collectFromZip(inner, name, out, budget, depth + 1);
    } else if (classifyDirectoryFile(entry.name)) out.push({ name, bytes: entry.read() });
  }
};

/** An import that did not yield a whole directory: the store keeps what it had. */
export class IncompleteDirectoryError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(`not a complete UN/EDIFACT directory: no ${missing.join(', ')} found`);
    this.name = 'IncompleteDirectoryError';
  }
}

/**
 * A directory that replaces a stored one must have every table the validators read; a zip holding one stray file
 * with a directory-like name would otherwise replace a good directory with an empty one.
 */
export const checkComplete = (directory: Directory): Directory => {
  const missing = (['messages', 'segments', 'composites', 'elements'] as const).filter(
    (table) => Object.keys(directory[table]).length === 0,
  );
  if (missing.length) throw new IncompleteDirectoryError(missing);
  return directory;
};

const collectFromFolder = async (folder: string, out: DirectoryFile[]): Promise<void> => {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await collectFromFolder(path, out);
    else if (/\.zip$/i.test(entry.name)) {
      const bytes = new Uint8Array(await readFile(path));
      if (isZip(bytes)) collectFromZip(bytes, path, out, createZipBudget());
    } else if (classifyDirectoryFile(entry.name)) out.push({ name: path, bytes: new Uint8Array(await readFile(path)) });
  }
};

/** Collects the directory files of a distribution zip (bytes), within the limits (defaults: DEFAULT_ZIP_LIMITS). */
export const collectZipFiles = (bytes: Uint8Array, label = 'zip', limits: Partial<ZipLimits> = {}): DirectoryFile[] => {
  const out: DirectoryFile[] = [];
  collectFromZip(bytes, label, out, createZipBudget(limits));
  return out;
};

/** Builds a whole directory from a distribution zip given as bytes; throws when it is not one. */
export const readDirectoryZip = (bytes: Uint8Array, limits: Partial<ZipLimits> = {}): Directory =>
  checkComplete(buildDirectory(collectZipFiles(bytes, 'zip', limits)));

/** Builds a directory from a path: a distribution zip or a folder holding it unpacked. */
export const readDirectorySource = async (path: string): Promise<Directory> => {
  const info = await stat(path);
  const files: DirectoryFile[] = [];
  if (info.isDirectory()) await collectFromFolder(path, files);
  else collectFromZip(new Uint8Array(await readFile(path)), path, files, createZipBudget());
  return checkComplete(buildDirectory(files));
};
