import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobStoreSuite } from '../../test/blob-store.suite.ts';
import { BlobTooLargeError } from './blob-store.ts';
import { createS3BlobStore, s3ClientFor } from './s3-blob-store.ts';
import { parseStorageUrl, type S3Location } from './storage-url.ts';

/** s3rver accepts any signature made with its fixed key pair. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A local S3-compatible server on a random port over a temporary folder, and a fresh bucket on it. */
async function startS3(bucket: string, prefix = '') {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const location = parseStorageUrl(`s3://${bucket}/${prefix}?endpoint=http://127.0.0.1:${port}`) as S3Location;
  const client = s3ClientFor(location, CREDENTIALS);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    location,
    client,
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

// Past 5 MiB, so the put goes through a real multipart upload.
blobStoreSuite(
  's3',
  async () => {
    const s3 = await startS3('portal-blobs');
    return { store: createS3BlobStore(s3.location, s3.client), close: s3.close };
  },
  { bigBytes: 6 * 1024 * 1024 + 17 },
);

// The same suite under a key prefix: the store must add and strip it everywhere.
blobStoreSuite(
  's3 with a key prefix',
  async () => {
    const s3 = await startS3('portal-prefixed', 'tenant-1/blobs/');
    return { store: createS3BlobStore(s3.location, s3.client), close: s3.close };
  },
  { bigBytes: 200_000 },
);

describe('s3 blob store: what a failed put leaves', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    s3 = await startS3('portal-aborts');
  });
  afterAll(() => s3.close());

  it('aborts the multipart upload of a body that passes maxBytes after the first part', async () => {
    const store = createS3BlobStore(s3.location, s3.client);
    // s3rver cannot list multipart uploads: watch the commands the store sends instead.
    const sent: string[] = [];
    s3.client.middlewareStack.add(
      (next, context) => (args) => {
        sent.push(context.commandName ?? '?');
        return next(args);
      },
      { step: 'initialize' },
    );
    async function* big() {
      for (let i = 0; i < 8; i += 1) yield Buffer.alloc(1024 * 1024, i);
    }
    await expect(
      store.put('too/big', big(), { contentType: 'application/octet-stream', maxBytes: 6 * 1024 * 1024 }),
    ).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store.stat('too/big')).toBeUndefined();
    expect(sent).toContain('CreateMultipartUploadCommand');
    expect(sent).toContain('AbortMultipartUploadCommand');
    expect(sent).not.toContain('CompleteMultipartUploadCommand');
  });
});
