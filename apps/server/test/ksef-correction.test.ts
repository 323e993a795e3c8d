/**
 * A correction (credit note, FA(3) KOR) sent to KSeF cites the KSeF number of the invoice it corrects (decision 0038):
 * `NrKSeF = 1` and `NrKSeFFaKorygowanej` when the company's outbox invoice of that number and date is in KSeF; while
 * that invoice is still on its way there (uploaded in the same interchange) the correction waits for its number, a
 * bounded number of times; an invoice not in KSeF (not in the portal, refused, another date) gives `NrKSeFN = 1` as
 * before. The simulator keeps the XML it accepted. The job workers are off, so `drain()` runs each job when the test
 * says.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { KSEF_PORTAL_CODES } from '@portal/contracts';
import { isValidKsefNumber, parseFa3 } from '@portal/ksef';
import type { TestApp } from './helper.ts';
import {
  DEMO_SUPPLIER,
  creditNoteForm,
  invoiceForm,
  ksefApp,
  ksefInterchange,
  ksefInvoice,
  rows,
  settled,
  submission,
  uploadOut,
  uploadOutAll,
} from './ksef-fixtures.ts';

let t: TestApp;
let ksef: string;

/** The FA(3) the simulator accepted of the invoice of that number. */
async function acceptedXml(number: string): Promise<string> {
  const [row] = await rows<{ plain_xml: string }>(
    t,
    sql`select plain_xml from ksef_sim_invoices where invoice_number = ${number} and accepted`,
  );
  expect(row, `the simulator accepted no ${number}`).toBeDefined();
  return row!.plain_xml;
}
/** How many invoices of that number reached the simulator. */
const sentToSimulator = async (number: string) =>
  Number(
    (
      await rows<{ n: string }>(t, sql`select count(*) as n from ksef_sim_invoices where invoice_number = ${number}`)
    )[0]!.n,
  );
/** The `ksef.send` jobs of a document, oldest first. */
const sendJobs = (documentId: string) =>
  rows<{ id: string; state: string; data: { waits?: number }; wait: number }>(
    t,
    sql`select id, state::text as state, data, extract(epoch from start_after - now())::float8 as wait
        from pgboss.job where name = 'ksef.send' and data->>'documentId' = ${documentId} order by created_on, id`,
  );
/** Makes a document's waiting `ksef.send` jobs due now, or an hour from now. */
const due = (documentId: string, later = false) =>
  t.database.db.execute(
    sql`update pgboss.job set start_after = now() + ${later ? sql`interval '1 hour'` : sql`interval '0 seconds'`}
        where name = 'ksef.send' and data->>'documentId' = ${documentId} and state in ('created', 'retry')`,
  );

/** The correction block of an FA(3). */
function correctionOf(xml: string) {
  const corrected = parseFa3(xml).correction?.corrected;
  expect(corrected).toHaveLength(1);
  return corrected![0]!;
}

beforeAll(async () => {
  ({ t, ksef } = await ksefApp({ env: { JOB_WORKERS: 'false', KSEF_RECEIVE_INTERVAL_MS: '86400000' } }));
}, 120_000);
afterAll(() => t.close());
// The simulator's rate limits count by its clock, the test's: a few seconds between tests keep its logins within them.
beforeEach(() => t.clock.advance(5));

