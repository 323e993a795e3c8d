/**
 * Issue 13, part 3: an invoice of a company with KSeF goes to KSeF when it is sent, through the durable `ksef.send`
 * job written with the document; its KSeF number, references and UPO land on the document; a retry never sends twice;
 * an invoice FA(3) cannot hold is refused with the reason and never sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { KSEF_PORTAL_CODES } from '@portal/contracts';
import { isValidKsefNumber } from '@portal/ksef';
import { verifyXades } from '@portal/ksef/client';
import { bearer, type TestApp } from './helper.ts';
import { ksefApp, ksefInvoice, settled, submission, uploadOut } from './ksef-fixtures.ts';

let t: TestApp;
let ksef: string;
let supplier: string;

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
  ({ t, ksef, supplier } = await ksefApp());
}, 120_000);
afterAll(() => t.close());

describe('sending an invoice to KSeF', () => {
  it('goes through the job: KSeF number, acquisition time, references and a signed UPO on the document', async () => {
    const id = await uploadOut(t, ksef, 'fv1.edi', ksefInvoice('FV/KSEF/1', 'KS0001'));
    // Queued, or already taken by a job worker polling beside the test.
    expect(['queued', 'sending']).toContain((await submission(t, ksef, id)).json().state);
    await settled(t, ksef, id);
    // Nobody opened Demo KSeF's settings: its first job bound it to the simulator (the demo-ksef variant).
    expect((await t.app.inject({ url: '/api/company/ksef', headers: bearer(ksef) })).json()).toMatchObject({
      environment: 'simulator',
      authMethod: 'certificate',
    });
    const done = (await submission(t, ksef, id)).json();
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
    const id = await uploadOut(t, ksef, 'fv2.edi', ksefInvoice('FV/KSEF/2', 'KS0002'));
    await settled(t, ksef, id);
    const first = (await submission(t, ksef, id)).json();
    expect(first.state).toBe('accepted');
    // The same invoice number sent again (another interchange): KSeF answers 440 and its original number is adopted.
    const again = await uploadOut(t, ksef, 'fv2b.edi', ksefInvoice('FV/KSEF/2', 'KS0003'));
    await settled(t, ksef, again);
    const adopted = (await submission(t, ksef, again)).json();
    expect(adopted).toMatchObject({ state: 'accepted', ksefNumber: first.ksefNumber, hasUpo: true });
    expect(await simulatorInvoices()).toBe(before + 1);
  });

  it('an invoice FA(3) cannot hold is refused with the reason, and nothing reaches KSeF', async () => {
    const before = await simulatorInvoices();
    const id = await uploadOut(
      t,
      ksef,
      'fv3.edi',
      ksefInvoice('FV/KSEF/3', 'KS0004', {
        change: (form) => {
          // A seller VAT id of another country: no Polish NIP to issue the invoice under.
          form.supplier.vatId = 'DE811907980';
        },
      }),
    );
    await settled(t, ksef, id);
    const refused = (await submission(t, ksef, id)).json();
    expect(refused.state).toBe('rejected');
    // The portal's own FA(3) check refused it: its code (the web words it), its reasons as the details.
    expect(refused.errorCode).toBe(KSEF_PORTAL_CODES.invoiceCheck);
    expect(refused.errorDetails.length).toBeGreaterThan(0);
    expect(refused.hasUpo).toBe(false);
    expect(await simulatorInvoices()).toBe(before);
  });

  it("another company's document is 404; a company without KSeF has no submission", async () => {
    const id = await uploadOut(t, ksef, 'fv4.edi', ksefInvoice('FV/KSEF/4', 'KS0005'));
    expect((await submission(t, supplier, id)).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/documents/${id}/ksef/upo`, headers: bearer(supplier) })).statusCode).toBe(
      404,
    );
    // Demo Supplier's copy in its inbox is its own document, and not one it submitted.
    const inbox = (
      await t.app.inject({ url: '/api/documents?direction=in&documentNumber=FV/KSEF/4', headers: bearer(supplier) })
    ).json();
    const copy = inbox.items[0].id as string;
    expect((await submission(t, supplier, copy)).json()).toBeNull();
  });
});
