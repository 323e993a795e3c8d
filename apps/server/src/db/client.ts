import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** One handle type for both drivers: the code only ever sees PostgreSQL semantics. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, to open copies of it (`loadDataDir`) without initdb (tests). */
  dump?(): Promise<Blob>;
};

/** One round trip to the database (the health check). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * Opens the database and applies pending migrations. `url` set: a PostgreSQL server through `pg`;
 * else PGlite, in `dataDir` (or in memory when `dataDir` is `memory://`).
 */
export async function openDatabase(options: {
  url?: string | undefined;
  dataDir: string;
  /** PGlite in memory: start from this tarball of a data directory (a `dump()`), not from initdb. */
  loadDataDir?: Blob | undefined;
}): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 20 });
    // An idle connection ended by the server (restart, failover, idle timeout) is reported here; without a listener
    // the error would end the process. The pool drops that connection and opens a new one for the next query.
    pool.on('error', (error) => console.error(`PostgreSQL closed an idle connection: ${error.message}`));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: MIGRATIONS });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  // Loaded only here: a server on PostgreSQL never holds the embedded database's code and memory.
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  let client: InstanceType<typeof PGlite>;
  if (options.dataDir === 'memory://') {
    // initdb costs seconds; a test suite opens copies of one migrated database instead.
    client = new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  } else {
    mkdirSync(options.dataDir, { recursive: true });
    client = new PGlite(`${options.dataDir}/pglite`);
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: () => client.close(),
    dump: () => client.dumpDataDir('none'),
  };
}
