import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3BlobStore, s3ClientFor } from '../src/storage/s3-blob-store.ts';
import { parseStorageUrl, type S3Location } from '../src/storage/storage-url.ts';

/** s3rver accepts any signature made with its fixed key pair. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A local S3-compatible server (s3rver) on 127.0.0.1, a random port and a temporary folder, with a fresh bucket, and
 * a store on it reached through a real `STORAGE_URL`.
 */
export async function startS3(bucket: string, prefix = '') {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const location = parseStorageUrl(`s3://${bucket}/${prefix}?endpoint=http://127.0.0.1:${port}`) as S3Location;
  const client = s3ClientFor(location, CREDENTIALS);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    location,
    client,
    store: createS3BlobStore(location, client),
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
