/**
 * Issue 13: KOD I on the PDF. An outbox invoice KSeF accepted shows, on its PDF, the QR code of its verification link
 * (`{QR host}/invoice/{seller NIP}/{P_1 as DD-MM-YYYY}/{SHA-256 of the XML sent, Base64URL}`) with its KSeF number
 * under it; on the simulator the QR host is `/ksef-simulator`, whose page answers for that invoice. An invoice not
 * in KSeF shows neither.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { DraftLineSchema, emptyDraftForm } from '@portal/contracts';
import { buildInterchange, formToCanonical, writeEancomMessage } from '@portal/documents';
import { serializeInterchange, shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const KSEF = { login: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };
const KSEF_GLN = '5901234000024';
const SUPPLIER_GLN = '5901234000017';

let t: TestApp;
let ksef: string;
let supplier: string;

/** An EANCOM invoice from Demo KSeF to Demo Supplier, as the portal's own writer makes it. */
function invoice(number: string, control: string): string {
  const form = emptyDraftForm();
  form.number = number;
  form.documentDate = '2026-11-16';
  const address = { street: 'ul. Prosta 1', city: 'Warszawa', postalCode: '00-001', country: 'PL' };
  form.supplier = { ...form.supplier, ...address, gln: KSEF_GLN, name: 'Demo KSeF Sp. z o.o.', vatId: 'PL7010002139' };
  form.buyer = { ...form.buyer, ...address, gln: SUPPLIER_GLN, name: 'Demo Supplier', vatId: 'PL5260001246' };
  form.lines = [
    DraftLineSchema.parse({ description: 'Woda mineralna', quantity: '10', unit: 'PCE', price: '1.29', vatRate: '8' }),
  ];
  const written = writeEancomMessage(formToCanonical('invoice', form, 'lines'), { directory: 'D96A', reference: '1' });
  return serializeInterchange(
    buildInterchange({
      messages: [written.message],
      sender: { id: KSEF_GLN },
      recipient: { id: SUPPLIER_GLN },
      controlReference: control,
      preparedAt: '2026-11-16T10:00',
      test: false,
      una: true,
      syntax: 'UNOC',
      applicationReference: written.message.type,
    }),
    { una: 'always' },
  );
}

async function upload(token: string, name: string, content: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'application/edifact' }), name);
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/documents/upload?direction=out',
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(token) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files[0].documents[0].id as string;
}

const submission = async (id: string) =>
  (await t.app.inject({ url: `/api/documents/${id}/ksef`, headers: bearer(ksef) })).json();
async function settled(id: string) {
  for (let i = 0; i < 100; i++) {
    // A long drain: the first send builds and checks the XML on the CPU pool, slow on a busy machine.
    await t.jobs.drain({ timeoutMs: 60_000 });
    const body = await submission(id);
    if (body && body.state !== 'queued' && body.state !== 'sending') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the submission did not settle');
}

/** The text of every page of a PDF, as pdf.js reads it. */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return pages.join('\n');
}

beforeAll(async () => {
  t = await createTestApp({
    env: { KSEF_SIMULATOR_DELAY_MS: '0', EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A },
  });
  ksef = (await login(t.app, KSEF)).access_token;
  supplier = (await login(t.app)).access_token;
}, 120_000);
afterAll(() => t.close());

describe('KOD I on the PDF of an invoice in KSeF', () => {
  it('shows the KSeF number and the verification link of the XML KSeF holds; the link opens the simulator', async () => {
    const id = await upload(ksef, 'kod1.edi', invoice('FV/KOD/1', 'KD0001'));
    const done = await settled(id);
    expect(done.state, JSON.stringify(done)).toBe('accepted');
    const ksefNumber = done.ksefNumber as string;

    // The formula, computed here from the XML the simulator stored: the SHA-256 of its bytes in Base64URL.
    const rows = (await t.database.db.execute(
      sql`select plain_xml from ksef_sim_invoices where ksef_number = ${ksefNumber}`,
    )) as unknown as { rows: { plain_xml: string }[] };
    const xml = rows.rows[0]!.plain_xml;
    const hash = createHash('sha256').update(Buffer.from(xml, 'utf8')).digest('base64url');
    const link = `http://portal.test/ksef-simulator/invoice/7010002139/16-11-2026/${hash}`;

    const pdf = await t.app.inject({ url: `/api/documents/${id}/pdf?language=en`, headers: bearer(ksef) });
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('KSeF number');
    expect(text).toContain(ksefNumber);
    expect(text.replace(/\s/g, '')).toContain(link);

    // The simulator's page answers for that invoice, without a login, and says it is the simulator.
    const page = await t.app.inject({ url: link.slice('http://portal.test'.length) });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(ksefNumber);
    expect(page.body).toContain('FV/KOD/1');
    expect(page.body).toContain('simulator');
    // Another hash, date or NIP: not found.
    const other = link.replace(hash, createHash('sha256').update('other').digest('base64url'));
    expect((await t.app.inject({ url: other.slice('http://portal.test'.length) })).statusCode).toBe(404);
    const otherDate = link.replace('16-11-2026', '17-11-2026');
    expect((await t.app.inject({ url: otherDate.slice('http://portal.test'.length) })).statusCode).toBe(404);
  }, 90_000);

  it('shows neither on a document KSeF does not hold (the buyer’s EDIFACT copy)', async () => {
    await upload(ksef, 'kod2.edi', invoice('FV/KOD/2', 'KD0002'));
    const inbox = (
      await t.app.inject({ url: '/api/documents?direction=in&documentNumber=FV/KOD/2', headers: bearer(supplier) })
    ).json();
    const copy = inbox.items[0].id as string;
    const pdf = await t.app.inject({ url: `/api/documents/${copy}/pdf?language=en`, headers: bearer(supplier) });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).not.toContain('ksef-simulator/invoice');
  }, 90_000);
});
