import { Readable } from 'node:stream';
import { count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { BlobNotFoundError } from '../src/storage/blob-store.ts';
import { blobChunks, blobs } from '../src/storage/blobs.table.ts';
import { createDatabaseBlobStore, DATABASE_CHUNK_BYTES } from '../src/storage/database-blob-store.ts';
import { blobStoreSuite } from './blob-store.suite.ts';
import { freshDatabase } from './helper.ts';
import { generatedBody, peakBufferBytes } from './memory.ts';

// The shared suite, on PGlite here and on PostgreSQL in the server-postgres run, with the real chunk size.
blobStoreSuite(
  'database',
  async () => {
    const database = await freshDatabase();
    return { store: createDatabaseBlobStore(database.db), close: () => database.close() };
  },
  { bigBytes: 3 * DATABASE_CHUNK_BYTES + 17 },
);

describe('database blob store: chunks and unfinished puts', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.close());

  const chunksOf = async (key: string) => {
    const [row] = await database.db
      .select({ n: count() })
      .from(blobChunks)
      .innerJoin(blobs, eq(blobs.id, blobChunks.blobId))
      .where(eq(blobs.key, key));
    return row!.n;
  };

  it('writes one row per chunk and drops the old chunks when a key is replaced', async () => {
    const store = createDatabaseBlobStore(database.db, { chunkBytes: 10 });
    await store.put('c/one', Buffer.alloc(25, 1), { contentType: 'text/plain' });
    expect(await chunksOf('c/one')).toBe(3);
    await store.put('c/one', Buffer.alloc(5, 2), { contentType: 'text/plain' });
    expect(await chunksOf('c/one')).toBe(1);
    const [all] = await database.db.select({ n: count() }).from(blobChunks);
    expect(all!.n).toBe(1);
  });

  it('lets concurrent puts of one key all succeed, the blob left whole and its chunks alone', async () => {
    const store = createDatabaseBlobStore(database.db, { chunkBytes: 1000 });
    const versions = Array.from({ length: 6 }, (_, i) => Buffer.alloc(5000 + i * 700, i + 1));
    await Promise.all(versions.map((v) => store.put('c/race', v, { contentType: 'application/octet-stream' })));
    const chunks: Buffer[] = [];
    for await (const chunk of (await store.get('c/race')).body) chunks.push(chunk as Buffer);
    const final = Buffer.concat(chunks);
    expect(versions.some((v) => v.equals(final))).toBe(true);
    const [rows] = await database.db.select({ n: count() }).from(blobs).where(eq(blobs.key, 'c/race'));
    expect(rows!.n).toBe(1);
    expect(await chunksOf('c/race')).toBe(Math.ceil(final.length / 1000));
    const [pending] = await database.db.select({ n: count() }).from(blobs).where(isNull(blobs.key));
    expect(pending!.n).toBe(0);
  });

  it('leaves nothing behind when the body fails midway', async () => {
    const store = createDatabaseBlobStore(database.db, { chunkBytes: 10 });
    async function* broken() {
      yield Buffer.alloc(30, 1);
      throw new Error('client went away');
    }
    await expect(store.put('c/broken', Readable.from(broken()), { contentType: 'text/plain' })).rejects.toThrow(
      'client went away',
    );
    const [pending] = await database.db.select({ n: count() }).from(blobs).where(isNull(blobs.key));
    expect(pending!.n).toBe(0);
    expect(await store.stat('c/broken')).toBeUndefined();
  });

  it('deletes the rows of puts that died before they were published, once old enough', async () => {
    const store = createDatabaseBlobStore(database.db);
    // What a process killed between chunks leaves: a row without a key, and its chunks.
    const [row] = await database.db
      .insert(blobs)
      .values({ key: null, contentType: 'text/plain', createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .returning();
    await database.db.insert(blobChunks).values({ blobId: row!.id, seq: 0, data: Buffer.from('half') });
    await store.put('c/live', Buffer.from('live'), { contentType: 'text/plain' });
    expect(await store.deleteIncomplete(new Date(Date.now() - 86_400_000))).toBe(1);
    const [left] = await database.db.select({ n: count() }).from(blobChunks).where(eq(blobChunks.blobId, row!.id));
    expect(left!.n).toBe(0);
    expect(await store.stat('c/live')).toBeDefined();
  });

  it('fails the stream of a blob deleted while it is read, instead of handing over a short file', async () => {
    // Chunks above the stream's 16 KiB read-ahead, so at most one chunk is fetched before it is asked for.
    const store = createDatabaseBlobStore(database.db, { chunkBytes: 20_000 });
    await store.put('c/read', Buffer.alloc(100_000, 3), { contentType: 'text/plain' });
    const blob = await store.get('c/read');
    const iterator = blob.body[Symbol.asyncIterator]();
    let read = ((await iterator.next()).value as Buffer).length;
    await store.delete('c/read');
    const rest = (async () => {
      for (;;) {
        const step = await iterator.next();
        if (step.done) return read;
        read += (step.value as Buffer).length;
      }
    })();
    await expect(rest).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(read).toBeLessThan(100_000);
  });
});

// PGlite keeps its data in WebAssembly memory and writes bytea at about 2 MB/s, so the size of what the store itself
// holds is measured on PostgreSQL.
describe.skipIf(process.env.TEST_DB_KIND !== 'postgres')('database blob store: memory', () => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.close());

  it('puts and gets a blob far larger than what it holds at once', { timeout: 120_000 }, async () => {
    const store = createDatabaseBlobStore(database.db);
    const total = 64 * 1024 * 1024;
    // One 1 MiB chunk being written or read, plus the driver's buffers; a store that read the blob whole: 64 MiB.
    const put = await peakBufferBytes(async () => {
      await store.put('big/blob', generatedBody(total), { contentType: 'application/octet-stream' });
    });
    let read = 0;
    const get = await peakBufferBytes(async () => {
      for await (const chunk of (await store.get('big/blob')).body) read += (chunk as Buffer).length;
    });
    expect(read).toBe(total);
    expect(put).toBeLessThan(40 * 1024 * 1024);
    expect(get).toBeLessThan(40 * 1024 * 1024);
  });
});
