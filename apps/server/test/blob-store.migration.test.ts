import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { createDatabaseBlobStore } from '../src/storage/database-blob-store.ts';

const MIGRATIONS = fileURLToPath(new URL('../drizzle', import.meta.url));
/** The last migration with the files' bytes in `issue_report_files.data`. */
const BEFORE_BLOBS = '0003_restrictions-issue-reports';

/** The migrations folder as it was up to a tag: the SQL files and a journal that ends there. */
function migrationsUpTo(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((e) => e.tag === tag);
  if (end < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** An empty database of the kind under test, migrated only when told to. */
async function emptyDatabase() {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB_KIND === 'postgres' && url) {
    const name = `portal_migration_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: target.toString() });
    const db = drizzlePg(pool, { schema });
    return {
      db: db as unknown as Db,
      migrate: (folder: string) => migratePg(db, { migrationsFolder: folder }),
      async close() {
        await pool.end();
        const drop = new pg.Client({ connectionString: url });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await drop.end();
      },
    };
  }
  const client = new PGlite();
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

describe('migration of issue-report files into the blob store', () => {
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  let oldMigrations: string;
  const small = Buffer.from('%PDF-1.4\n%%EOF\n');
  // Over two chunks of 1 MiB, so the migration's chunking is what the store reads back.
  const large = randomBytes(2 * 1024 * 1024 + 5);

  beforeAll(async () => {
    database = await emptyDatabase();
    oldMigrations = migrationsUpTo(BEFORE_BLOBS);
    await database.migrate(oldMigrations);
    // Rows as the server before the blob store wrote them.
    await database.db.execute(sql`
      insert into issue_reports (id, type, priority, subject, description, created_at)
      values ('00000000-0000-4000-8000-000000000001', 'technical', 'minor', 'Old', 'Kept before blobs',
              '2026-11-01T10:00:00Z')`);
    await database.db.execute(sql`
      insert into issue_report_files (id, report_id, filename, content_type, size, data) values
        ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'a.pdf',
         'application/pdf', ${small.length}, ${small}),
        ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-000000000001', 'b.zip',
         'application/zip', ${large.length}, ${large})`);
    await database.migrate(MIGRATIONS);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(oldMigrations, { recursive: true, force: true });
  });

  it('moves every file into a blob under issue-reports/<report>/<file> and keeps the bytes and type', async () => {
    const rows = await database.db.execute(sql`select id, blob_key from issue_report_files order by filename`);
    const keys = (rows as unknown as { rows: { blob_key: string }[] }).rows.map((r) => r.blob_key);
    expect(keys).toEqual([
      'issue-reports/00000000-0000-4000-8000-000000000001/00000000-0000-4000-8000-0000000000a1',
      'issue-reports/00000000-0000-4000-8000-000000000001/00000000-0000-4000-8000-0000000000a2',
    ]);
    const store = createDatabaseBlobStore(database.db);
    for (const [key, bytes, type] of [
      [keys[0]!, small, 'application/pdf'],
      [keys[1]!, large, 'application/zip'],
    ] as const) {
      const blob = await store.get(key);
      expect(blob.contentType).toBe(type);
      expect(blob.size).toBe(bytes.length);
      const chunks: Buffer[] = [];
      for await (const chunk of blob.body) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    }
    const listed = [];
    for await (const entry of store.list('issue-reports/')) listed.push(entry.key);
    expect(listed).toEqual(keys);
  });

  it('drops the bytes from the files table', async () => {
    const columns = await database.db.execute(
      sql`select column_name from information_schema.columns where table_name = 'issue_report_files'`,
    );
    const names = (columns as unknown as { rows: { column_name: string }[] }).rows.map((r) => r.column_name);
    expect(names).toContain('blob_key');
    expect(names).not.toContain('data');
  });
});
