/**
 * Issue 13, part 3, the `ksef.send` job against the embedded simulator when things go wrong: a crash between sending
 * and reading the status, a 429 with Retry-After, an access token that runs out while the job waits. Real HTTP
 * through the app's in-process fetch, the real client; nothing is mocked. The job workers are off (JOB_WORKERS=false),
 * so `drain()` runs each job when the test says. The simulator's clock follows real time here (its rate-limit windows
 * must slide), with an offset a test can move forward.
 *
 * What the simulator answered is read from a recorder around `app.inject` (what the in-process fetch calls): it only
 * notes each exchange and its times, and changes nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { isValidKsefNumber } from '@portal/ksef';
import type { Database } from '../src/db/client.ts';
import { ksefSubmissions } from '../src/features/ksef/ksef.table.ts';
import { createTestApp, freshDatabase, login, type TestApp, type TestClock } from './helper.ts';
import { EANCOM_D96A, KSEF, ksefInvoice, SIMULATOR_AT_ONCE, uploadOut } from './ksef-fixtures.ts';

/**
 * Every app of this file: no stage delay unless a test wants one, no job worker polling beside the test, and Demo
 * KSeF's receiving runs (each minute by default) a day apart, so no `ksef.receive` run logs in during a drain.
 */
const ENV = { ...SIMULATOR_AT_ONCE, JOB_WORKERS: 'false', KSEF_RECEIVE_INTERVAL_MS: '86400000' };

/** A clock at real time plus an offset the test moves forward (`advance`); `set` moves the offset too. */
function realTimeClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (seconds) => {
      offset += seconds * 1000;
    },
    set: (date) => {
      offset = date.getTime() - Date.now();
    },
  };
}

type Exchange = {
  method: string;
  path: string;
  startedAt: number;
  endedAt: number;
  status: number;
  retryAfter: number | null;
};

/** Notes every request to the simulator through `app.inject` (the in-process fetch's transport), in order. */
function recordSimulator(app: FastifyInstance): Exchange[] {
  const exchanges: Exchange[] = [];
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  (app as unknown as { inject: (options: InjectOptions) => Promise<LightMyRequestResponse> }).inject = async (
    options,
  ) => {
    const startedAt = Date.now();
    const response = await inject(options);
    const url = String(options.url ?? '');
    if (url.startsWith('/ksef-simulator/v2/')) {
      const retryAfter = response.headers['retry-after'];
      exchanges.push({
        method: String(options.method ?? 'GET'),
        path: url.slice('/ksef-simulator/v2'.length).split('?')[0]!,
        startedAt,
        endedAt: Date.now(),
        status: response.statusCode,
        retryAfter: retryAfter === undefined ? null : Number(retryAfter),
      });
    }
    return response;
  };
  return exchanges;
}

const isSend = (e: Exchange) => e.method === 'POST' && /^\/sessions\/online\/[^/]+\/invoices$/.test(e.path);
const isStatusRead = (e: Exchange) => e.method === 'GET' && /^\/sessions\/[^/]+\/invoices\/[^/]+$/.test(e.path);

/** An EANCOM invoice from Demo KSeF to Demo Supplier, dated today (the simulator refuses a P_1 after its day). */
const invoice = (number: string, control: string, clock: TestClock) =>
  ksefInvoice(number, control, { date: clock.now().toISOString().slice(0, 10) });

/** Uploads an outbox interchange as Demo KSeF: the ingest writes the submission and its `ksef.send` job. */
const upload = async (t: TestApp, name: string, content: string) =>
  uploadOut(t, (await login(t.app, KSEF)).access_token, name, content);

/** The submission as stored (read from the database: a test that moves the clock outlives its portal login). */
const submissionOf = async (t: TestApp, documentId: string) =>
  (await t.database.db.select().from(ksefSubmissions).where(eq(ksefSubmissions.documentId, documentId)))[0];

/** The simulator's invoices of one invoice number (a duplicate is kept too, without a KSeF number). */
async function simulatorInvoices(t: TestApp, number: string) {
  const result = (await t.database.db.execute(
    sql`select ksef_number from ksef_sim_invoices where invoice_number = ${number}`,
  )) as unknown as { rows: { ksef_number: string | null }[] };
  return result.rows;
}

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

