import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database, type Db } from '../src/db/client.ts';
import { outboundEmails } from '../src/features/mail/mail.table.ts';
import type { JobDefinitions, JobRun } from '../src/jobs/jobs.ts';
import { clientExecutor, createJobQueue, jobIdForKey, JOBS_SCHEMA, type JobQueue } from '../src/jobs/queue.ts';
import { seedDemoData } from '../src/seed/demo.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';
import { startSmtpReceiver } from './smtp.ts';

/** Jobs of this file only: short delays, so retries and backoff are seen in seconds. */
const TEST_JOBS = {
  'test.flaky': { payload: z.object({ n: z.number() }), retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 30 },
  'test.doomed': { payload: z.object({ n: z.number() }), retryLimit: 1, retryDelaySeconds: 1, expireInSeconds: 30 },
  'test.expiring': { payload: z.object({ n: z.number() }), retryLimit: 1, retryDelaySeconds: 1, expireInSeconds: 1 },
} satisfies JobDefinitions;

type Behaviour = (payload: { n: number }, run: JobRun) => Promise<void>;
/** What each job does when run: set by each test for its own payload `n`, so no test depends on another. */
const behaviours = new Map<number, Behaviour>();
const runsOf = new Map<number, JobRun[]>();
const handler: Behaviour = async (payload, run) => {
  runsOf.set(payload.n, [...(runsOf.get(payload.n) ?? []), run]);
  await behaviours.get(payload.n)?.(payload, run);
};

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
let queue: JobQueue<typeof TEST_JOBS>;

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url } });
  // A second queue on the app's database, as another process would have: pg-boss shares the tables.
  queue = createJobQueue({ database: t.database, log: Fastify({ logger: false }).log, definitions: TEST_JOBS });
  await queue.start();
  await queue.handle({ 'test.flaky': handler, 'test.doomed': handler, 'test.expiring': handler }, { workers: false });
});
afterAll(async () => {
  await queue.stop();
  await t.close();
  await receiver.close();
});

/**
 * A job's state, how many seconds it still waits before its next run (negative: due), and its backoff: from the start
 * of the failed run to the next (the run itself takes milliseconds).
 */
async function jobOf(id: string) {
  const result = await t.database.db.execute(
    sql`SELECT state::text AS state, retry_count, extract(epoch FROM start_after - now())::float8 AS wait,
          extract(epoch FROM start_after - started_on)::float8 AS backoff
        FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE id = ${id}::uuid`,
  );
  return (result as unknown as { rows: { state: string; retry_count: number; wait: number; backoff: number }[] })
    .rows[0];
}

