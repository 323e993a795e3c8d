import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobStoreSuite } from '../../test/blob-store.suite.ts';
import { generatedBody, peakBufferBytes } from '../../test/memory.ts';
import { startS3 } from '../../test/s3.ts';
import { BlobTooLargeError } from './blob-store.ts';
import { createS3BlobStore } from './s3-blob-store.ts';

// Past 5 MiB, so the put goes through a real multipart upload.
blobStoreSuite(
  's3',
  async () => {
    const s3 = await startS3('portal-blobs');
    return { store: s3.store, close: s3.close };
  },
  { bigBytes: 6 * 1024 * 1024 + 17 },
);

// The same suite under a key prefix: the store must add and strip it everywhere.
blobStoreSuite(
  's3 with a key prefix',
  async () => {
    const s3 = await startS3('portal-prefixed', 'tenant-1/blobs/');
    return { store: s3.store, close: s3.close };
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

describe('s3 blob store: the key prefix of STORAGE_URL', () => {
  it('puts every object under the prefix in the bucket, and lists keys without it', async () => {
    const s3 = await startS3('portal-raw', 'tenant-1/');
    try {
      await s3.store.put('issue-reports/r/f', Buffer.from('x'), { contentType: 'text/plain' });
      const raw = await s3.client.send(new ListObjectsV2Command({ Bucket: 'portal-raw' }));
      expect((raw.Contents ?? []).map((o) => o.Key)).toEqual(['tenant-1/issue-reports/r/f']);
      const listed = [];
      for await (const entry of s3.store.list('issue-reports/')) listed.push(entry.key);
      expect(listed).toEqual(['issue-reports/r/f']);
    } finally {
      await s3.close();
    }
  });
});

describe('s3 blob store: memory', () => {
  it('puts and gets a blob far larger than what it holds at once', { timeout: 120_000 }, async () => {
    const s3 = await startS3('portal-memory');
    const total = 80 * 1024 * 1024;
    try {
      // Two 5 MiB parts in flight on the way up, the HTTP body's chunks on the way down; s3rver runs in this process
      // too. A store that read the blob whole would hold 80 MiB.
      const put = await peakBufferBytes(async () => {
        await s3.store.put('big/blob', generatedBody(total), { contentType: 'application/octet-stream' });
      });
      let read = 0;
      const get = await peakBufferBytes(async () => {
        for await (const chunk of (await s3.store.get('big/blob')).body) read += (chunk as Buffer).length;
      });
      expect(read).toBe(total);
      expect(put).toBeLessThan(48 * 1024 * 1024);
      expect(get).toBeLessThan(48 * 1024 * 1024);
    } finally {
      await s3.close();
    }
  });
});

describe('s3 blob store: ready', () => {
  it('passes for the bucket, and fails naming a bucket that is not there', async () => {
    const s3 = await startS3('portal-ready');
    try {
      await expect(s3.store.ready()).resolves.toBeUndefined();
      const missing = createS3BlobStore({ ...s3.location, bucket: 'portal-missing' }, s3.client);
      await expect(missing.ready()).rejects.toThrow(/STORAGE_URL: bucket "portal-missing" cannot be used: .*404/);
    } finally {
      await s3.close();
    }
  });
});