describe('the ksef.send job when things go wrong', () => {
  it('a crash between sending and reading the status: after the restart the invoice gets its KSeF number once', async () => {
    const database: Database = await freshDatabase();
    closing.push(() => database.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-ksef-jobs-'));
    const clock = realTimeClock();

    // The first process: the invoice's stages are 2 s apart, so the first status read finds it in progress; the
    // second read is over the invoice-status limit (one an hour), whose Retry-After (about 3600 s) is beyond the
    // client's patience (60 s): the run fails after KSeF took the invoice and before its status was read, as if the
    // process had died there.
    const first = await createTestApp({
      database,
      dataDir,
      clock,
      env: {
        ...ENV,
        KSEF_SIMULATOR_DELAY_MS: '2000',
        KSEF_SIMULATOR_RATE_LIMITS: JSON.stringify({ invoiceStatus: { perSecond: 100, perMinute: 100, perHour: 1 } }),
        ...EANCOM_D96A,
      },
    });
    const firstLog = recordSimulator(first.app);
    const id = await upload(first, 'crash.edi', invoice('FV/JOBS/1', 'KJ0001', clock));
    await first.jobs.drain({ timeoutMs: 60_000 });

    const crashed = await submissionOf(first, id);
    expect(crashed, JSON.stringify(crashed)).toMatchObject({ state: 'queued', ksefNumber: null, attempts: 1 });
    expect(crashed!.elementReference).toMatch(/-EE-/);
    expect(firstLog.filter(isSend)).toHaveLength(1);
    expect(firstLog.filter(isStatusRead).map((e) => e.status)).toEqual([200, 429]);
    expect(firstLog.find((e) => e.status === 429)!.retryAfter).toBeGreaterThan(60);
    // KSeF holds the invoice already (its number is given, the status not yet read).
    expect(await simulatorInvoices(first, 'FV/JOBS/1')).toHaveLength(1);
    // The process ends; the database stays. A restart forgets the simulator's rate limits, as KSeF's would pass.
    await first.app.close();

    // KSeF's Retry-After has passed: the run it deferred (a job of its own, decision 0038) is due.
    await database.db.execute(
      sql`update pgboss.job set start_after = now() where name = 'ksef.send' and state in ('retry', 'created')`,
    );
    const second = await createTestApp({ database, dataDir, clock, seed: false, env: ENV });
    closing.push(() => second.close());
    const secondLog = recordSimulator(second.app);
    await second.jobs.drain({ timeoutMs: 60_000 });

    const done = await submissionOf(second, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', attempts: 2, errorDetails: null });
    expect(isValidKsefNumber(done!.ksefNumber!)).toBe(true);
    expect(done!.elementReference).toBe(crashed!.elementReference);
    expect(done!.upo).toContain(done!.ksefNumber!);
    // The second run only read the status and the UPO: nothing was sent again.
    expect(secondLog.filter(isSend)).toHaveLength(0);
    expect(secondLog.filter(isStatusRead).at(-1)?.status).toBe(200);
    // One invoice in KSeF for the document, with the submission's KSeF number.
    expect(await simulatorInvoices(second, 'FV/JOBS/1')).toEqual([{ ksef_number: done!.ksefNumber }]);
  }, 120_000);

  it('a 429 is honoured: the next request comes no earlier than its Retry-After, and the invoice goes through', async () => {
    const clock = realTimeClock();
    // Logging in is limited to one request a second: the challenge passes, the XAdES request right after it is a
    // 429 with Retry-After 1, and so on through the login.
    const t = await createTestApp({
      clock,
      env: {
        ...ENV,
        KSEF_SIMULATOR_RATE_LIMITS: JSON.stringify({ auth: { perSecond: 1, perMinute: 1000, perHour: 10_000 } }),
        ...EANCOM_D96A,
      },
    });
    closing.push(() => t.close());
    const log = recordSimulator(t.app);
    const id = await upload(t, 'limited.edi', invoice('FV/JOBS/2', 'KJ0002', clock));
    await t.jobs.drain({ timeoutMs: 60_000 });

    const done = await submissionOf(t, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', attempts: 1 });
    expect(isValidKsefNumber(done!.ksefNumber!)).toBe(true);
    const limited = log.filter((e) => e.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const refused of limited) {
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      // The job's next request is the same call again, after the wait KSeF asked for.
      const next = log[log.indexOf(refused) + 1]!;
      expect(next).toMatchObject({ method: refused.method, path: refused.path });
      expect(next.startedAt - refused.endedAt).toBeGreaterThanOrEqual(refused.retryAfter! * 1000);
      expect(next.status).not.toBe(429);
    }
    expect(log.filter(isSend)).toHaveLength(1);
    expect(await simulatorInvoices(t, 'FV/JOBS/2')).toEqual([{ ksef_number: done!.ksefNumber }]);
  }, 120_000);

  it('an access token that runs out while the job waits is refreshed, and the send succeeds', async () => {
    const clock = realTimeClock();
    // Stages 1.5 s apart: the job is still polling the status when the simulator's time jumps.
    const t = await createTestApp({
      clock,
      env: { ...ENV, KSEF_SIMULATOR_DELAY_MS: '1500', ...EANCOM_D96A },
    });
    closing.push(() => t.close());
    const log = recordSimulator(t.app);
    const id = await upload(t, 'expiry.edi', invoice('FV/JOBS/3', 'KJ0003', clock));
    const running = t.jobs.drain({ timeoutMs: 60_000 });
    // Once KSeF took the invoice, 16 minutes pass for the simulator: past the access token's 15
    // (KSEF_SIMULATOR_ACCESS_TTL_SECONDS), while the client, by its own clock, still holds a valid one.
    for (let i = 0; i < 600 && !(await submissionOf(t, id))?.elementReference; i++) await sleep(25);
    expect((await submissionOf(t, id))?.elementReference).toMatch(/-EE-/);
    const jumpedAt = Date.now();
    clock.advance(16 * 60);
    await running;

    const done = await submissionOf(t, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', attempts: 1 });
    expect(isValidKsefNumber(done!.ksefNumber!)).toBe(true);
    const after = log.filter((e) => e.endedAt >= jumpedAt);
    const expired = after.findIndex((e) => e.status === 401);
    expect(expired, JSON.stringify(after)).toBeGreaterThanOrEqual(0);
    // The 401 is followed by a refresh (not a new login), and the same call again, answered this time.
    expect(after[expired + 1]).toMatchObject({ method: 'POST', path: '/auth/token/refresh', status: 200 });
    expect(after[expired + 2]).toMatchObject({ method: after[expired]!.method, path: after[expired]!.path });
    expect(after[expired + 2]!.status).toBeLessThan(300);
    // No new login between the 401 and the job's logout.
    const loggedOut = after.findIndex((e) => e.method === 'DELETE' && e.path === '/auth/sessions/current');
    expect(loggedOut).toBeGreaterThan(expired);
    expect(after.slice(expired, loggedOut).filter((e) => e.path === '/auth/token/redeem')).toHaveLength(0);
    expect(log.filter(isSend)).toHaveLength(1);
    expect(await simulatorInvoices(t, 'FV/JOBS/3')).toEqual([{ ksef_number: done!.ksefNumber }]);
  }, 120_000);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