async function jobCount(id: string): Promise<number> {
  const result = await t.database.db.execute(
    sql`SELECT count(*)::int AS n FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE id = ${id}::uuid`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

/** Waits out a retry's backoff, then runs what is due. */
async function runAfterBackoff(id: string) {
  const job = await jobOf(id);
  await sleep(Math.max(0, job!.wait) * 1000 + 50);
  await queue.drain();
}

describe('the job runner', () => {
  it('retries a failed run with exponential backoff until it succeeds', async () => {
    behaviours.set(1, async (_, run) => {
      if (run.attempt < 3) throw new Error(`attempt ${run.attempt} failed`);
    });
    const id = (await queue.enqueue(t.database.db, 'test.flaky', { n: 1 }))!;

    await queue.drain();
    const first = await jobOf(id);
    // Backoff: delay × 2^(n-1) to twice that, so 1-2 s after the first failure and 2-4 s after the second.
    expect(first).toMatchObject({ state: 'retry' });
    expect(first!.backoff).toBeGreaterThanOrEqual(1);
    expect(first!.backoff).toBeLessThan(2.5);

    await runAfterBackoff(id);
    const second = await jobOf(id);
    expect(second).toMatchObject({ state: 'retry', retry_count: 1 });
    expect(second!.backoff).toBeGreaterThanOrEqual(2);
    expect(second!.backoff).toBeLessThan(4.5);

    await runAfterBackoff(id);
    expect(await jobOf(id)).toMatchObject({ state: 'completed', retry_count: 2 });
    expect(runsOf.get(1)!.map((r) => [r.attempt, r.isLastAttempt])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
  });

  it('makes a job whose retries are spent dead, and shows it to admins only', async () => {
    behaviours.set(2, async () => {
      throw new Error('the partner refused the message');
    });
    const id = (await queue.enqueue(t.database.db, 'test.doomed', { n: 2 }))!;
    await queue.drain();
    expect(await jobOf(id)).toMatchObject({ state: 'retry' });
    await runAfterBackoff(id);
    expect(await jobOf(id)).toMatchObject({ state: 'failed', retry_count: 1 });
    expect(runsOf.get(2)!.map((r) => r.isLastAttempt)).toEqual([false, true]);
    // Dead means no more runs, however long one waits.
    await queue.drain();
    expect(runsOf.get(2)).toHaveLength(2);

    const admin = (await login(t.app, ADMIN)).access_token;
    const res = await t.app.inject({ url: '/api/admin/jobs?state=failed&name=test.doomed', headers: bearer(admin) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({
        id,
        name: 'test.doomed',
        state: 'failed',
        data: { n: 2 },
        retryCount: 1,
        retryLimit: 1,
        error: 'the partner refused the message',
      }),
    ]);
    const user = (await login(t.app)).access_token;
    const forbidden = await t.app.inject({ url: '/api/admin/jobs?state=failed', headers: bearer(user) });
    expect(forbidden.statusCode).toBe(403);
    const bad = await t.app.inject({ url: '/api/admin/jobs?state=dead', headers: bearer(admin) });
    expect(bad.statusCode).toBe(400);
  });

  it('pages the dead letters newest first', async () => {
    behaviours.set(3, async () => {
      throw new Error('no');
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = (await queue.enqueue(t.database.db, 'test.doomed', { n: 3 }))!;
      ids.push(id);
      // Dead at once: its only retry is spent by failing it twice.
      await queue.drain();
      await runAfterBackoff(id);
    }
    const admin = (await login(t.app, ADMIN)).access_token;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string; data: { n: number } }[]; nextCursor: string | null } = (
        await t.app.inject({
          url: `/api/admin/jobs?state=failed&name=test.doomed&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          headers: bearer(admin),
        })
      ).json();
      seen.push(...page.items.filter((j) => j.data.n === 3).map((j) => j.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('runs again a job whose worker died while running it', async () => {
    const id = (await queue.enqueue(t.database.db, 'test.expiring', { n: 6 }))!;
    // Another process's worker takes the job and dies before it finishes.
    const dying = new PgBoss({ db: clientExecutor(t.database), schema: JOBS_SCHEMA, supervise: false });
    expect((await dying.fetch('test.expiring')).map((j) => j.id)).toEqual([id]);
    expect(await jobOf(id)).toMatchObject({ state: 'active' });
    await queue.drain({ timeoutMs: 100 }).catch(() => undefined); // running elsewhere: not run here
    expect(runsOf.get(6)).toBeUndefined();

    // Past its expiry, pg-boss's maintenance (every 2 minutes in each process) fails the run, and it is retried.
    await sleep(1200);
    await dying.expire();
    expect(await jobOf(id)).toMatchObject({ state: 'retry' });
    await runAfterBackoff(id);
    expect(await jobOf(id)).toMatchObject({ state: 'completed' });
    expect(runsOf.get(6)!.map((r) => r.attempt)).toEqual([2]);
  });

  it('makes one job of one idempotency key', async () => {
    const first = await queue.enqueue(t.database.db, 'test.flaky', { n: 4 }, { key: 'order-4711' });
    const again = await queue.enqueue(t.database.db, 'test.flaky', { n: 4 }, { key: 'order-4711' });
    expect(first).toBe(jobIdForKey('test.flaky', 'order-4711'));
    expect(again).toBeNull();
    expect(await jobCount(first!)).toBe(1);
    const other = await queue.enqueue(t.database.db, 'test.flaky', { n: 4 }, { key: 'order-4712' });
    expect(other).not.toBe(first);
    expect(await jobCount(other!)).toBe(1);
    await queue.drain();
    expect(runsOf.get(4)).toHaveLength(2);
  });

  it('writes no job when the transaction that enqueued it rolls back', async () => {
    const id = jobIdForKey('test.flaky', 'rolled-back');
    await expect(
      t.database.db.transaction(async (tx) => {
        await queue.enqueue(tx as unknown as Db, 'test.flaky', { n: 5 }, { key: 'rolled-back' });
        throw new Error('the data could not be saved');
      }),
    ).rejects.toThrow('the data could not be saved');
    expect(await jobCount(id)).toBe(0);

    await t.database.db.transaction(async (tx) => {
      await queue.enqueue(tx as unknown as Db, 'test.flaky', { n: 5 }, { key: 'rolled-back' });
    });
    expect(await jobCount(id)).toBe(1);
  });

  it('refuses a payload that does not match its schema', async () => {
    await expect(queue.enqueue(t.database.db, 'test.flaky', { n: 'six' } as never)).rejects.toThrow();
  });
});

describe('e-mail as a job', () => {
  it("stores a message and its job in the caller's transaction: none when it rolls back", async () => {
    const mail = t.app.services.mail;
    const mailJobs = async () => {
      const result = await t.database.db.execute(
        sql`SELECT count(*)::int AS n FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE name = 'mail.send'`,
      );
      return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    const jobsBefore = await mailJobs();
    const message = (to: string) => ({ kind: 'test', to, subject: 'Job test', text: 'Hello', language: 'en' });
    await expect(
      t.database.db.transaction(async (tx) => {
        await mail.send(message('rolled-back@example.com'), { tx: tx as unknown as Db });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const none = await t.database.db
      .select()
      .from(outboundEmails)
      .where(eq(outboundEmails.toAddress, 'rolled-back@example.com'));
    expect(none).toEqual([]);
    expect(await mailJobs()).toBe(jobsBefore);

    let id = '';
    await t.database.db.transaction(async (tx) => {
      id = (await mail.send(message('committed@example.com'), { tx: tx as unknown as Db })).id;
    });
    await t.jobs.drain();
    expect((await receiver.waitFor('committed@example.com')).subject).toBe('Job test');
    const [row] = await t.database.db.select().from(outboundEmails).where(eq(outboundEmails.id, id));
    expect(row).toMatchObject({ status: 'sent', error: null });
    expect(await jobCount(jobIdForKey('mail.send', id))).toBe(1);
    expect(await mailJobs()).toBe(jobsBefore + 1);
    await t.jobs.drain();
    expect(receiver.messages.filter((m) => m.to.includes('rolled-back@example.com'))).toEqual([]);
    expect(receiver.messages.filter((m) => m.to.includes('committed@example.com'))).toHaveLength(1);
  });
});

/** A loopback address where nothing listens: every SMTP attempt fails at once. */
async function deadSmtpUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

describe('e-mail delivery that fails', () => {
  it('keeps the message stored with the error while it is retried, and failed after the last try', async () => {
    const down = await createTestApp({ env: { SMTP_URL: await deadSmtpUrl() } });
    try {
      const { id } = await down.app.services.mail.send({
        kind: 'test',
        to: 'unreachable@example.com',
        subject: 'Never arrives',
        text: 'Hello',
        language: 'en',
        attachments: [{ filename: 'a.txt', content: Buffer.from('kept for the retry') }],
      });
      await down.jobs.drain();
      const [row] = await down.database.db.select().from(outboundEmails).where(eq(outboundEmails.id, id));
      expect(row).toMatchObject({ status: 'stored', sentAt: null });
      expect(row!.error).toMatch(/ECONNREFUSED/);
      const result = await down.database.db.execute(
        sql`SELECT state::text AS state, extract(epoch FROM start_after - now())::float8 AS wait
            FROM ${sql.raw(JOBS_SCHEMA)}.job WHERE id = ${jobIdForKey('mail.send', id)}::uuid`,
      );
      const job = (result as unknown as { rows: { state: string; wait: number }[] }).rows[0];
      // mail.send's first retry waits 30 to 60 s.
      expect(job!.state).toBe('retry');
      expect(job!.wait).toBeGreaterThan(28);
      expect(job!.wait).toBeLessThanOrEqual(60);

      // The last of its runs marks it failed (and throws, so the queue records the job as dead).
      await expect(down.app.services.mail.deliver(id, { id: 'last', attempt: 7, isLastAttempt: true })).rejects.toThrow(
        /ECONNREFUSED/,
      );
      const [dead] = await down.database.db.select().from(outboundEmails).where(eq(outboundEmails.id, id));
      expect(dead).toMatchObject({ status: 'failed' });
    } finally {
      await down.close();
    }
  });
});

/** A database that outlives the app instances opened on it, as a server's would (PGlite on disk, or PostgreSQL). */
async function lastingDatabase(): Promise<{ open(): Promise<Database>; drop(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB_KIND !== 'postgres' || !url) {
    const dir = mkdtempSync(join(tmpdir(), 'portal-jobs-'));
    return {
      open: () => openDatabase({ dataDir: dir }),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    open: () => openDatabase({ url: target.toString(), dataDir: '' }),
    async drop() {
      const drop = new pg.Client({ connectionString: url });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}

describe('stopping while a worker fetches', () => {
  it('waits for the job the fetch hands over, and for its completion, before the database may close', async (ctx) => {
    if (t.database.kind !== 'postgres') {
      ctx.skip('the lock that holds a fetch is PostgreSQL’s: PGlite runs one statement at a time');
    }
    const n = 11;
    let ran = false;
    behaviours.set(n, async () => {
      await sleep(100);
      ran = true;
    });
    // Earlier tests' jobs that are due would be fetched first.
    await queue.drain();
    const id = (await queue.enqueue(t.database.db, 'test.flaky', { n }))!;
    const workers = createJobQueue({
      database: t.database,
      log: Fastify({ logger: false }).log,
      definitions: TEST_JOBS,
      pollingIntervalSeconds: 0.5,
    });
    await workers.start();
    // pg-boss's fetch waits on this lock; the stop comes while it waits.
    const locker = await (t.database.db as unknown as { $client: pg.Pool }).$client.connect();
    let stopped = false;
    try {
      await locker.query(`BEGIN; LOCK TABLE ${JOBS_SCHEMA}.job IN ACCESS EXCLUSIVE MODE`);
      await workers.handle(
        { 'test.flaky': handler, 'test.doomed': handler, 'test.expiring': handler },
        { workers: true },
      );
      await sleep(300);
      const stopping = workers.stop().then(() => (stopped = true));
      await sleep(1000);
      // pg-boss itself saw no job running and was done; the fetch still holds one.
      expect(stopped).toBe(false);
      await locker.query('COMMIT');
      await stopping;
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      locker.release();
    }
    expect(ran).toBe(true);
    expect(await jobOf(id)).toMatchObject({ state: 'completed' });
  });
});

describe('a crash between enqueue and run', () => {
  it('leaves the job to the next instance on the same database, which runs it', async () => {
    const store = await lastingDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-test-'));
    const configOf = (workers: boolean) =>
      loadConfig({
        PUBLIC_URL: 'http://portal.test',
        LOG_LEVEL: 'silent',
        WEB_DIST: '/nonexistent',
        DATA_DIR: dataDir,
        EDIFACT_SHIPPED_DIRECTORIES: 'false',
        SMTP_URL: receiver.url,
        JOB_WORKERS: String(workers),
      });
    const email = 'clerk@demo.example.com';
    try {
      // The first instance writes the e-mail and its job, and goes away before any worker ran it.
      const first = await store.open();
      await seedDemoData(first.db);
      const before = await buildApp({ config: configOf(false), database: first, logger: false });
      const res = await before.inject({ method: 'POST', url: '/api/users/sendResetPasswordEmail', payload: { email } });
      expect(res.statusCode).toBe(200);
      await sleep(1500);
      expect(receiver.messages.filter((m) => m.to.includes(email))).toEqual([]);
      const [stored] = await first.db.select().from(outboundEmails).where(eq(outboundEmails.toAddress, email));
      expect(stored).toMatchObject({ status: 'stored', kind: 'reset_password' });
      await before.close();
      await first.close();

      // The next instance finds it and delivers it, without anyone telling it to.
      const second = await store.open();
      const after = await buildApp({ config: configOf(true), database: second, logger: false });
      try {
        const mail = await receiver.waitFor(email, /password/i, 10_000);
        expect(mail.text).toContain('http://portal.test/');
        await after.services.jobs.drain();
        const [sent] = await second.db.select().from(outboundEmails).where(eq(outboundEmails.id, stored!.id));
        expect(sent).toMatchObject({ status: 'sent' });
        expect(receiver.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
      } finally {
        await after.close();
        await second.close();
      }
    } finally {
      await store.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
