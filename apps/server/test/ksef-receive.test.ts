/**
 * Issue 13: a company's purchase invoices come from KSeF into its inbox. Demo Supplier issues an invoice to Demo KSeF
 * through the simulator (KSeF stores it with Demo KSeF as Subject2); Demo KSeF's `ksef.receive` job exports it,
 * decrypts and reads it, and stores it once in the inbox as a KSeF FA(3) invoice whose view shows the seller, the
 * lines and the VAT summary. Nobody else sees it; a company without KSeF receives nothing; the high-water mark moves.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formToCanonical } from '@portal/documents';
import { buildFa3, canonicalToKsefInvoice } from '@portal/ksef';
import { createTestCertificate, KsefClient } from '@portal/ksef/client';
import { inProcessFetch } from '../src/lib/in-process-fetch.ts';
import { bearer, login, type TestApp } from './helper.ts';
import {
  companyId,
  DEMO_KSEF,
  DEMO_SUPPLIER,
  invoiceForm,
  KSEF_NIP,
  ksefApp,
  pdfText,
  rows,
  SUPPLIER_NIP,
} from './ksef-fixtures.ts';

const RETAILER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SIMULATOR = 'http://portal.test/ksef-simulator/v2';

let t: TestApp;
let ksef: string;
let supplier: string;
let retailer: string;
let ksefCompany: string;
let supplierCompany: string;

const one = async <T>(query: ReturnType<typeof sql>): Promise<T | undefined> => (await rows<T>(t, query))[0];

/** Demo Supplier issues an invoice to Demo KSeF in KSeF itself (the simulator), as its own ERP would: its KSeF number. */
async function issueFromSupplier(number: string): Promise<string> {
  const form = invoiceForm(number, {
    supplier: { ...DEMO_SUPPLIER, name: 'Demo Supplier Sp. z o.o.' },
    buyer: DEMO_KSEF,
    lines: [
      { description: 'Woda mineralna', quantity: '10', unit: 'PCE', price: '1.29', vatRate: '8' },
      { description: 'Kawa ziarnista', quantity: '2', unit: 'PCE', price: '40.00', vatRate: '23' },
    ],
  });
  const xml = buildFa3(
    canonicalToKsefInvoice(formToCanonical('invoice', form, 'lines'), {
      createdAt: t.clock.now().toISOString(),
      systemInfo: 'Supplier ERP',
    }),
  );
  const { certificatePem, privateKeyPem } = await createTestCertificate({
    nip: SUPPLIER_NIP,
    name: 'Demo Supplier',
    notBefore: new Date(t.clock.now().getTime() - 86_400_000),
  });
  const client = new KsefClient({ baseUrl: SIMULATOR, fetch: inProcessFetch(t.app, SIMULATOR) });
  const auth = await client.login({
    kind: 'certificate',
    context: { type: 'Nip', value: SUPPLIER_NIP },
    certificatePem,
    privateKey: privateKeyPem,
  });
  const session = await auth.openOnlineSession();
  const sent = await session.send(xml);
  await session.close();
  const status = await auth.waitForInvoice(session.referenceNumber, sent.referenceNumber);
  await auth.logout();
  return status.ksefNumber!;
}

const mark = async (companyId: string) =>
  one<{ hwm: string | null; at: string | null }>(
    sql`select receive_hwm::text as hwm, received_at::text as at from ksef_settings where company_id = ${companyId}`,
  );

/** "Receive now", then the due jobs until the run finished: a job worker polling beside the test may hold it. */
async function receive(token: string, companyId: string): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/api/company/ksef/receive', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toEqual({ queued: true });
  for (let i = 0; i < 100; i++) {
    await t.jobs.drain();
    // The test clock stands still (received_at repeats), so the queue itself says when no run is due or running.
    const waiting = await one<{ n: number }>(
      sql`select count(*)::int as n from pgboss.job where name = 'ksef.receive' and state in ('created', 'retry', 'active') and start_after <= now()`,
    );
    if (waiting?.n === 0 && (await mark(companyId))?.at) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the receiving job did not finish');
}

const inbox = async (token: string, number: string) =>
  (
    await t.app.inject({
      url: `/api/documents?direction=in&documentNumber=${encodeURIComponent(number)}`,
      headers: bearer(token),
    })
  ).json().items as { id: string; standard: string; [key: string]: unknown }[];

beforeAll(async () => {
  ({ t, ksef, supplier } = await ksefApp({ eancom: false }));
  retailer = (await login(t.app, RETAILER)).access_token;
  ksefCompany = await companyId(t, 'Demo KSeF');
  supplierCompany = await companyId(t, 'Demo Supplier');
}, 120_000);
afterAll(() => t.close());

