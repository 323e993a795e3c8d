/**
 * Issue 13: the larger demo set for presentations. A demo login of a company with the toggle DEMO_KSEF_SIEMENS gets,
 * besides the standard set, an invoice of 40 lines, its correction and an advance invoice, each of which maps to an
 * FA(3) kind (VAT, KOR, ZAL) that passes the XSD, so it could be sent to KSeF. A company without the toggle gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { CanonicalDocument } from '@portal/documents';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { buildFa3, canonicalToKsefInvoice, validateFa3 } from '@portal/ksef';
import { bearer, createTestApp, login, recentWarnings, type TestApp } from './helper.ts';

const DEMO = { login: 'demo@demo.example.com', password: 'Demo#Demo2026' };

type Item = { id: string; documentNumber: string | null; status: string; documentType: string; documentKind: string };

let t: TestApp;

async function outbox(token: string): Promise<Item[]> {
  const res = await t.app.inject({ url: '/api/documents?direction=out&limit=100', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Item[] }).items;
}
/**
 * The session's outbox once its set is made. A drain returns when no job is due, and a set's job that failed once on
 * busy cores is retried 10 s later by the app's own worker: the list is read again until it has `count` documents
 * (or 60 s passed on a machine other suites load too, and the caller's assertion says what is there).
 */
async function settled(token: string, count: number): Promise<Item[]> {
  let items = await outbox(token);
  for (const until = Date.now() + 60_000; items.length < count && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    items = await outbox(token);
  }
  return items;
}
/** The demo jobs' states and outputs, and the sessions' interchanges, for a failure's message. */
async function demoJobs(): Promise<string> {
  const interchanges = await t.database.db.execute(
    sql`select file_name, state, message_count, findings -> 0 ->> 'code' as finding from interchanges where session_id is not null`,
  );
  const rows = await Promise.all(
    (['completed', 'failed', 'retry', 'active', 'created'] as const).map((state) => t.jobs.list({ state, limit: 50 })),
  );
  return JSON.stringify({
    warnings: recentWarnings(t),
    jobs: rows
      .flat()
      .filter((job) => job.name.startsWith('documents.'))
      .map((job) => [job.name, job.state, job.retryCount, job.error]),
    interchanges: (interchanges as unknown as { rows: unknown[] }).rows,
  });
}
const presentation = (items: Item[]) => items.filter((i) => /^(FV|KOR|ZAL)-\d+-S1$/.test(i.documentNumber ?? ''));

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A } });
}, 120_000);
afterAll(() => t.close());

describe('the presentation set (DEMO_KSEF_SIEMENS)', () => {
  let without: string;
  let withToggle: string;

  beforeAll(async () => {
    without = (await login(t.app, DEMO)).access_token;
    await t.jobs.drain({ timeoutMs: 60_000 });
    await t.database.db.execute(
      sql`update companies set toggles = array_append(toggles, 'DEMO_KSEF_SIEMENS') where name = 'Demo Sandbox'`,
    );
    withToggle = (await login(t.app, DEMO)).access_token;
    await t.jobs.drain({ timeoutMs: 60_000 });
  }, 120_000);

  it('is not made for a session of a company without the toggle', async () => {
    const items = await settled(without, 5);
    expect(items, await demoJobs()).toHaveLength(5);
    expect(presentation(items)).toEqual([]);
  }, 120_000);

  it('is made besides the standard set when the company has the toggle: 40 lines, a correction, an advance', async () => {
    const items = await settled(withToggle, 8);
    expect(items, await demoJobs()).toHaveLength(8);
    const set = presentation(items);
    expect(set.map((i) => i.documentNumber!.split('-')[0]).sort()).toEqual(['FV', 'KOR', 'ZAL']);
    expect(set.every((i) => i.status === 'sent' && i.documentType === 'INVOIC')).toBe(true);
    const kinds = Object.fromEntries(set.map((i) => [i.documentNumber!.split('-')[0], i.documentKind]));
    expect(kinds).toEqual({ FV: 'invoice', KOR: 'credit_note', ZAL: 'invoice' });

    const bodies = new Map<string, CanonicalDocument>();
    for (const item of set) {
      const res = await t.app.inject({ url: `/api/documents/${item.id}`, headers: bearer(withToggle) });
      expect(res.statusCode, res.body).toBe(200);
      bodies.set(item.documentNumber!.split('-')[0]!, res.json().body as CanonicalDocument);
    }
    expect(bodies.get('FV')!.lines).toHaveLength(40);

    // Each maps to an FA(3) kind the ksef package writes, and the XML passes the official schema.
    const expected = { FV: 'VAT', KOR: 'KOR', ZAL: 'ZAL' } as const;
    for (const [prefix, body] of bodies) {
      const invoice = canonicalToKsefInvoice(body, { createdAt: '2026-11-16T10:00:00Z' });
      expect(invoice.kind).toBe(expected[prefix as keyof typeof expected]);
      const checked = await validateFa3(buildFa3(invoice));
      expect(checked.errors, prefix).toEqual([]);
      expect(checked.valid).toBe(true);
    }
  }, 120_000);
});