describe('a correction of an invoice in KSeF', () => {
  it('cites the invoice KSeF accepted before: NrKSeF = 1 and its KSeF number', async () => {
    const invoiceId = await uploadOut(t, ksef, 'kor1-fv.edi', ksefInvoice('FV/KOR/1', 'KR0001'));
    const invoice = await settled(t, ksef, invoiceId);
    expect(invoice, JSON.stringify(invoice)).toMatchObject({ state: 'accepted' });
    expect(isValidKsefNumber(invoice.ksefNumber)).toBe(true);

    const correctionId = await uploadOut(
      t,
      ksef,
      'kor1-kor.edi',
      ksefInterchange('KR0002', [{ kind: 'credit_note', form: creditNoteForm('KOR/KOR/1', 'FV/KOR/1') }]),
    );
    const correction = await settled(t, ksef, correctionId);
    expect(correction, JSON.stringify(correction)).toMatchObject({ state: 'accepted', errorDetails: [] });

    const xml = await acceptedXml('KOR/KOR/1');
    expect(xml).toContain('<RodzajFaktury>KOR</RodzajFaktury>');
    expect(xml).toMatch(/<NrKSeF>1<\/NrKSeF>\s*<NrKSeFFaKorygowanej>/);
    expect(xml).not.toContain('<NrKSeFN>');
    expect(correctionOf(xml)).toEqual({
      issueDate: '2026-11-16',
      number: 'FV/KOR/1',
      ksefNumber: invoice.ksefNumber,
    });
  });

  it('uploaded in one interchange with its invoice, waits for the invoice and then cites its KSeF number', async () => {
    const [invoiceId, correctionId] = await uploadOutAll(
      t,
      ksef,
      'kor2.edi',
      ksefInterchange('KR0003', [
        { kind: 'invoice', form: invoiceForm('FV/KOR/2') },
        { kind: 'credit_note', form: creditNoteForm('KOR/KOR/2', 'FV/KOR/2') },
      ]),
    );
    const numbers = await rows<{ id: string; number: string }>(
      t,
      sql`select id, number from documents where id in (${invoiceId!}, ${correctionId!})`,
    );
    expect(Object.fromEntries(numbers.map((r) => [r.id, r.number]))).toEqual({
      [invoiceId!]: 'FV/KOR/2',
      [correctionId!]: 'KOR/KOR/2',
    });

    // The correction's job runs first, the invoice's still waiting to start: the correction is not sent, it waits,
    // saying so by the portal's code (the web words it), the invoice named in the details.
    await due(invoiceId!, true);
    await t.jobs.drain({ timeoutMs: 60_000 });
    const waiting = (await submission(t, ksef, correctionId!)).json();
    expect(waiting, JSON.stringify(waiting)).toMatchObject({
      state: 'queued',
      ksefNumber: null,
      errorCode: KSEF_PORTAL_CODES.correctionWaiting,
      errorDetails: ['FV/KOR/2 (2026-11-16)'],
    });
    expect(await sentToSimulator('KOR/KOR/2')).toBe(0);
    const jobs = await sendJobs(correctionId!);
    expect(jobs.map((j) => [j.state, j.data.waits])).toEqual([
      ['completed', undefined],
      ['created', 1],
    ]);
    // Its next look is soon: an invoice usually takes seconds.
    expect(jobs[1]!.wait).toBeGreaterThan(0);
    expect(jobs[1]!.wait).toBeLessThanOrEqual(2);
    // A run of the correction that waited is no attempt: a 429 later still has its whole allowance.
    expect(
      (
        await rows<{ attempts: number }>(
          t,
          sql`select attempts from ksef_submissions where document_id = ${correctionId!}`,
        )
      )[0]!.attempts,
    ).toBe(0);

    // The invoice goes; the correction's next look finds its KSeF number.
    await due(invoiceId!);
    const invoice = await settled(t, ksef, invoiceId!);
    expect(invoice, JSON.stringify(invoice)).toMatchObject({ state: 'accepted' });
    await due(correctionId!);
    const correction = await settled(t, ksef, correctionId!);
    expect(correction, JSON.stringify(correction)).toMatchObject({
      state: 'accepted',
      errorCode: null,
      errorDetails: [],
    });
    expect(correctionOf(await acceptedXml('KOR/KOR/2'))).toEqual({
      issueDate: '2026-11-16',
      number: 'FV/KOR/2',
      ksefNumber: invoice.ksefNumber,
    });
    expect(await sentToSimulator('KOR/KOR/2')).toBe(1);
  });

  it('fails, naming the invoice, once it waited its allowance for an invoice still on its way to KSeF', async () => {
    const [invoiceId, correctionId] = await uploadOutAll(
      t,
      ksef,
      'kor3.edi',
      ksefInterchange('KR0004', [
        { kind: 'invoice', form: invoiceForm('FV/KOR/3') },
        { kind: 'credit_note', form: creditNoteForm('KOR/KOR/3', 'FV/KOR/3') },
      ]),
    );
    await due(invoiceId!, true);
    // The correction's job as the run after its last wait (its `waits`), the invoice still queued.
    await t.database.db.execute(
      sql`update pgboss.job set data = jsonb_set(data, '{waits}', '120')
          where name = 'ksef.send' and data->>'documentId' = ${correctionId!}`,
    );
    await t.jobs.drain({ timeoutMs: 60_000 });
    const failed = (await submission(t, ksef, correctionId!)).json();
    expect(failed, JSON.stringify(failed)).toMatchObject({
      state: 'failed',
      ksefNumber: null,
      errorCode: KSEF_PORTAL_CODES.correctionWaitLimit,
      errorDetails: ['FV/KOR/3 (2026-11-16)'],
    });
    expect(await sentToSimulator('KOR/KOR/3')).toBe(0);
    // It waits no more: no next run.
    expect((await sendJobs(correctionId!)).map((j) => j.state)).toEqual(['completed']);
  });
});

