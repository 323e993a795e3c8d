/**
 * Issue 13, part 3: an invoice of a company with KSeF goes to KSeF when it is sent, through the durable `ksef.send`
 * job written with the document; its KSeF number, references and UPO land on the document; a retry never sends twice;
 * an invoice FA(3) cannot hold is refused with the reason and never sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DraftLineSchema, emptyDraftForm, type DraftForm } from '@portal/contracts';
import { buildInterchange, formToCanonical, writeEancomMessage } from '@portal/documents';
import { serializeInterchange, shippedDirectoryZips } from '@portal/edifact/node';
import { isValidKsefNumber } from '@portal/ksef';
import { verifyXades } from '@portal/ksef/client';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const KSEF = { login: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };
const KSEF_GLN = '5901234000024';
const SUPPLIER_GLN = '5901234000017';

let t: TestApp;
let ksef: string;
let supplier: string;

/** An EANCOM invoice from Demo KSeF to Demo Supplier, as the portal's own writer makes it. */
function invoice(number: string, control: string, over: (form: DraftForm) => void = () => undefined): string {
  const form = emptyDraftForm();
  form.number = number;
  form.documentDate = '2026-11-16';
  form.supplier = {
    ...form.supplier,
    gln: KSEF_GLN,
    name: 'Demo KSeF Sp. z o.o.',
    street: 'ul. Prosta 1',
    city: 'Warszawa',
    postalCode: '00-001',
    country: 'PL',
    vatId: 'PL7010002139',
  };
  form.buyer = {
    ...form.buyer,
    gln: SUPPLIER_GLN,
    name: 'Demo Supplier',
    street: 'ul. Krzywa 2',
    city: 'Warszawa',
    postalCode: '00-002',
    country: 'PL',
    vatId: 'PL5260001246',
  };
  form.lines = [
    DraftLineSchema.parse({
      gtin: '4000862141404',
      description: 'Woda mineralna',
      quantity: '10',
      unit: 'PCE',
      price: '1.29',
      vatRate: '8',
    }),
  ];
  over(form);
  const body = formToCanonical('invoice', form, 'lines');
  const written = writeEancomMessage(body, { directory: 'D96A', reference: '1' });
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
  const document = res.json().files[0].documents[0];
  expect(document.status, res.body).not.toBe('error');
  return document.id as string;
}

const submission = async (token: string, id: string) =>
  t.app.inject({ url: `/api/documents/${id}/ksef`, headers: bearer(token) });
/** Runs the due jobs until the submission is final: a job worker polling beside the test may hold it meanwhile. */
async function settled(token: string, id: string) {
  for (let i = 0; i < 100; i++) {
    await t.jobs.drain();
    const body = (await submission(token, id)).json();
    if (body && body.state !== 'queued' && body.state !== 'sending') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The invoices the simulator gave a KSeF number (a duplicate is kept too, as KSeF does, without one). */
const simulatorInvoices = async () =>
  Number(
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from ksef_sim_invoices where ksef_number is not null`,
      )) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]!.n,
  );

beforeAll(async () => {
  t = await createTestApp({
    env: { KSEF_SIMULATOR_DELAY_MS: '0', EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A },
  });
  ksef = (await login(t.app, KSEF)).access_token;
  supplier = (await login(t.app)).access_token;
}, 120_000);
afterAll(() => t.close());

describe('sending an invoice to KSeF', () => {
  it('goes through the job: KSeF number, acquisition time, references and a signed UPO on the document', async () => {
    const id = await upload(ksef, 'fv1.edi', invoice('FV/KSEF/1', 'KS0001'));
    // Queued, or already taken by a job worker polling beside the test.
    expect(['queued', 'sending']).toContain((await submission(ksef, id)).json().state);
    await settled(ksef, id);
    // Nobody opened Demo KSeF's settings: its first job bound it to the simulator (the demo-ksef variant).
    expect((await t.app.inject({ url: '/api/company/ksef', headers: bearer(ksef) })).json()).toMatchObject({
      environment: 'simulator',
      authMethod: 'certificate',
    });
    const done = (await submission(ksef, id)).json();
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'accepted', hasUpo: true, errorDetails: [] });
    expect(isValidKsefNumber(done.ksefNumber)).toBe(true);
    expect(done.ksefNumber.startsWith('7010002139-')).toBe(true);
    expect(done.sessionReference).toMatch(/-SO-/);
    expect(done.elementReference).toMatch(/-EE-/);
    expect(done.tokenReference).toMatch(/-AU-/);
    expect(done.acquisitionDate).not.toBeNull();

    const upo = await t.app.inject({ url: `/api/documents/${id}/ksef/upo`, headers: bearer(ksef) });
    expect(upo.statusCode).toBe(200);
    expect(upo.headers['content-disposition']).toContain(`UPO_${done.ksefNumber}.xml`);
    expect(upo.body).toContain(done.ksefNumber);
    expect(verifyXades(upo.body)).not.toBeNull();
    expect(await simulatorInvoices()).toBe(1);
  });

  it('never sends one invoice twice: the same invoice uploaded again under another interchange adopts its KSeF number (440)', async () => {
    const before = await simulatorInvoices();
    const id = await upload(ksef, 'fv2.edi', invoice('FV/KSEF/2', 'KS0002'));
    await settled(ksef, id);
    const first = (await submission(ksef, id)).json();
    expect(first.state).toBe('accepted');
    // The same invoice number sent again (another interchange): KSeF answers 440 and its original number is adopted.
    const again = await upload(ksef, 'fv2b.edi', invoice('FV/KSEF/2', 'KS0003'));
    await settled(ksef, again);
    const adopted = (await submission(ksef, again)).json();
    expect(adopted).toMatchObject({ state: 'accepted', ksefNumber: first.ksefNumber, hasUpo: true });
    expect(await simulatorInvoices()).toBe(before + 1);
  });

  it('an invoice FA(3) cannot hold is refused with the reason, and nothing reaches KSeF', async () => {
    const before = await simulatorInvoices();
    const id = await upload(
      ksef,
      'fv3.edi',
      invoice('FV/KSEF/3', 'KS0004', (form) => {
        // A seller VAT id of another country: no Polish NIP to issue the invoice under.
        form.supplier.vatId = 'DE811907980';
      }),
    );
    await settled(ksef, id);
    const refused = (await submission(ksef, id)).json();
    expect(refused.state).toBe('rejected');
    expect(refused.errorDetails.length).toBeGreaterThan(0);
    expect(refused.hasUpo).toBe(false);
    expect(await simulatorInvoices()).toBe(before);
  });

  it("another company's document is 404; a company without KSeF has no submission", async () => {
    const id = await upload(ksef, 'fv4.edi', invoice('FV/KSEF/4', 'KS0005'));
    expect((await submission(supplier, id)).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/documents/${id}/ksef/upo`, headers: bearer(supplier) })).statusCode).toBe(
      404,
    );
    // Demo Supplier's copy in its inbox is its own document, and not one it submitted.
    const inbox = (
      await t.app.inject({ url: '/api/documents?direction=in&documentNumber=FV/KSEF/4', headers: bearer(supplier) })
    ).json();
    const copy = inbox.items[0].id as string;
    expect((await submission(supplier, copy)).json()).toBeNull();
  });
});
