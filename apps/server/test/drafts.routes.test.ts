/**
 * Documents written in the browser (issue 12): the new-document menu, drafts (create, save with versions, copy,
 * delete), Check (the form's problems, then the EDIFACT engine on the EANCOM it writes, findings on their fields),
 * Send (routed to the partner on the platform, idempotent), turnaround of a received order, permissions and another
 * company's ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssccWithCheckDigit } from '@portal/documents';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const SUPPLIER_GLN = '5901234000017';
const RETAILER_GLN = '4012345000016';
/** In Demo Supplier's demo catalogue: water at 8 % VAT, orange juice at 5 %. */
const WATER = '5901234123464';
const JUICE = '5901234123471';

let t: TestApp;
let user: string;
let buyer: string;
let clerk: string;
let supplierPartner: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
const details = (res: { json(): { error?: { details?: { field: string; code: string }[] } } }) =>
  (res.json().error?.details ?? []).map((d) => `${d.field}:${d.code}`);

const line = (gtin: string, quantity: string, over: Record<string, string> = {}) => ({
  gtin,
  buyerArticleNumber: '',
  supplierArticleNumber: '',
  description: gtin === WATER ? 'Mineral water 0.5 l' : 'Orange juice 1 l',
  quantity,
  expectedQuantity: '',
  unit: 'PCE',
  price: '',
  vatRate: '',
  orderLineNumber: '',
  packageNumber: '',
  ...over,
});

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_SHIPPED_DIRECTORIES: 'true' } });
  user = (await login(t.app)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  // Demo Retailer sends orders to Demo Supplier; Demo Supplier lists no types for Demo Retailer (so: every type).
  const created = await call('POST', '/api/partners', buyer, { gln: SUPPLIER_GLN, docTypesOut: ['ORDERS'] });
  expect(created.statusCode, created.body).toBe(201);
  supplierPartner = created.json().id;
}, 120_000);
afterAll(() => t?.close());

describe('the new-document menu', () => {
  it('offers the kinds some partner may receive, with those partners', async () => {
    const res = await call('GET', '/api/drafts/kinds', buyer);
    expect(res.statusCode).toBe(200);
    expect(res.json().kinds).toEqual([
      { kind: 'order', partners: [{ id: supplierPartner, name: 'Demo Supplier', gln: SUPPLIER_GLN }] },
    ]);
  });

  it('is refused without outbox create', async () => {
    expect((await call('GET', '/api/drafts/kinds', clerk)).statusCode).toBe(403);
    expect((await call('POST', '/api/drafts', clerk, { kind: 'order' })).statusCode).toBe(403);
  });
});

