/**
 * Reads a UNECE directory distribution as published (a zip holding nested zips) or unpacked into a folder (files,
 * nested zips or sub-folders, any mix) and builds its tables. Node only.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDirectory, classifyDirectoryFile, type DirectoryFile } from '../build.ts';
import type { Directory } from '../types.ts';
import { isZip, readZip } from './zip.ts';

const collectFromZip = (bytes: Uint8Array, prefix: string, out: DirectoryFile[]): void => {
  for (const entry of readZip(bytes)) {
    const name = `${prefix}/${entry.name}`;
    if (/\.zip$/i.test(entry.name)) {
      const inner = entry.read();
      if (isZip(inner)) collectFromZip(inner, name, out);
    } else if (classifyDirectoryFile(entry.name)) out.push({ name, bytes: entry.read() });
  }
};

const collectFromFolder = async (folder: string, out: DirectoryFile[]): Promise<void> => {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await collectFromFolder(path, out);
    else if (/\.zip$/i.test(entry.name)) {
      const bytes = new Uint8Array(await readFile(path));
      if (isZip(bytes)) collectFromZip(bytes, path, out);
    } else if (classifyDirectoryFile(entry.name)) out.push({ name: path, bytes: new Uint8Array(await readFile(path)) });
  }
};

/** Collects the directory files of a distribution zip (bytes). */
export const collectZipFiles = (bytes: Uint8Array, label = 'zip'): DirectoryFile[] => {
  const out: DirectoryFile[] = [];
  collectFromZip(bytes, label, out);
  return out;
};

/** Builds a directory from a distribution zip given as bytes. */
export const readDirectoryZip = (bytes: Uint8Array): Directory => buildDirectory(collectZipFiles(bytes));

/** Builds a directory from a path: a distribution zip or a folder holding it unpacked. */
export const readDirectorySource = async (path: string): Promise<Directory> => {
  const info = await stat(path);
  const files: DirectoryFile[] = [];
  if (info.isDirectory()) await collectFromFolder(path, files);
  else collectFromZip(new Uint8Array(await readFile(path)), path, files);
  return buildDirectory(files);
};
