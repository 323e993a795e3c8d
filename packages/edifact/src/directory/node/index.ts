/** Node-only directory tooling: zip reading, import from zip or folder, the on-disk store, download, shipped zips. */
export {
  createZipBudget,
  DEFAULT_ZIP_LIMITS,
  isZip,
  readZip,
  ZipLimitError,
  type ZipBudget,
  type ZipEntry,
  type ZipLimits,
} from './zip.ts';
export {
  checkComplete,
  collectZipFiles,
  IncompleteDirectoryError,
  readDirectorySource,
  readDirectoryZip,
} from './import.ts';
export { importDirectory, importDirectoryZip, openDirectoryStore, type DirectoryStore } from './store.ts';
export { DEFAULT_DIRECTORY_BASE_URL, directoryUrl, downloadDirectory, type DownloadOptions } from './download.ts';
export { shippedDirectoryLicence, shippedDirectoryZips, type ShippedDirectoryName } from './shipped.ts';
