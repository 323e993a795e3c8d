import type { Db } from '../db/client.ts';
import type { BlobStore } from './blob-store.ts';
import { createDatabaseBlobStore } from './database-blob-store.ts';
import { createS3BlobStore } from './s3-blob-store.ts';
import type { StorageLocation } from './storage-url.ts';

/** The store `STORAGE_URL` names, with what closing the app must release. */
export function openBlobStore(location: StorageLocation, db: Db): BlobStore & { close(): void } {
  if (location.kind === 's3') return createS3BlobStore(location);
  return Object.assign(createDatabaseBlobStore(db), { close() {} });
}
