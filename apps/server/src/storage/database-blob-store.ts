import { Readable } from 'node:stream';
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { escapeLike } from '../db/sql.ts';
import {
  assertBlobKey,
  assertBlobPrefix,
  BlobNotFoundError,
  piecesOf,
  type BlobBody,
  type BlobInfo,
  type BlobListing,
  type BlobObject,
  type BlobStore,
  type PutOptions,
} from './blob-store.ts';
import { blobChunks, blobs } from './blobs.table.ts';

/** One row of `blob_chunks`: big enough that a 20 MB payload is twenty rows, small enough to hold one in memory. */
export const DATABASE_CHUNK_BYTES = 1024 * 1024;
const LIST_PAGE = 500;

/** PGlite hands bytea back as a Uint8Array, node-postgres as a Buffer. */
const toBuffer = (data: Buffer | Uint8Array): Buffer =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** Byte order on every server, whatever the database's collation, so listings page the same everywhere. */
const keyOrder = sql`${blobs.key} collate "C"`;

export type DatabaseBlobStore = BlobStore & {
  /** Removes what puts that died midway left behind (rows without a key), older than `before`. */
  deleteIncomplete(before: Date): Promise<number>;
};

/**
 * The default store: blobs in the application's own database (PGlite or PostgreSQL), chunked so that neither a put
 * nor a get holds a whole blob in memory. Backups of the database carry the blobs with them.
 */
export function createDatabaseBlobStore(db: Db, options: { chunkBytes?: number } = {}): DatabaseBlobStore {
  const chunkBytes = options.chunkBytes ?? DATABASE_CHUNK_BYTES;

  async function find(key: string) {
    const [row] = await db.select().from(blobs).where(eq(blobs.key, key)).limit(1);
    return row;
  }

  /** Gives the written blob its key in one transaction, after dropping the blob that had it. */
  async function publish(id: string, key: string, size: number, chunkCount: number): Promise<Date> {
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      // Two puts of one key at once: the lock makes the later one wait until the first has committed, so its delete
      // sees that blob and replaces it; the last writer wins, as with S3, and neither meets the unique index.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
      await tx.delete(blobs).where(eq(blobs.key, key));
      const [row] = await tx
        .update(blobs)
        .set({ key, size, chunkCount, createdAt: sql`now()` })
        .where(eq(blobs.id, id))
        .returning({ createdAt: blobs.createdAt });
      if (!row) throw new Error(`Blob ${key}: its pending row ${id} is gone`);
      return row.createdAt;
    });
  }

  return {
    kind: 'database',

    async put(key: string, body: BlobBody, options: PutOptions): Promise<BlobInfo> {
      assertBlobKey(key);
      const [pending] = await db
        .insert(blobs)
        .values({ key: null, contentType: options.contentType })
        .returning({ id: blobs.id });
      const id = pending!.id;
      try {
        let seq = 0;
        let size = 0;
        // One insert per chunk and no transaction around them: a slow upload holds no connection between chunks.
        for await (const piece of piecesOf(key, body, chunkBytes, options.maxBytes)) {
          await db.insert(blobChunks).values({ blobId: id, seq, data: piece });
          seq += 1;
          size += piece.length;
        }
        const createdAt = await publish(id, key, size, seq);
        return { key, contentType: options.contentType, size, createdAt };
      } catch (error) {
        await db.delete(blobs).where(eq(blobs.id, id));
        throw error;
      }
    },

    async get(key: string): Promise<BlobObject> {
      assertBlobKey(key);
      const row = await find(key);
      if (!row) throw new BlobNotFoundError(key);
      async function* chunks(): AsyncGenerator<Buffer> {
        for (let seq = 0; seq < row!.chunkCount; seq += 1) {
          const [chunk] = await db
            .select({ data: blobChunks.data })
            .from(blobChunks)
            .where(and(eq(blobChunks.blobId, row!.id), eq(blobChunks.seq, seq)));
          // Replaced or deleted while being read: fail the stream rather than hand over a mix or a short file.
          if (!chunk) throw new BlobNotFoundError(key);
          yield toBuffer(chunk.data as Buffer | Uint8Array);
        }
      }
      return {
        key,
        contentType: row.contentType,
        size: row.size,
        createdAt: row.createdAt,
        body: Readable.from(chunks(), { objectMode: false }),
      };
    },

    async stat(key: string): Promise<BlobInfo | undefined> {
      assertBlobKey(key);
      const row = await find(key);
      return row ? { key, contentType: row.contentType, size: row.size, createdAt: row.createdAt } : undefined;
    },

    async delete(key: string): Promise<void> {
      assertBlobKey(key);
      await db.delete(blobs).where(eq(blobs.key, key));
    },

    async *list(prefix: string): AsyncGenerator<BlobListing> {
      assertBlobPrefix(prefix);
      let after: string | undefined;
      for (;;) {
        const rows = await db
          .select({ key: blobs.key, size: blobs.size, createdAt: blobs.createdAt })
          .from(blobs)
          .where(
            and(
              sql`${blobs.key} like ${`${escapeLike(prefix)}%`}`,
              after === undefined ? undefined : sql`${keyOrder} > ${after}`,
            ),
          )
          .orderBy(asc(keyOrder))
          .limit(LIST_PAGE);
        for (const r of rows) yield { key: r.key!, size: r.size, createdAt: r.createdAt };
        if (rows.length < LIST_PAGE) return;
        after = rows[rows.length - 1]!.key!;
      }
    },

    async deleteIncomplete(before: Date): Promise<number> {
      const gone = await db
        .delete(blobs)
        .where(and(isNull(blobs.key), lt(blobs.createdAt, before)))
        .returning({ id: blobs.id });
      return gone.length;
    },
  };
}
