import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError, BlobTooLargeError, type BlobStore } from '../src/storage/blob-store.ts';

/** What each store's test file provides: a fresh, empty store and how to tear it down. */
export type BlobStoreFixture = { store: BlobStore; close(): Promise<void> };

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A body that arrives in uneven pieces, as an upload does, without ever being one buffer on the sending side. */
function trickle(total: number, seed: number): { stream: Readable; sha256: string } {
  const hash = createHash('sha256');
  const pieces: Buffer[] = [];
  let left = total;
  let n = seed;
  while (left > 0) {
    n = (n * 1103515245 + 12345) % 2 ** 31;
    const size = Math.min(left, 1 + (n % 200_000));
    const piece = Buffer.alloc(size, n % 251);
    if (size >= 4) piece.writeUInt32BE(n, 0);
    hash.update(piece);
    pieces.push(piece);
    left -= size;
  }
  return { stream: Readable.from(pieces), sha256: hash.digest('hex') };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The one behaviour every BlobStore must have; each store's test file runs it against a real backend (the database on
 * PGlite and PostgreSQL, S3 against a local S3-compatible server).
 */
export function blobStoreSuite(name: string, open: () => Promise<BlobStoreFixture>, options: { bigBytes: number }) {
  describe(`BlobStore: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;
    beforeAll(async () => {
      fixture = await open();
      store = fixture.store;
    });
    afterAll(() => fixture?.close());

    it('keeps bytes with their content type and size, and gives them back as a stream', async () => {
      const data = randomBytes(1000);
      const info = await store.put('suite/plain/one.bin', data, { contentType: 'application/pdf' });
      expect(info).toMatchObject({ key: 'suite/plain/one.bin', contentType: 'application/pdf', size: 1000 });
      const blob = await store.get('suite/plain/one.bin');
      expect(blob).toMatchObject({ contentType: 'application/pdf', size: 1000 });
      expect(blob.body).toBeInstanceOf(Readable);
      expect((await bytesOf(blob.body)).equals(data)).toBe(true);
      expect(await store.stat('suite/plain/one.bin')).toMatchObject({ contentType: 'application/pdf', size: 1000 });
    });

    it('takes a stream longer than its pieces and returns the same bytes', async () => {
      const body = trickle(options.bigBytes, 7);
      const info = await store.put('suite/big/stream.bin', body.stream, { contentType: 'application/octet-stream' });
      expect(info.size).toBe(options.bigBytes);
      const blob = await store.get('suite/big/stream.bin');
      expect(blob.size).toBe(options.bigBytes);
      let chunks = 0;
      const hash = createHash('sha256');
      for await (const chunk of blob.body) {
        chunks += 1;
        hash.update(chunk as Buffer);
      }
      expect(hash.digest('hex')).toBe(body.sha256);
      // Read as it arrives, not handed over as one buffer.
      expect(chunks).toBeGreaterThan(1);
    });

    it('keeps an empty blob', async () => {
      await store.put('suite/empty', Buffer.alloc(0), { contentType: 'text/plain' });
      const blob = await store.get('suite/empty');
      expect(blob.size).toBe(0);
      expect((await bytesOf(blob.body)).length).toBe(0);
    });

    it('replaces the blob under a key that is put again', async () => {
      await store.put('suite/replace', Buffer.from('first version'), { contentType: 'text/plain' });
      await store.put('suite/replace', Buffer.from('second'), { contentType: 'text/csv' });
      const blob = await store.get('suite/replace');
      expect(blob.contentType).toBe('text/csv');
      expect((await bytesOf(blob.body)).toString()).toBe('second');
    });

    it('refuses a body past maxBytes, stores nothing and leaves the blob already there', async () => {
      await store.put('suite/limited', Buffer.from('kept'), { contentType: 'text/plain' });
      const body = trickle(300_000, 3);
      await expect(
        store.put('suite/limited', body.stream, { contentType: 'text/plain', maxBytes: 100_000 }),
      ).rejects.toBeInstanceOf(BlobTooLargeError);
      await expect(
        store.put('suite/limited-new', Buffer.alloc(10), { contentType: 'text/plain', maxBytes: 9 }),
      ).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await store.stat('suite/limited-new')).toBeUndefined();
      expect((await bytesOf((await store.get('suite/limited')).body)).toString()).toBe('kept');
      // Exactly the limit is allowed.
      await store.put('suite/limited-new', Buffer.alloc(9), { contentType: 'text/plain', maxBytes: 9 });
      expect((await store.stat('suite/limited-new'))?.size).toBe(9);
    });

    it('reports a missing blob: get throws BlobNotFoundError, stat answers undefined', async () => {
      await expect(store.get('suite/absent')).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.stat('suite/absent')).toBeUndefined();
    });

    it('deletes, and deleting what is not there is no error', async () => {
      await store.put('suite/gone', Buffer.from('x'), { contentType: 'text/plain' });
      await store.delete('suite/gone');
      expect(await store.stat('suite/gone')).toBeUndefined();
      await expect(store.get('suite/gone')).rejects.toBeInstanceOf(BlobNotFoundError);
      await store.delete('suite/gone');
    });

    it('lists the keys under a prefix in key order, and nothing beside them', async () => {
      for (const key of ['list/a/2', 'list/a/10', 'list/a/1', 'list/ab/1', 'list/b/1', 'list/a_/1'])
        await store.put(key, Buffer.from(key), { contentType: 'text/plain' });
      const listed = [];
      for await (const entry of store.list('list/a/')) listed.push(entry);
      expect(listed.map((e) => e.key)).toEqual(['list/a/1', 'list/a/10', 'list/a/2']);
      expect(listed.map((e) => e.size)).toEqual([8, 9, 8]);
      expect(listed.every((e) => e.createdAt instanceof Date)).toBe(true);
      // `_` is a plain character in a key, not a wildcard.
      const underscore = [];
      for await (const entry of store.list('list/a_')) underscore.push(entry.key);
      expect(underscore).toEqual(['list/a_/1']);
      const none = [];
      for await (const entry of store.list('list/zzz/')) none.push(entry);
      expect(none).toEqual([]);
    });

    it('refuses keys that are not the server’s own shape', async () => {
      for (const key of ['', '/abs', 'a//b', 'a/../b', 'a/./b', 'sp ace', 'a/', 'x'.repeat(513)])
        await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(TypeError);
      await expect(store.get('../etc/passwd')).rejects.toThrow(TypeError);
    });

    it('keeps same bytes for a body given as a Uint8Array view into a larger buffer', async () => {
      const backing = randomBytes(64);
      const view = new Uint8Array(backing.buffer, backing.byteOffset + 8, 16);
      await store.put('suite/view', view, { contentType: 'application/octet-stream' });
      const got = await bytesOf((await store.get('suite/view')).body);
      expect(sha256(got)).toBe(sha256(Buffer.from(view)));
    });
  });
}