describe('receiving invoices from KSeF', () => {
  let documentId: string;
  let ksefNumber: string;

  it("an invoice Demo Supplier issued to Demo KSeF arrives in Demo KSeF's inbox, exactly once", async () => {
    ksefNumber = await issueFromSupplier('FV/SUP/1');
    expect(ksefNumber.startsWith(`${SUPPLIER_NIP}-`)).toBe(true);
    await receive(ksef, ksefCompany);
    const items = await inbox(ksef, 'FV/SUP/1');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      direction: 'in',
      standard: 'ksef',
      messageType: 'FA(3)',
      documentType: 'KSEF_INVOICE',
      documentKind: 'invoice',
      documentReferenceNumber: ksefNumber,
      ksefNumber,
      partnerName: 'Demo Supplier Sp. z o.o.',
      businessDate: '2026-11-16',
      status: 'received',
    });
    documentId = items[0]!.id;

    // The settings say when invoices were last received; the export's KSeF number column gives its number.
    const settings = await t.app.inject({ url: '/api/company/ksef', headers: bearer(ksef) });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(Date.parse(settings.json().receivedAt)).not.toBeNaN();
    const csv = await t.app.inject({
      url: `/api/documents/export?format=csv&direction=in&columns=DocumentNumber,KsefNumber&documentNumber=FV/SUP/1`,
      headers: bearer(ksef),
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(ksefNumber);

    // Run twice more: once from the mark, once from the start (the mark forgotten): still the one document.
    await receive(ksef, ksefCompany);
    expect(await inbox(ksef, 'FV/SUP/1')).toHaveLength(1);
    await t.database.db.execute(sql`update ksef_settings set receive_hwm = null where company_id = ${ksefCompany}`);
    await receive(ksef, ksefCompany);
    expect(await inbox(ksef, 'FV/SUP/1')).toHaveLength(1);
  });

  it("the document's view shows the seller, the lines and the VAT summary; its original is the FA(3) XML", async () => {
    const res = await t.app.inject({ url: `/api/documents/${documentId}`, headers: bearer(ksef) });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json();
    expect(detail).toMatchObject({ sellerTaxId: SUPPLIER_NIP, buyerTaxId: KSEF_NIP });
    const parties = detail.body.parties as { role: string; taxId?: string; name?: string }[];
    expect(parties.find((p) => p.role === 'SU')).toMatchObject({
      taxId: SUPPLIER_NIP,
      name: 'Demo Supplier Sp. z o.o.',
    });
    expect(parties.find((p) => p.role === 'BY')).toMatchObject({ taxId: KSEF_NIP });
    const lines = detail.body.lines as { description: string }[];
    expect(lines.map((l) => l.description)).toEqual(['Woda mineralna', 'Kawa ziarnista']);
    const taxes = detail.body.taxes as { rate?: string; amounts: { qualifier: string; value: string }[] }[];
    // 10 × 1.29 = 12.90 at 8 % (VAT 1.03), 2 × 40.00 = 80.00 at 23 % (VAT 18.40).
    expect(taxes.map((x) => [x.rate, x.amounts.map((a) => `${a.qualifier}:${a.value}`)])).toEqual([
      ['23', ['125:80.00', '124:18.40']],
      ['8', ['125:12.90', '124:1.03']],
    ]);
    const totals = Object.fromEntries(
      (detail.body.totals as { qualifier: string; value: string }[]).map((a) => [a.qualifier, a.value]),
    );
    expect(totals['77']).toBe('112.33');

    const original = await t.app.inject({
      url: `/api/documents/${documentId}/original?encoding=original`,
      headers: bearer(ksef),
    });
    expect(original.statusCode, original.body).toBe(200);
    expect(original.body).toContain('<Faktura');
    expect(original.body).toContain('FV/SUP/1');
    const pdf = await t.app.inject({ url: `/api/documents/${documentId}/pdf`, headers: bearer(ksef) });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // KOD I (issue 13): the KSeF number and the verification link of the original XML, as KSeF's visualisation.
    const hash = createHash('sha256').update(original.rawPayload).digest('base64url');
    const text = (await pdfText(pdf.rawPayload)).replace(/\s/g, '');
    expect(text).toContain(ksefNumber);
    expect(text).toContain(`http://portal.test/ksef-simulator/invoice/${SUPPLIER_NIP}/16-11-2026/${hash}`);
  });

  it('another company cannot see it', async () => {
    expect((await t.app.inject({ url: `/api/documents/${documentId}`, headers: bearer(supplier) })).statusCode).toBe(
      404,
    );
    expect(await inbox(supplier, 'FV/SUP/1')).toHaveLength(0);
  });

  it('a company without KSeF receives nothing: its job does nothing and it may not ask for a run', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/company/ksef/receive', headers: bearer(retailer) })).statusCode,
    ).toBe(403);
    await t.jobs.enqueue(t.database.db, 'ksef.receive', { companyId: supplierCompany });
    await t.jobs.drain();
    expect(await mark(supplierCompany)).toBeUndefined();
    const stored = await one<{ n: number }>(
      sql`select count(*)::int as n from documents where company_id = ${supplierCompany} and standard = 'ksef'`,
    );
    expect(stored?.n).toBe(0);
  });

  it('the high-water mark moves with each run, and a later invoice arrives from it', async () => {
    const first = (await mark(ksefCompany))!;
    expect(first.hwm).not.toBeNull();
    t.clock.advance(120);
    await issueFromSupplier('FV/SUP/2');
    await receive(ksef, ksefCompany);
    const second = (await mark(ksefCompany))!;
    expect(Date.parse(second.hwm!)).toBeGreaterThan(Date.parse(first.hwm!));
    expect(await inbox(ksef, 'FV/SUP/2')).toHaveLength(1);
    expect(await inbox(ksef, 'FV/SUP/1')).toHaveLength(1);
  });

  it("the demo: the invoice Demo Supplier issues at the demo's first start arrives in Demo KSeF's inbox", async () => {
    const { ksefNumber, number } = await t.app.services.ksef.issueDemoPurchaseInvoice();
    expect(number).toBe('FV/2026/11/16/KSEF-DEMO');
    expect(ksefNumber.startsWith(`${SUPPLIER_NIP}-`)).toBe(true);
    await receive(ksef, ksefCompany);
    const items = await inbox(ksef, number);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      standard: 'ksef',
      partnerName: 'Demo Supplier',
      documentReferenceNumber: ksefNumber,
    });
  });
});
