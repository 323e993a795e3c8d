import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database, type Db } from '../src/db/client.ts';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { seedDemoData } from '../src/seed/demo.ts';
import type { BlobStore } from '../src/storage/blob-store.ts';
import type { DbSnapshots } from './db-snapshots.ts';

/** A clock the test moves by hand, so expiry is tested without waiting. */
export type TestClock = { now(): Date; advance(seconds: number): void; set(date: Date): void };
export function createTestClock(start = new Date('2026-11-16T10:00:00Z')): TestClock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance: (s) => {
      t += s * 1000;
    },
    set: (d) => {
      t = d.getTime();
    },
  };
}

/** The run's database snapshots (`db-snapshots.ts`), when the suite's globalSetup made them. */
function snapshots(): DbSnapshots | undefined {
  try {
    return inject('dbSnapshots');
  } catch {
    return undefined;
  }
}

/**
 * A fresh, migrated database per test file: PGlite in memory, or, in the PostgreSQL run (TEST_DB_KIND=postgres,
 * TEST_DATABASE_URL set), a new database on that server that is dropped afterwards. Each is a copy of the run's
 * snapshot (`seeded`: with the demo data already in it), so no file pays for initdb, the migrations and the seed.
 */
export async function freshDatabase(options: { seeded?: boolean } = {}): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const snapshot = snapshots();
  const from = options.seeded ? snapshot?.seeded : snapshot?.migrated;
  if (process.env.TEST_DB_KIND !== 'postgres' || !url) {
    const database = await openDatabase({
      dataDir: 'memory://',
      loadDataDir: snapshot?.kind === 'pglite' && from ? new Blob([readFileSync(from)]) : undefined,
    });
    if (options.seeded && !(snapshot?.kind === 'pglite' && from)) await seedDemoData(database.db);
    return database;
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const template = snapshot?.kind === 'postgres' && from ? ` TEMPLATE ${from}` : '';
  await admin.query(`CREATE DATABASE ${name}${template}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString(), dataDir: '' });
  if (options.seeded && !template) await seedDemoData(database.db);
  return {
    ...database,
    async close() {
      await database.close();
      const drop = new pg.Client({ connectionString: url });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  clock: TestClock;
  /** The app's job queue: `await t.jobs.drain()` runs every due job (an e-mail's delivery) before a test looks. */
  jobs: FastifyInstance['services']['jobs'];
  /** The app's last warnings and errors (its log lines at LOG_LEVEL, warn by default), for a failure's message. */
  logs: string[];
  close(): Promise<void>;
};

/** Log lines kept per test app: the newest, enough to say why a job or an upload failed. */
const KEPT_LOG_LINES = 200;

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    seed?: boolean;
    accessTtlSeconds?: number;
    clock?: TestClock;
    /** A blob store instead of the database's (the S3 store against a local server). */
    blobs?: BlobStore;
    /**
     * Another app's database, for a second server process beside the first (seed it once); the caller closes it.
     */
    database?: Database;
    /** DATA_DIR, when the test prepares it; a fresh temporary folder otherwise. */
    dataDir?: string;
  } = {},
): Promise<TestApp> {
  const seed = options.seed !== false;
  const database = options.database ?? (await freshDatabase({ seeded: seed }));
  // A database of the caller's is seeded here (once: the seed does nothing the second time).
  if (seed && options.database) await seedDemoData(database.db);
  const clock = options.clock ?? createTestClock();
  // DATA_DIR holds this process's copy of the EDIFACT directories: a temporary folder, never the repository's ./data.
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'portal-test-'));
  const config = loadConfig({
    PUBLIC_URL: 'http://portal.test',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
    DATA_DIR: dataDir,
    // The shipped D96A and D01B are imported by the EDIFACT tests that need them, not by every test app.
    EDIFACT_SHIPPED_DIRECTORIES: 'false',
    ...options.env,
  });
  const logs: string[] = [];
  const logStream = {
    write(line: string) {
      logs.push(line.trimEnd());
      if (logs.length > KEPT_LOG_LINES) logs.shift();
    },
  };
  const app = await buildApp({
    config,
    database,
    clock,
    logStream,
    ...(options.accessTtlSeconds ? { accessTtlSeconds: options.accessTtlSeconds } : {}),
    ...(options.blobs ? { blobs: options.blobs } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    clock,
    jobs: app.services.jobs,
    logs,
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/** The app's last `count` warnings and errors, each as its message and its error's, for a failure's message. */
export function recentWarnings(t: Pick<TestApp, 'logs'>, count = 8): string[] {
  return t.logs.slice(-count).map((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; err?: { message?: string; code?: string } };
      return [entry.msg, entry.err?.code, entry.err?.message].filter(Boolean).join(': ');
    } catch {
      return line.slice(0, 300);
    }
  });
}

export const DEMO_USER = { login: 'user@demo.example.com', password: 'User#Demo2026' };

/** Logs in and returns the token set; fails the test when login does not succeed. */
export async function login(app: FastifyInstance, creds: { login: string; password: string } = DEMO_USER) {
  const res = await app.inject({ method: 'POST', url: '/api/users/login', payload: creds });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().keycloakResponse.token as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    refresh_expires_in: number;
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The newest audit entry of an event, optionally narrowed by another condition. */
export async function latestAudit(db: Db, event: string, where?: SQL) {
  const [entry] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.event, event), where))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry;
}
