/**
 * Issue 13: KOD I on the PDF. An outbox invoice KSeF accepted shows, on its PDF, the QR code of its verification link
 * (`{QR host}/invoice/{seller NIP}/{P_1 as DD-MM-YYYY}/{SHA-256 of the XML sent, Base64URL}`) with its KSeF number
 * under it; on the simulator the QR host is `/ksef-simulator`, whose page answers for that invoice. An invoice not
 * in KSeF shows neither.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, type TestApp } from './helper.ts';
import { ksefApp, ksefInvoice, pdfText, settled, uploadOut } from './ksef-fixtures.ts';

let t: TestApp;
let ksef: string;
let supplier: string;

beforeAll(async () => {
  ({ t, ksef, supplier } = await ksefApp());
}, 120_000);
afterAll(() => t.close());

describe('KOD I on the PDF of an invoice in KSeF', () => {
  it('shows the KSeF number and the verification link of the XML KSeF holds; the link opens the simulator', async () => {
    const id = await uploadOut(t, ksef, 'kod1.edi', ksefInvoice('FV/KOD/1', 'KD0001'));
    const done = await settled(t, ksef, id);
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
    await uploadOut(t, ksef, 'kod2.edi', ksefInvoice('FV/KOD/2', 'KD0002'));
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
