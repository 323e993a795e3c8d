/**
 * Receiving from KSeF within its export limit (issue 13): a run refused with a 429 ends without an error, keeps the
 * mark, and the next run stores what the refused one would have.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helper.ts';
import { companyId, rows, SIMULATOR_AT_ONCE } from './ksef-fixtures.ts';

let t: TestApp;
let ksefCompany: string;

const settings = async () =>
  (
    await rows<{ receive_hwm: string | null; received_at: string | null }>(
      t,
      sql`select receive_hwm::text, received_at::text from ksef_settings where company_id = ${ksefCompany}`,
    )
  )[0];

beforeAll(async () => {
  t = await createTestApp({
    env: {
      ...SIMULATOR_AT_ONCE,
      // One export an hour: the second run meets KSeF's 429.
      KSEF_SIMULATOR_RATE_LIMITS: JSON.stringify({ invoiceExport: { perSecond: 8, perMinute: 16, perHour: 1 } }),
      KSEF_RECEIVE_INTERVAL_MS: String(86_400_000),
    },
  });
  ksefCompany = await companyId(t, 'Demo KSeF');
}, 120_000);
afterAll(() => t.close());

it('a run refused by the export limit (429) ends without failing the job, stores nothing and keeps the mark', async () => {
  const ksef = t.app.services.ksef;
  expect(await ksef.receive(ksefCompany)).toBe(0);
  const before = await settings();
  expect(before?.received_at).not.toBeNull();

  // Supplier issues an invoice; the next run is refused (429) and stores nothing, without failing the job.
  const { number } = await ksef.issueDemoPurchaseInvoice();
  await expect(ksef.receive(ksefCompany)).resolves.toBe(0);
  expect(await settings()).toEqual(before);
  const stored = await rows(t, sql`select 1 from documents where company_id = ${ksefCompany} and number = ${number}`);
  expect(stored).toHaveLength(0);
});
