import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea } from '../db/columns.ts';

/**
 * The database blob store (the default). A blob is written as chunks under a row whose key is null until the last
 * chunk is in; then one short transaction gives it its key, replacing the old blob. Readers never see half a blob,
 * and no transaction stays open while a slow client uploads.
 */
export const blobs = pgTable(
  'blobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null while the chunks are being written (or left by a put that died: see `deleteIncomplete`). */
    key: text('key'),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    chunkCount: integer('chunk_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('blobs_key_key').on(t.key), index('blobs_created_idx').on(t.createdAt)],
);

/** A blob's bytes, 1 MiB a row, so that reading one never loads it whole. */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    blobId: uuid('blob_id')
      .notNull()
      .references(() => blobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.blobId, t.seq] })],
);
