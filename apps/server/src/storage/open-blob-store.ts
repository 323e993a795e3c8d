import type { Db } from '../db/client.ts';
import type { BlobStore } from './blob-store.ts';
import { createDatabaseBlobStore } from './database-blob-store.ts';
import type { StorageLocation } from './storage-url.ts';

/**
 * The store `STORAGE_URL` names; `ready()` checks it can be used (the bucket is there), `close()` releases it. The S3
 * client is loaded only for an S3 location: a server on the database store never holds the AWS SDK (decision 0045).
 */
export async function openBlobStore(
  location: StorageLocation,
  db: Db,
): Promise<BlobStore & { ready(): Promise<void>; close(): void }> {
  if (location.kind === 's3') return (await import('./s3-blob-store.ts')).createS3BlobStore(location);
  // The database is open and migrated before the store is: nothing to check.
  return Object.assign(createDatabaseBlobStore(db), { ready: async () => {}, close() {} });
}
