/**
 * Downloads a UNECE directory distribution by name (`D96A`) and imports it. Node only (uses the global `fetch`).
 */
import { importDirectoryZip, type DirectoryStore } from './store.ts';
import type { DirectoryInfo } from '../types.ts';

/**
 * UNECE's published location: `https://service.unece.org/trade/untdid/d96a/d96a.zip`. A base address may be a
 * template with `{name}` (`D96A`) and `{lower}` (`d96a`), or a plain prefix, to which `/{lower}/{lower}.zip` is
 * appended (so a mirror only has to copy UNECE's layout).
 */
export const DEFAULT_DIRECTORY_BASE_URL = 'https://service.unece.org/trade/untdid';

/** The address a directory is downloaded from. */
export const directoryUrl = (name: string, baseUrl: string = DEFAULT_DIRECTORY_BASE_URL): string => {
  const lower = name.toLowerCase();
  if (baseUrl.includes('{')) return baseUrl.replaceAll('{name}', name.toUpperCase()).replaceAll('{lower}', lower);
  return `${baseUrl.replace(/\/+$/, '')}/${lower}/${lower}.zip`;
};

export type DownloadOptions = {
  store: DirectoryStore;
  baseUrl?: string;
  /** For tests and proxies; the global `fetch` by default. */
  fetch?: typeof fetch;
};

/** Downloads the distribution zip of directory `name` (e.g. `D96A`) and imports it into the store. */
export const downloadDirectory = async (name: string, options: DownloadOptions): Promise<DirectoryInfo> => {
  if (!/^D\d\d[A-Z]$/i.test(name)) throw new Error(`not a directory name: ${name} (expected e.g. D96A)`);
  const url = directoryUrl(name, options.baseUrl);
  const response = await (options.fetch ?? fetch)(url);
  if (!response.ok) throw new Error(`download of ${url} failed: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const info = await importDirectoryZip(bytes, options.store, url);
  if (info.name !== name.toUpperCase()) throw new Error(`${url} holds directory ${info.name}, not ${name}`);
  return info;
};
