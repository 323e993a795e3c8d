import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/helper.ts';
import { startS3 } from '../../test/s3.ts';
import type { Database } from '../db/client.ts';
import { copyBlobs } from './copy-blobs.ts';
import { createDatabaseBlobStore } from './database-blob-store.ts';

describe('copyBlobs', () => {
  let database: Database;
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    database = await freshDatabase();
    s3 = await startS3('portal-copy');
  });
  afterAll(async () => {
    await s3?.close();
    await database?.close();
  });

  it('moves every blob under a prefix from the database to S3 and back, bytes and content types kept', async () => {
    const db = createDatabaseBlobStore(database.db);
    const big = randomBytes(1024 * 1024 * 2 + 3);
    await db.put('issue-reports/r1/f1', big, { contentType: 'application/zip' });
    await db.put('issue-reports/r2/f2', Buffer.from('text'), { contentType: 'text/plain' });
    await db.put('other/x', Buffer.from('not copied'), { contentType: 'text/plain' });

    const seen: string[] = [];
    const report = await copyBlobs(db, s3.store, { prefix: 'issue-reports/', onCopied: (key) => seen.push(key) });
    expect(report).toEqual({ copied: 2, bytes: big.length + 4 });
    expect(seen).toEqual(['issue-reports/r1/f1', 'issue-reports/r2/f2']);
    expect(await s3.store.stat('other/x')).toBeUndefined();
    const copied = await s3.store.get('issue-reports/r1/f1');
    expect(copied.contentType).toBe('application/zip');
    const chunks: Buffer[] = [];
    for await (const chunk of copied.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(big)).toBe(true);

    await db.delete('issue-reports/r2/f2');
    expect(await copyBlobs(s3.store, db)).toEqual({ copied: 2, bytes: big.length + 4 });
    expect((await db.stat('issue-reports/r2/f2'))?.contentType).toBe('text/plain');
  });
});
