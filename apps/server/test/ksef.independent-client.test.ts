/**
 * Issue 13 §2: a KSeF client somebody else wrote (`ksef-client-ts` from the npm registry), pointed at the portal's
 * simulator over a real socket, logs in with a self-signed XAdES certificate, creates a KSeF token, logs in with it,
 * opens an online session, sends an encrypted FA(3) invoice, reads its KSeF number and downloads its UPO.
 */
import { createServer } from 'node:net';
import { KSeFClient, openOnlineSession } from 'ksef-client-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFa3, isValidKsefNumber, validateUpo, type KsefInvoiceInput } from '@portal/ksef';
import { createTestCertificate, verifyXades } from '@portal/ksef/client';
import { createTestApp, type TestApp } from './helper.ts';

const NIP = '7010002139';
const BUYER_NIP = '5260001246';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A TEST certificate of the NIP, valid across the tests' clock (16 November 2026) and the real one. */
async function selfSigned(nip: string) {
  const { certificatePem, privateKeyPem } = await createTestCertificate({
    nip,
    name: 'Independent client',
    notBefore: new Date('2026-01-01T00:00:00Z'),
    days: 3650,
  });
  return { certPem: certificatePem, keyPem: privateKeyPem };
}

const invoice = (number: string, issueDate: string): KsefInvoiceInput => ({
  kind: 'VAT',
  number,
  issueDate,
  currency: 'PLN',
  seller: {
    nip: NIP,
    name: 'Demo KSeF Sp. z o.o.',
    address: { countryCode: 'PL', line1: 'ul. Prosta 1, 00-001 Warszawa' },
  },
  buyer: {
    id: { type: 'nip', nip: BUYER_NIP },
    name: 'Demo Supplier',
    address: { countryCode: 'PL', line1: 'ul. Krzywa 2, 00-002 Warszawa' },
  },
  lines: [{ name: 'Woda mineralna 0,5 l', unit: 'szt.', quantity: '24', netUnitPrice: '1.29', vatRate: '8' }],
});

let t: TestApp;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({
    env: { PUBLIC_URL: `http://127.0.0.1:${port}`, KSEF_SIMULATOR_DELAY_MS: '0' },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  // The client adds the API version (v2) to its base itself.
  base = `http://127.0.0.1:${port}/ksef-simulator`;
});
afterAll(() => t.close());

describe('an independent KSeF client against the simulator', () => {
  it('logs in by XAdES, makes a KSeF token, logs in with it, sends an invoice, reads its number and its UPO', async () => {
    const { certPem, keyPem } = await selfSigned(NIP);
    const admin = new KSeFClient({ baseUrl: base, presignedUrlHosts: ['127.0.0.1'] });
    await admin.crypto.init();
    await admin.loginWithCertificate(certPem, keyPem, NIP);
    const created = await admin.tokens.generateToken({
      permissions: ['InvoiceWrite', 'InvoiceRead'],
      description: 'independent client test',
    });
    expect(created.referenceNumber).toMatch(/-EC-/);
    for (let i = 0; i < 50 && (await admin.tokens.getToken(created.referenceNumber)).status !== 'Active'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }

    const client = new KSeFClient({ baseUrl: base, presignedUrlHosts: ['127.0.0.1'] });
    await client.crypto.init();
    await client.loginWithToken(created.token, NIP);
    const session = await openOnlineSession(client);
    const invoiceRef = await session.sendInvoice(
      buildFa3(invoice(`FV/IND/${Date.now()}`, t.clock.now().toISOString().slice(0, 10))),
    );
    let status = await client.sessionStatus.getSessionInvoice(session.sessionRef, invoiceRef);
    for (let i = 0; i < 50 && [100, 150].includes(status.status.code); i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await client.sessionStatus.getSessionInvoice(session.sessionRef, invoiceRef);
    }
    expect(status.status.code, JSON.stringify(status.status)).toBe(200);
    expect(isValidKsefNumber(status.ksefNumber!)).toBe(true);
    expect(status.ksefNumber!.startsWith(`${NIP}-`)).toBe(true);

    const upo = await client.sessionStatus.getInvoiceUpoByReference(session.sessionRef, invoiceRef);
    const xml = upo.upo;
    expect(xml).toContain(status.ksefNumber!);
    // Signed by the simulator's own key (XAdES, enveloped); the schema describes the document the signature covers.
    expect(verifyXades(xml)).not.toBeNull();
    const unsigned = xml.replace(/<(\w+:)?Signature[\s>][\s\S]*<\/(\w+:)?Signature>/, '');
    const checked = await validateUpo(unsigned);
    expect(checked.errors).toEqual([]);
    expect(checked.valid).toBe(true);
    await session.close();
  });
});
