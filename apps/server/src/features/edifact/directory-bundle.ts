/**
 * One imported UN/EDIFACT directory as one blob: the files the engine's directory store writes for it
 * (`meta.json`, `tables.json`, `codes.json` today), packed and gzipped, so that a directory moves between the
 * BlobStore and a process's local cache whole and without the server knowing the engine's file layout
 * (decision 0019).
 *
 * Layout before gzip: one line of JSON, `{"format":1,"name":"D96A","files":[["meta.json",<bytes>],…]}`, then the
 * files' bytes one after the other.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { openDirectoryStore, type DirectoryInfo, type DirectoryStore } from '@portal/edifact/node';

const BUNDLE_FORMAT = 1;
/** A directory's name as the engine's store names its folders. */
export const DIRECTORY_NAME = /^D\d\d[A-Z]$/;
const FILE_NAME = /^[a-z][a-z0-9-]*\.json$/;

export type DirectoryFiles = { name: string; files: [fileName: string, bytes: Buffer][] };
type Header = { format: number; name: string; files: [string, number][] };

export async function packBundle(directory: DirectoryFiles): Promise<Buffer> {
  const header: Header = {
    format: BUNDLE_FORMAT,
    name: directory.name,
    files: directory.files.map(([fileName, bytes]) => [fileName, bytes.length]),
  };
  const body = Buffer.concat([
    Buffer.from(`${JSON.stringify(header)}\n`),
    ...directory.files.map(([, bytes]) => bytes),
  ]);
  return promisify(gzip)(body);
}

/** The files of a bundle this server wrote; throws on anything else (a blob under our keys that is not one). */
export async function unpackBundle(bundle: Uint8Array): Promise<DirectoryFiles> {
  const body = await promisify(gunzip)(bundle);
  const end = body.indexOf(0x0a);
  if (end < 0) throw new Error('not a directory bundle: no header');
  const header = JSON.parse(body.subarray(0, end).toString('utf8')) as Header;
  if (header.format !== BUNDLE_FORMAT || !DIRECTORY_NAME.test(header.name))
    throw new Error(`not a directory bundle of format ${BUNDLE_FORMAT}`);
  const files: DirectoryFiles['files'] = [];
  let at = end + 1;
  for (const [fileName, size] of header.files) {
    if (!FILE_NAME.test(fileName) || at + size > body.length) throw new Error('directory bundle is damaged');
    files.push([fileName, body.subarray(at, at + size)]);
    at += size;
  }
  if (at !== body.length) throw new Error('directory bundle is damaged');
  return { name: header.name, files };
}

/** The engine's files of one directory folder (`<store>/D96A/*.json`), for packing. */
export async function readDirectoryFiles(folder: string, name: string): Promise<DirectoryFiles> {
  const fileNames = (await readdir(folder)).filter((f) => FILE_NAME.test(f)).sort();
  const files: DirectoryFiles['files'] = [];
  for (const fileName of fileNames) files.push([fileName, await readFile(join(folder, fileName))]);
  return { name, files };
}

/**
 * Runs an import of the engine (`importDirectoryZip`, `importDirectory`) into a scratch store in a temporary folder
 * and packs what it wrote: the engine parses and encodes, the bundle carries its output as it is.
 */
export async function importToBundle(
  importInto: (store: DirectoryStore) => Promise<DirectoryInfo>,
): Promise<{ info: DirectoryInfo; bundle: Buffer }> {
  const scratch = await mkdtemp(join(tmpdir(), 'portal-edifact-import-'));
  try {
    const info = await importInto(openDirectoryStore(scratch));
    const bundle = await packBundle(await readDirectoryFiles(join(scratch, info.name), info.name));
    return { info, bundle };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
