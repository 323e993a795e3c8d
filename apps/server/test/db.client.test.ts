import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';

const url = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.TEST_DB_KIND === 'postgres' && !!url;

describe.runIf(onPostgres)('openDatabase on PostgreSQL', () => {
  it('survives the server dropping an idle connection (restart, failover, idle timeout)', async () => {
    const name = `portal_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const target = new URL(url!);
    target.pathname = `/${name}`;
    const database = await openDatabase({ url: target.toString(), dataDir: '' });
    try {
      await database.db.execute(sql`select 1`);
      // Every connection of the pool is now idle; end them from the server side.
      const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
        name,
      ]);
      expect(ended.rowCount).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The process is still alive (an unhandled pool error would have ended it) and the next query reconnects.
      const result = (await database.db.execute(sql`select 1 as one`)) as unknown as { rows: unknown[] };
      expect(result.rows[0]).toEqual({ one: 1 });
    } finally {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
