/**
 * The portal's own KSeF client (`@portal/ksef/client`) against the embedded simulator, over its HTTP protocol (in
 * process): XAdES login, a KSeF token and a login with it, an online session with an invoice, its number and UPO, a
 * duplicate adopted (440), a semantic error (450), a batch session, and the buyer receiving the invoice by export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '@portal/edifact/node';
import { buildFa3, isValidKsefNumber, type KsefInvoiceInput } from '@portal/ksef';
import { createTestCertificate, KsefClient, KsefStatusError, verifyXades, type KsefAuth } from '@portal/ksef/client';
import { inProcessFetch } from '../src/lib/in-process-fetch.ts';
import { createTestApp, type TestApp } from './helper.ts';

const SELLER = '7010002139';
const BUYER = '5260001246';
const BASE = 'http://portal.test/ksef-simulator/v2';

/** A TEST certificate of the NIP, valid across the tests' clock (16 November 2026) and the real one. */
async function selfSigned(nip: string) {
  const { certificatePem, privateKeyPem } = await createTestCertificate({
    nip,
    name: 'Portal client',
    notBefore: new Date('2026-01-01T00:00:00Z'),
    days: 3650,
  });
  return { certificatePem, privateKey: privateKeyPem };
}

let t: TestApp;
let client: KsefClient;
let seller: KsefAuth;
let issueDate: string;

const invoice = (number: string, over: Partial<KsefInvoiceInput> = {}): KsefInvoiceInput => ({
  kind: 'VAT',
  number,
  issueDate,
  currency: 'PLN',
  seller: {
    nip: SELLER,
    name: 'Demo KSeF Sp. z o.o.',
    address: { countryCode: 'PL', line1: 'ul. Prosta 1, Warszawa' },
  },
  buyer: {
    id: { type: 'nip', nip: BUYER },
    name: 'Demo Supplier',
    address: { countryCode: 'PL', line1: 'ul. Krzywa 2' },
  },
  lines: [{ name: 'Sok jabłkowy 1 l', unit: 'szt.', quantity: '12', netUnitPrice: '4.99', vatRate: '5' }],
  ...over,
});

/** The file names and contents of a zip (the EDIFACT package's bounded reader). */
const unzip = (zip: Buffer) =>
  new Map(readZip(new Uint8Array(zip)).map((e) => [e.name, Buffer.from(e.read()).toString('utf8')] as const));

beforeAll(async () => {
  t = await createTestApp({ env: { KSEF_SIMULATOR_DELAY_MS: '0' } });
  issueDate = t.clock.now().toISOString().slice(0, 10);
  client = new KsefClient({ baseUrl: BASE, fetch: inProcessFetch(t.app, BASE), pollIntervalMs: 20 });
  seller = await client.login({
    kind: 'certificate',
    context: { type: 'Nip', value: SELLER },
    ...(await selfSigned(SELLER)),
  });
});
afterAll(() => t.close());

describe('the portal’s KSeF client against the simulator', () => {
  it('creates a KSeF token after an XAdES login and logs in with it', async () => {
    const token = await seller.createToken(['InvoiceWrite', 'InvoiceRead'], 'portal client test');
    expect(token.referenceNumber).toMatch(/-EC-/);
    for (let i = 0; i < 50 && (await seller.tokenStatus(token.referenceNumber)).status !== 'Active'; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const withToken = await client.login({
      kind: 'token',
      context: { type: 'Nip', value: SELLER },
      token: token.token,
    });
    expect(withToken.authenticationReference).toMatch(/-AU-/);
    await withToken.logout();
  });

  it('sends an invoice in an online session: its KSeF number and a signed UPO; the same invoice again is 440 with that number', async () => {
    const session = await seller.openOnlineSession();
    const xml = buildFa3(invoice('FV/CLIENT/1'));
    const sent = await session.send(xml);
    const status = await seller.waitForInvoice(session.referenceNumber, sent.referenceNumber);
    expect(status.status.code).toBe(200);
    expect(isValidKsefNumber(status.ksefNumber!)).toBe(true);
    const upo = await seller.invoiceUpo(session.referenceNumber, sent.referenceNumber);
    expect(upo).toContain(status.ksefNumber!);
    expect(verifyXades(upo)).not.toBeNull();

    const again = await session.send(xml);
    const duplicate = await seller.waitForInvoice(session.referenceNumber, again.referenceNumber);
    expect(duplicate.status.code).toBe(440);
    expect(duplicate.status.extensions?.originalKsefNumber).toBe(status.ksefNumber);
    await session.close();
  });

  it('a semantic error is a 450 with its reasons; another NIP as seller is 410', async () => {
    const session = await seller.openOnlineSession();
    const notFa3 = await session.send(
      '<Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/"><Naglowek/></Faktura>',
    );
    const error = await seller.waitForInvoice(session.referenceNumber, notFa3.referenceNumber).catch((e) => e);
    expect(error).toBeInstanceOf(KsefStatusError);
    expect((error as KsefStatusError).code).toBe(450);
    expect((error as KsefStatusError).details.length).toBeGreaterThan(0);

    const foreign = await session.send(
      buildFa3(
        invoice('FV/CLIENT/2', { seller: { nip: BUYER, name: 'Not us', address: { countryCode: 'PL', line1: 'x' } } }),
      ),
    );
    const refused = await seller.waitForInvoice(session.referenceNumber, foreign.referenceNumber).catch((e) => e);
    expect((refused as KsefStatusError).code).toBe(410);
    await session.close();
  });

  it('sends a batch of invoices in one batch session', async () => {
    const files = Array.from({ length: 3 }, (_, i) => ({
      fileName: `FV-BATCH-${i + 1}.xml`,
      xml: buildFa3(invoice(`FV/BATCH/${i + 1}`)),
    }));
    const batch = await seller.sendBatch(files, { partBytes: 2048 });
    expect(batch.referenceNumber).toMatch(/-SB-/);
    const done = await client.poll('session', async () => (await seller.sessionStatus(batch.referenceNumber)).status);
    expect(done.code).toBe(200);
    expect((await seller.sessionStatus(batch.referenceNumber)).successfulInvoiceCount).toBe(3);
  });

  it('the buyer receives the invoices issued to it through an export', async () => {
    const buyer = await client.login({
      kind: 'certificate',
      context: { type: 'Nip', value: BUYER },
      ...(await selfSigned(BUYER)),
    });
    const from = new Date(t.clock.now().getTime() - 86_400_000).toISOString();
    const exported = await buyer.exportInvoices({
      subjectType: 'Subject2',
      dateRange: { dateType: 'PermanentStorage', from, restrictToPermanentStorageHwmDate: true },
    });
    const files = unzip(exported.zip);
    const invoices = [...files.keys()].filter((name) => name.endsWith('.xml'));
    expect(invoices.length).toBeGreaterThanOrEqual(4);
    expect(files.has('_metadata.json')).toBe(true);
    expect([...files.values()].some((xml) => xml.includes('FV/CLIENT/1'))).toBe(true);
  });
});
