/**
 * The lists' KSeF number column for sent invoices (issue 13): the KSeF number an outbox invoice got when KSeF accepted
 * it lands on the document (the documents feature's own `ksef_number`, recorded by the ksef feature in the
 * transaction of the acceptance, the 440 adoption included), so the list and its export show it, for its company only.
 * And a 429 whose Retry-After is longer than the client waits: the job ends without failing and a new one starts no
 * earlier than KSeF asked, which then sends the invoice once. And the migration's backfill gives the documents that
 * existed before the column the same numbers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { isValidKsefNumber } from '@portal/ksef';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';
import {
  KSEF,
  ksefInvoice,
  rows as fixtureRows,
  settled as fixtureSettled,
  submission as fixtureSubmission,
  uploadOut,
} from './ksef-fixtures.ts';

let t: TestApp;
let ksef: string;
let supplier: string;

// The shared KSeF steps (ksef-fixtures.ts), bound to this file's app.
const rows = <T>(query: ReturnType<typeof sql>): Promise<T[]> => fixtureRows<T>(t, query);
const invoice = (number: string, control: string): string => ksefInvoice(number, control);
const upload = (token: string, name: string, content: string): Promise<string> => uploadOut(t, token, name, content);
const submission = async (token: string, id: string) => (await fixtureSubmission(t, token, id)).json();
const settled = (token: string, id: string) => fixtureSettled(t, token, id);

type Item = { id: string; documentNumber: string | null; ksefNumber: string | null };
const list = async (token: string, direction: 'in' | 'out', documentNumber: string): Promise<Item[]> => {
  const res = await t.app.inject({
    url: `/api/documents?direction=${direction}&documentNumber=${encodeURIComponent(documentNumber)}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Item[];
};

/** The invoices the simulator gave a KSeF number. */
const simulatorInvoices = async () =>
  (await rows<{ n: number }>(sql`select count(*)::int as n from ksef_sim_invoices where ksef_number is not null`))[0]!
    .n;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      KSEF_SIMULATOR_DELAY_MS: '0',
      EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A,
      // Two invoices an hour: the third meets KSeF's 429 with a Retry-After of about an hour.
      KSEF_SIMULATOR_RATE_LIMITS: JSON.stringify({ invoiceSend: { perSecond: 10, perMinute: 30, perHour: 2 } }),
    },
  });
  ksef = (await login(t.app, KSEF)).access_token;
  supplier = (await login(t.app)).access_token;
}, 120_000);
afterAll(() => t.close());