describe('an order from Demo Retailer to Demo Supplier', () => {
  let id: string;
  let version: number;
  let sentId: string;

  it('starts with the company as buyer, the partner as supplier and today as its date', async () => {
    const res = await call('POST', '/api/drafts', buyer, { kind: 'order', partnerId: supplierPartner });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json();
    expect(draft).toMatchObject({ kind: 'order', state: 'draft', version: 1, partnerName: 'Demo Supplier' });
    expect(draft.form.buyer).toMatchObject({ gln: RETAILER_GLN, name: 'Demo Retailer' });
    expect(draft.form.supplier).toMatchObject({ gln: SUPPLIER_GLN, name: 'Demo Supplier' });
    expect(draft.form.documentDate).toBe(t.clock.now().toISOString().slice(0, 10));
    ({ id, version } = draft);
    expect((await call('GET', '/api/drafts', buyer)).json().items.map((d: { id: string }) => d.id)).toContain(id);
  });

  it('Check names what is missing, on its field', async () => {
    const res = await call('POST', `/api/drafts/${id}/check`, buyer);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: false, edifact: null });
    expect(res.json().problems).toEqual([
      { field: 'number', code: 'required' },
      { field: 'lines', code: 'linesRequired' },
    ]);
  });

  it('saves over the version it read; an older version is a conflict', async () => {
    const draft = (await call('GET', `/api/drafts/${id}`, buyer)).json();
    const form = { ...draft.form, number: 'ZAM/2026/77', lines: [line(WATER, '24'), line(JUICE, '12')] };
    const saved = await call('PUT', `/api/drafts/${id}`, buyer, { version, partnerId: supplierPartner, form });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().version).toBe(version + 1);
    const stale = await call('PUT', `/api/drafts/${id}`, buyer, { version, partnerId: supplierPartner, form });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('drafts.version_conflict');
    version = saved.json().version;
  });

  it('refuses a form past its limits with the field named, and keeps what was saved', async () => {
    const draft = (await call('GET', `/api/drafts/${id}`, buyer)).json();
    const tooMany = { ...draft.form, lines: Array.from({ length: 501 }, () => line(WATER, '1')) };
    const res = await call('PUT', `/api/drafts/${id}`, buyer, { version, partnerId: supplierPartner, form: tooMany });
    expect(res.statusCode).toBe(400);
    expect(details(res)).toContain('form.lines:tooBig');
    expect((await call('GET', `/api/drafts/${id}`, buyer)).json().form.lines).toHaveLength(2);
  });

  it('Check writes EANCOM and the engine finds Polish letters outside UNOC, on the field', async () => {
    const draft = (await call('GET', `/api/drafts/${id}`, buyer)).json();
    const form = { ...draft.form, note: 'Dostawa na rampę 3' };
    version = (await call('PUT', `/api/drafts/${id}`, buyer, { version, partnerId: supplierPartner, form })).json()
      .version;
    const res = (await call('POST', `/api/drafts/${id}/check`, buyer)).json();
    expect(res.ok).toBe(false);
    expect(res.edifact).toMatch(/^UNB\+UNOC:3\+4012345000016:14\+5901234000017:14\+/);
    expect(res.findings.map((f: { code: string; field: string }) => [f.code, f.field])).toEqual([
      ['EDI_INVALID_CHARACTER', 'note'],
    ]);
    // A send now is refused with the same finding.
    const send = await call('POST', `/api/drafts/${id}/send`, buyer, { version });
    expect(send.statusCode).toBe(400);
    expect(send.json().error.code).toBe('drafts.check_failed');
    expect(details(send)).toEqual(['form.note:EDI_INVALID_CHARACTER']);
  });

  it('with the partner set to UNOD (Latin-2), the same form checks clean', async () => {
    const set = await call('PUT', `/api/partners/${supplierPartner}`, buyer, {
      docTypesOut: ['ORDERS'],
      syntaxIdentifier: 'UNOD',
      una: true,
    });
    expect(set.statusCode, set.body).toBe(200);
    const res = (await call('POST', `/api/drafts/${id}/check`, buyer)).json();
    expect(res.findings).toEqual([]);
    expect(res).toMatchObject({ ok: true, messageType: 'ORDERS', directory: 'D96A' });
    expect(res.edifact).toMatch(/^UNA:\+\.\? 'UNB\+UNOD:3\+/);
    expect(res.edifact).toContain("BGM+220+ZAM/2026/77+9'");
    expect(res.edifact).toContain("QTY+21:24:PCE'");
  });

  it('Send stores one outbox document however often it is asked, and Demo Supplier receives it', async () => {
    const [a, b] = await Promise.all([
      call('POST', `/api/drafts/${id}/send`, buyer, { version }),
      call('POST', `/api/drafts/${id}/send`, buyer, { version }),
    ]);
    expect([a.statusCode, b.statusCode], a.body + b.body).toEqual([200, 200]);
    expect(a.json().documentId).toBe(b.json().documentId);
    sentId = a.json().documentId;
    const again = await call('POST', `/api/drafts/${id}/send`, buyer, { version });
    expect(again.json()).toEqual({ documentId: sentId, repeated: true });

    const outbox = (await call('GET', '/api/documents?direction=out&documentNumber=ZAM/2026/77', buyer)).json();
    expect(outbox.items.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([[sentId, 'sent']]);
    const inbox = (await call('GET', '/api/documents?direction=in&documentNumber=ZAM/2026/77', user)).json();
    expect(inbox.items).toHaveLength(1);
    expect(inbox.items[0]).toMatchObject({ documentType: 'ORDERS', partnerName: 'Demo Retailer', status: 'received' });
    const received = (await call('GET', `/api/documents/${inbox.items[0].id}`, user)).json();
    expect(received.body.header.texts).toEqual([{ qualifier: 'AAI', text: 'Dostawa na rampę 3' }]);
    expect(received.body.lines.map((l: { gtin: string }) => l.gtin)).toEqual([WATER, JUICE]);
  });

  it('a sent draft is no longer listed, changed or deleted; a copy is a new draft', async () => {
    expect((await call('GET', '/api/drafts', buyer)).json().items.map((d: { id: string }) => d.id)).not.toContain(id);
    const draft = (await call('GET', `/api/drafts/${id}`, buyer)).json();
    expect(draft).toMatchObject({ state: 'sent', sentDocumentId: sentId });
    const put = await call('PUT', `/api/drafts/${id}`, buyer, {
      version,
      partnerId: supplierPartner,
      form: draft.form,
    });
    expect(put.statusCode).toBe(409);
    expect(put.json().error.code).toBe('drafts.sent');
    expect((await call('DELETE', `/api/drafts/${id}`, buyer)).statusCode).toBe(409);
    const copy = await call('POST', `/api/drafts/${id}/copy`, buyer);
    expect(copy.statusCode).toBe(201);
    expect(copy.json()).toMatchObject({ state: 'draft', version: 1, partnerId: supplierPartner });
    expect(copy.json().form).toMatchObject({ number: '', lines: draft.form.lines });
    expect((await call('DELETE', `/api/drafts/${copy.json().id}`, buyer)).statusCode).toBe(204);
    expect((await call('GET', `/api/drafts/${copy.json().id}`, buyer)).statusCode).toBe(404);
  });

  it("another company's draft is 404 for every call", async () => {
    for (const [method, url] of [
      ['GET', `/api/drafts/${id}`],
      ['POST', `/api/drafts/${id}/check`],
      ['POST', `/api/drafts/${id}/copy`],
      ['DELETE', `/api/drafts/${id}`],
    ] as const) {
      expect((await call(method, url, user)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call('POST', `/api/drafts/${id}/send`, user, { version: 1 })).statusCode).toBe(404);
  });

  it('turnaround: Demo Supplier answers the order with its lines, references and parties carried over', async () => {
    const inbox = (await call('GET', '/api/documents?direction=in&documentNumber=ZAM/2026/77', user)).json();
    const orderId = inbox.items[0].id as string;
    // Not the buyer's to answer: its own outbox copy is not a received order of the supplier.
    const foreign = await call('POST', '/api/drafts', user, { kind: 'order_response', sourceDocumentId: sentId });
    expect(foreign.statusCode).toBe(400);
    expect(details(foreign)).toEqual(['sourceDocumentId:notFound']);

    const res = await call('POST', '/api/drafts', user, { kind: 'invoice', sourceDocumentId: orderId });
    expect(res.statusCode, res.body).toBe(201);
    const draft = res.json();
    expect(draft.sourceDocumentId).toBe(orderId);
    expect(draft.partnerName).toBe('Demo Retailer');
    expect(draft.form).toMatchObject({ orderNumber: 'ZAM/2026/77', number: '' });
    expect(draft.form.buyer.gln).toBe(RETAILER_GLN);
    expect(draft.form.supplier.gln).toBe(SUPPLIER_GLN);
    // The order named no prices or VAT: the supplier's product list gives them.
    expect(draft.form.lines.map((l: Record<string, string>) => [l.gtin, l.quantity, l.price, l.vatRate])).toEqual([
      [WATER, '24', '1.29', '8'],
      [JUICE, '12', '4.99', '5'],
    ]);
    // Only part of the water is invoiced: the order is partly answered.
    const form = { ...draft.form, number: 'FV/2026/77', lines: [{ ...draft.form.lines[0], quantity: '20' }] };
    const saved = await call('PUT', `/api/drafts/${draft.id}`, user, {
      version: 1,
      partnerId: draft.partnerId,
      form,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const check = (await call('POST', `/api/drafts/${draft.id}/check`, user)).json();
    expect(check.findings).toEqual([]);
    expect(check.ok).toBe(true);
    // 20 × 1.29 = 25.80 at 8 %: VAT 2.064, 2.06 in grosze; gross 27.86.
    expect(check.edifact).toContain("MOA+77:27.86'");
    const sent = await call('POST', `/api/drafts/${draft.id}/send`, user, { version: 2 });
    expect(sent.statusCode, sent.body).toBe(200);
    const buyerInbox = (await call('GET', '/api/documents?direction=in&documentNumber=FV/2026/77', buyer)).json();
    expect(buyerInbox.items.map((d: { documentType: string }) => d.documentType)).toEqual(['INVOIC']);
    const order = (await call('GET', `/api/documents/${orderId}`, user)).json();
    expect(order.additionalStatus).toBe('partially_completed');
    expect(order.history).toContainEqual(
      expect.objectContaining({ field: 'additionalStatus', to: 'partially_completed', reason: 'answered' }),
    );
    // A second invoice starts from what is still open: 4 of the water, all of the juice.
    const second = (await call('POST', '/api/drafts', user, { kind: 'invoice', sourceDocumentId: orderId })).json();
    expect(second.form.lines.map((l: { quantity: string }) => l.quantity)).toEqual(['4', '12']);
    expect((await call('DELETE', `/api/drafts/${second.id}`, user)).statusCode).toBe(204);
  });

  it('an invoice with allowances and payment terms: picked or typed, the server judges them, then writes ALC, PAT, PAI and FII', async () => {
    // The company's bank account of its profile is the payee's account of a new invoice.
    const { id: _id, ...profile } = (await call('GET', '/api/company/profile', user)).json();
    const updated = await call('PUT', '/api/company/profile', user, {
      ...profile,
      bankAccount: 'PL61109010140000071219812874',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const inbox = (await call('GET', '/api/documents?direction=in&documentNumber=ZAM/2026/77', user)).json();
    const draft = (
      await call('POST', '/api/drafts', user, { kind: 'invoice', sourceDocumentId: inbox.items[0].id })
    ).json();
    expect(draft.form.payment).toMatchObject({ terms: '', iban: 'PL61109010140000071219812874' });
    expect(draft.form.lines.map((l: { allowances: unknown[] }) => l.allowances)).toEqual([[], []]);
    const [water, juice] = draft.form.lines;
    const payment = { terms: 'net_days', days: '30', discountPercentage: '2', discountDays: '10', means: '30' };
    const form = (over: { percentage: string; iban: string; buyerGln: string }) => ({
      ...draft.form,
      number: 'FV/2026/78',
      // What a picker filled is form content like any other: a GLN with a wrong check digit is refused.
      buyer: { ...draft.form.buyer, gln: over.buyerGln },
      payment: { ...payment, iban: over.iban },
      lines: [
        {
          ...water,
          quantity: '4',
          allowances: [{ type: 'allowance', reason: 'DI', calculation: 'percentage', value: over.percentage }],
        },
        { ...juice, allowances: [{ type: 'charge', reason: 'FC', calculation: 'amount', value: '2,50' }] },
      ],
    });
    const bad = form({ percentage: '101', iban: 'PL61109010140000071219812875', buyerGln: '4012345000017' });
    const saved = await call('PUT', `/api/drafts/${draft.id}`, user, {
      version: 1,
      partnerId: draft.partnerId,
      form: bad,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('POST', `/api/drafts/${draft.id}/check`, user)).json().problems).toEqual([
      { field: 'buyer.gln', code: 'gln' },
      { field: 'lines.0.allowances.0.value', code: 'percentage' },
      { field: 'payment.iban', code: 'iban' },
    ]);
    const send = await call('POST', `/api/drafts/${draft.id}/send`, user, { version: 2 });
    expect(send.statusCode).toBe(400);
    expect(details(send)).toEqual([
      'form.buyer.gln:gln',
      'form.lines.0.allowances.0.value:percentage',
      'form.payment.iban:iban',
    ]);

    const good = form({ percentage: '10', iban: 'PL61 1090 1014 0000 0712 1981 2874', buyerGln: RETAILER_GLN });
    await call('PUT', `/api/drafts/${draft.id}`, user, { version: 2, partnerId: draft.partnerId, form: good });
    const check = (await call('POST', `/api/drafts/${draft.id}/check`, user)).json();
    expect(check.findings).toEqual([]);
    expect(check.ok).toBe(true);
    const segments = (check.edifact as string).split("'");
    // The payee's account with the supplier, the means after the dates, the terms after the currency.
    expect(segments).toEqual(
      expect.arrayContaining([
        'PAI+::30',
        'FII+RB+PL61109010140000071219812874',
        'PAT+1++5:3:D:30',
        'PAT+22++5:3:D:10',
      ]),
    );
    // Water: 4 × 1.29 = 5.16 − 10 % (0.516 → 0.52) = 4.64 at 8 %; juice: 12 × 4.99 = 59.88 + 2.50 = 62.38 at 5 %.
    expect(segments).toEqual(
      expect.arrayContaining([
        'ALC+A+++1+DI',
        'PCD+1:10',
        'MOA+204:0.52',
        'MOA+203:4.64',
        'ALC+C+++1+FC',
        'MOA+23:2.50',
      ]),
    );
    expect(segments).toContain('MOA+77:70.51');
    expect((await call('DELETE', `/api/drafts/${draft.id}`, user)).statusCode).toBe(204);
  });

  it('a despatch advice asks for its SSCCs and checks each check digit', async () => {
    const inbox = (await call('GET', '/api/documents?direction=in&documentNumber=ZAM/2026/77', user)).json();
    const draft = (
      await call('POST', '/api/drafts', user, { kind: 'despatch_advice', sourceDocumentId: inbox.items[0].id })
    ).json();
    const bad = { ...draft.form, number: 'WZ/77', packages: [{ sscc: '359012340000000011', type: '201' }] };
    await call('PUT', `/api/drafts/${draft.id}`, user, { version: 1, partnerId: draft.partnerId, form: bad });
    const check = (await call('POST', `/api/drafts/${draft.id}/check`, user)).json();
    expect(check.problems).toEqual([{ field: 'packages.0.sscc', code: 'sscc' }]);
    const send = await call('POST', `/api/drafts/${draft.id}/send`, user, { version: 2 });
    expect(send.statusCode).toBe(400);
    expect(details(send)).toEqual(['form.packages.0.sscc:sscc']);
    const good = { ...bad, packages: [{ sscc: ssccWithCheckDigit('35901234000000001')!, type: '201' }] };
    await call('PUT', `/api/drafts/${draft.id}`, user, { version: 2, partnerId: draft.partnerId, form: good });
    expect((await call('POST', `/api/drafts/${draft.id}/check`, user)).json()).toMatchObject({
      ok: true,
      findings: [],
    });
    // Everything despatched: the order is Completed, and a further despatch advice has nothing open.
    expect((await call('POST', `/api/drafts/${draft.id}/send`, user, { version: 3 })).statusCode).toBe(200);
    expect((await call('GET', `/api/documents/${inbox.items[0].id}`, user)).json().additionalStatus).toBe('completed');
    const next = (
      await call('POST', '/api/drafts', user, { kind: 'despatch_advice', sourceDocumentId: inbox.items[0].id })
    ).json();
    expect(next.form.lines.map((l: { quantity: string }) => l.quantity)).toEqual(['0', '0']);
  });

  it("the order's chain: its invoice and despatch advice with their statuses, oldest first; 404 for another company", async () => {
    const inbox = (await call('GET', '/api/documents?direction=in&documentNumber=ZAM/2026/77', user)).json();
    const orderId = inbox.items[0].id as string;
    const res = await call('GET', `/api/documents/${orderId}/chain`, user);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { id: string; kind: string; number: string; direction: string }[];
    expect(items.map((i) => [i.kind, i.number, i.direction])).toEqual([
      // The test clock stands still: documents of one instant follow the chain's business order.
      ['order', 'ZAM/2026/77', 'in'],
      ['despatch_advice', 'WZ/77', 'out'],
      ['invoice', 'FV/2026/77', 'out'],
    ]);
    expect((await call('GET', `/api/documents/${orderId}/chain`, buyer)).statusCode).toBe(404);
    // The buyer's own chain of the same order holds its copies: the order it sent and the invoice it received.
    const sent = (await call('GET', '/api/documents?direction=out&documentNumber=ZAM/2026/77', buyer)).json();
    const buyerChain = (await call('GET', `/api/documents/${sent.items[0].id}/chain`, buyer)).json();
    expect(buyerChain.items.map((i: { kind: string }) => i.kind)).toEqual(
      expect.arrayContaining(['order', 'invoice', 'despatch_advice']),
    );
  });
});

describe("a platform partner's delivery points", () => {
  it("lists a platform partner's delivery points for the delivery party, searched; another company's partner is 404", async () => {
    // Demo Retailer (Demo Supplier's partner since its order arrived) has delivery points the supplier may pick.
    const partner = (await call('GET', '/api/drafts/kinds', user)).json().kinds[0].partners[0];
    expect(partner.gln).toBe(RETAILER_GLN);
    const all = await call('GET', `/api/drafts/partners/${partner.id}/delivery-points?limit=50`, user);
    expect(all.statusCode, all.body).toBe(200);
    const names = all.json().items.map((p: { name: string }) => p.name);
    expect(names.length).toBeGreaterThan(1);
    const first = all.json().items[0] as { gln: string; name: string };
    const found = await call(
      'GET',
      `/api/drafts/partners/${partner.id}/delivery-points?limit=50&search=${first.gln}`,
      user,
    );
    expect(found.json().items.map((p: { gln: string }) => p.gln)).toEqual([first.gln]);
    // Demo Retailer's own partner (Demo Supplier) is not Demo Supplier's to ask about.
    expect((await call('GET', `/api/drafts/partners/${supplierPartner}/delivery-points`, user)).statusCode).toBe(404);
    expect((await call('GET', `/api/drafts/partners/${partner.id}/delivery-points`, clerk)).statusCode).toBe(403);
  });
});

describe('each outbox permission is needed for its step', () => {
  it('create makes and saves one’s own draft; another’s draft needs modify; send needs send', async () => {
    // Demo Supplier's clerk (inbox read only) gets outbox read and create through its group.
    const groups = (await call('GET', '/api/groups?search=Inbox', user)).json().items as { id: string; name: string }[];
    const group = groups[0]!;
    const set = await call('PUT', `/api/groups/${group.id}`, user, {
      name: group.name,
      permissions: ['INBOX_READ', 'OUTBOX_READ', 'OUTBOX_CREATE'],
    });
    expect(set.statusCode, set.body).toBe(200);
    const token = (await login(t.app, CLERK)).access_token;
    const partner = (await call('GET', '/api/drafts/kinds', user)).json().kinds[0].partners[0].id as string;

    const own = (await call('POST', '/api/drafts', token, { kind: 'invoice', partnerId: partner })).json();
    const form = { ...own.form, number: 'FV/CLERK/1', lines: [line(WATER, '1', { price: '1.29', vatRate: '8' })] };
    const saved = await call('PUT', `/api/drafts/${own.id}`, token, { version: 1, partnerId: partner, form });
    expect(saved.statusCode, saved.body).toBe(200);
    // Checking is reading; sending is not the clerk's.
    expect((await call('POST', `/api/drafts/${own.id}/check`, token)).json().ok).toBe(true);
    expect((await call('POST', `/api/drafts/${own.id}/send`, token, { version: 2 })).statusCode).toBe(403);

    // A draft of the administrator's: the clerk may read it, not change or delete it.
    const theirs = (await call('POST', '/api/drafts', user, { kind: 'invoice', partnerId: partner })).json();
    const change = await call('PUT', `/api/drafts/${theirs.id}`, token, {
      version: 1,
      partnerId: partner,
      form: theirs.form,
    });
    expect(change.statusCode).toBe(403);
    expect((await call('DELETE', `/api/drafts/${theirs.id}`, token)).statusCode).toBe(403);
    expect((await call('GET', `/api/drafts/${theirs.id}`, token)).statusCode).toBe(200);

    // With send, the clerk's own invoice goes out.
    await call('PUT', `/api/groups/${group.id}`, user, {
      name: group.name,
      permissions: ['INBOX_READ', 'OUTBOX_READ', 'OUTBOX_CREATE', 'OUTBOX_SEND'],
    });
    const sent = await call('POST', `/api/drafts/${own.id}/send`, token, { version: 2 });
    expect(sent.statusCode, sent.body).toBe(200);
  });
});