describe('a correction of an invoice not in KSeF says so: NrKSeFN = 1', () => {
  it('an invoice the portal does not hold (issued elsewhere, or before KSeF)', async () => {
    const id = await uploadOut(
      t,
      ksef,
      'kor4.edi',
      ksefInterchange('KR0005', [{ kind: 'credit_note', form: creditNoteForm('KOR/KOR/4', 'FV/OLD/1', '2026-10-01') }]),
    );
    const done = await settled(t, ksef, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', errorDetails: [] });
    const xml = await acceptedXml('KOR/KOR/4');
    expect(xml).toContain('<NrKSeFN>1</NrKSeFN>');
    expect(xml).not.toContain('<NrKSeFFaKorygowanej>');
    expect(correctionOf(xml)).toEqual({ issueDate: '2026-10-01', number: 'FV/OLD/1' });
  });

  it('an invoice KSeF never took (refused before sending)', async () => {
    // Demo Supplier's NIP as the seller: not the company's KSeF NIP, so the invoice is refused and never sent.
    const invoiceId = await uploadOut(
      t,
      ksef,
      'kor5-fv.edi',
      ksefInvoice('FV/KOR/5', 'KR0006', { change: (form) => (form.supplier = { ...form.supplier, ...DEMO_SUPPLIER }) }),
    );
    expect((await settled(t, ksef, invoiceId)).state).toBe('rejected');
    const id = await uploadOut(
      t,
      ksef,
      'kor5-kor.edi',
      ksefInterchange('KR0007', [{ kind: 'credit_note', form: creditNoteForm('KOR/KOR/5', 'FV/KOR/5') }]),
    );
    const done = await settled(t, ksef, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', errorDetails: [] });
    expect(correctionOf(await acceptedXml('KOR/KOR/5'))).toEqual({ issueDate: '2026-11-16', number: 'FV/KOR/5' });
  });

  it('an invoice in KSeF of that number but of another date is another invoice', async () => {
    const id = await uploadOut(
      t,
      ksef,
      'kor6.edi',
      ksefInterchange('KR0008', [{ kind: 'credit_note', form: creditNoteForm('KOR/KOR/6', 'FV/KOR/1', '2026-11-15') }]),
    );
    const done = await settled(t, ksef, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', errorDetails: [] });
    expect(correctionOf(await acceptedXml('KOR/KOR/6'))).toEqual({ issueDate: '2026-11-15', number: 'FV/KOR/1' });
  });
});
