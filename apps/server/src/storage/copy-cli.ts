import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { openBlobStore } from './open-blob-store.ts';
import { copyBlobs } from './copy-blobs.ts';
import { parseStorageUrl, StorageUrlError, type StorageLocation } from './storage-url.ts';

/**
 * `npm run storage:copy -w @portal/server -- FROM TO [PREFIX]`: copies the stored files from one store to another,
 * each named as `STORAGE_URL` names it (`database:` or `s3://…`); the database is the one DATABASE_URL or DATA_DIR
 * names, as for the server. Run it with the server stopped, then start the server with STORAGE_URL=TO.
 */
async function main(args: string[]): Promise<void> {
  const [fromUrl, toUrl, prefix = ''] = args;
  if (!fromUrl || !toUrl) {
    console.error(
      'usage: npm run storage:copy -w @portal/server -- FROM TO [PREFIX]   (each database: or s3://bucket[/prefix/]?…)',
    );
    process.exitCode = 2;
    return;
  }
  let locations: [StorageLocation, StorageLocation];
  try {
    locations = [parseStorageUrl(fromUrl), parseStorageUrl(toUrl)];
  } catch (error) {
    if (!(error instanceof StorageUrlError)) throw error;
    console.error(`storage:copy: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const from = await openBlobStore(locations[0], database.db);
  const to = await openBlobStore(locations[1], database.db);
  try {
    const report = await copyBlobs(from, to, { prefix, onCopied: (key, size) => console.log(`${key}\t${size}`) });
    console.log(`${report.copied} blobs, ${report.bytes} bytes copied`);
  } finally {
    from.close();
    to.close();
    await database.close();
  }
}

await main(process.argv.slice(2));