describe('the KSeF number column of sent invoices', () => {
  let ksefNumber: string;
  let documentId: string;

  it("an accepted outbox invoice's KSeF number is on its list row and in the export", async () => {
    documentId = await upload(ksef, 'col1.edi', invoice('FV/COL/1', 'KC0001'));
    expect((await list(ksef, 'out', 'FV/COL/1'))[0]).toMatchObject({ id: documentId, ksefNumber: null });
    const done = await settled(ksef, documentId);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted' });
    ksefNumber = done.ksefNumber;
    expect(isValidKsefNumber(ksefNumber)).toBe(true);

    expect(await list(ksef, 'out', 'FV/COL/1')).toEqual([
      expect.objectContaining({ id: documentId, documentNumber: 'FV/COL/1', ksefNumber }),
    ]);
    const csv = await t.app.inject({
      url: '/api/documents/export?format=csv&direction=out&columns=DocumentNumber,KsefNumber&documentNumber=FV/COL/1',
      headers: bearer(ksef),
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('FV/COL/1');
    expect(csv.body).toContain(ksefNumber);
  });

  it("another company's lists never show it: not the buyer's inbox copy, nor its outbox", async () => {
    const inbox = await list(supplier, 'in', 'FV/COL/1');
    expect(inbox.length).toBeGreaterThan(0);
    expect(inbox.every((i) => i.ksefNumber === null)).toBe(true);
    const outbox = await t.app.inject({ url: '/api/documents?direction=out', headers: bearer(supplier) });
    expect(outbox.body).not.toContain(ksefNumber);
    const csv = await t.app.inject({
      url: '/api/documents/export?format=csv&direction=in&columns=DocumentNumber,KsefNumber&documentNumber=FV/COL/1',
      headers: bearer(supplier),
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).not.toContain(ksefNumber);
  });

  it("the documents service records a number only on the company's own document", async () => {
    const supplierCompany = (await rows<{ id: string }>(sql`select id from companies where name = 'Demo Supplier'`))[0]!
      .id;
    const changed = await t.app.services.documents.recordKsefNumber(t.database.db, {
      companyId: supplierCompany,
      documentId,
      ksefNumber: 'nope',
    });
    expect(changed).toBe(false);
    expect((await list(ksef, 'out', 'FV/COL/1'))[0]?.ksefNumber).toBe(ksefNumber);
  });

  it('the same invoice sent again adopts the original number (440), and its row shows it too', async () => {
    const again = await upload(ksef, 'col1-again.edi', invoice('FV/COL/1', 'KC0002'));
    const done = await settled(ksef, again);
    expect(done).toMatchObject({ state: 'accepted', ksefNumber });
    const items = await list(ksef, 'out', 'FV/COL/1');
    expect(items).toHaveLength(2);
    expect(items.every((i) => i.ksefNumber === ksefNumber)).toBe(true);
  });
});

describe('a 429 whose Retry-After is longer than the client waits', () => {
  it('ends the run without failing, and a job starting after Retry-After sends the invoice once', async () => {
    const sentBefore = await simulatorInvoices();
    const id = await upload(ksef, 'col3.edi', invoice('FV/COL/3', 'KC0003'));
    await t.jobs.drain();

    // The run met the limit: the submission waits, queued, with KSeF's message; nothing reached KSeF.
    const waiting = await submission(ksef, id);
    expect(waiting, JSON.stringify(waiting)).toMatchObject({ state: 'queued', ksefNumber: null });
    expect(waiting.errorDetails.join(' ')).toMatch(/limit/i);
    expect(await simulatorInvoices()).toBe(sentBefore);

    // The job that ran is completed, not failed or waiting for a retry; its follow-up starts after Retry-After.
    const jobs = await rows<{ id: string; state: string; retry_count: number; wait: number }>(
      sql`select id, state::text as state, retry_count,
            extract(epoch from start_after - now())::float8 as wait
          from pgboss.job where name = 'ksef.send' and data->>'documentId' = ${id}
          order by created_on`,
    );
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'created']);
    expect(jobs[0]!.retry_count).toBe(0);
    expect(jobs[1]!.retry_count).toBe(0);
    // The hourly window's Retry-After (about an hour), far beyond the client's 60 s.
    expect(jobs[1]!.wait).toBeGreaterThan(30 * 60);

    // Not due yet: running the queue now sends nothing.
    await t.jobs.drain();
    expect((await submission(ksef, id)).state).toBe('queued');
    expect(await simulatorInvoices()).toBe(sentBefore);

    // An hour later (the simulator's clock, and the job made due): the invoice is sent once and its number listed.
    t.clock.advance(3_700);
    ksef = (await login(t.app, KSEF)).access_token;
    await t.database.db.execute(sql`update pgboss.job set start_after = now() where id = ${jobs[1]!.id}`);
    const done = await settled(ksef, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', errorDetails: [] });
    expect(await simulatorInvoices()).toBe(sentBefore + 1);
    expect((await list(ksef, 'out', 'FV/COL/3'))[0]?.ksefNumber).toBe(done.ksefNumber);
  });
});

describe('the migration that added the column (0024)', () => {
  it('backfills sent (accepted) and received KSeF invoices, and nothing else', async () => {
    // A received KSeF invoice beside the sent ones: Demo Supplier issues one to Demo KSeF, Demo KSeF receives it.
    const ksefCompany = (await rows<{ id: string }>(sql`select id from companies where name = 'Demo KSeF'`))[0]!.id;
    const { ksefNumber: received } = await t.app.services.ksef.issueDemoPurchaseInvoice();
    expect(await t.app.services.ksef.receive(ksefCompany)).toBeGreaterThan(0);

    const numbers = () =>
      rows<{ id: string; ksef_number: string | null }>(sql`select id, ksef_number from documents order by id`);
    const before = await numbers();
    const withNumber = before.filter((r) => r.ksef_number !== null).map((r) => r.ksef_number);
    // Three sent (one of them the 440 adoption, the original's number) and the received one.
    expect(withNumber).toHaveLength(4);
    expect(withNumber).toContain(received);

    // The documents as they were before the column was filled, then the migration's own statements after its ALTER.
    await t.database.db.execute(sql`update documents set ksef_number = null`);
    const migration = readFileSync(new URL('../drizzle/0024_documents_ksef_number.sql', import.meta.url), 'utf8');
    const [alter, ...backfill] = migration.split('--> statement-breakpoint');
    expect(alter).toMatch(/ADD COLUMN "ksef_number"/);
    for (const statement of backfill) await t.database.db.execute(sql.raw(statement));
    expect(await numbers()).toEqual(before);
  });
});
