import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readZip, shippedDirectoryZips } from '@portal/edifact/node';
import { DOCUMENT_EXPORT_MAX_ROWS } from '@portal/contracts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
/** The demo companies' GLNs: Demo Supplier, Demo Retailer and one of its delivery points. */
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';
const STORE_BERLIN = '4012345000023';
const MISSING = '00000000-0000-4000-8000-000000000000';

type Message = {
  type: 'ORDERS' | 'ORDRSP' | 'DESADV' | 'INVOIC';
  number: string;
  ref?: string;
  fn?: string;
  dp?: string;
  /** The line's quantity (48 when not given): ordered (21), or invoiced (47) in an invoice. */
  qty?: string;
};

const DOC_CODE = { ORDERS: '220', ORDRSP: '231', DESADV: '351', INVOIC: '380' };

function message(index: number, m: Message, buyer: string, supplier: string): string[] {
  const body = [
    `BGM+${DOC_CODE[m.type]}+${m.number}+${m.fn ?? '9'}'`,
    "DTM+137:20261116:102'",
    ...(m.ref ? [`RFF+ON:${m.ref}'`] : []),
    `NAD+BY+${buyer}::9'`,
    `NAD+SU+${supplier}::9'`,
    ...(m.dp ? [`NAD+DP+${m.dp}::9'`] : []),
    "LIN+1++4000862141404:EN'",
    m.qty ? `QTY+${m.type === 'INVOIC' ? '47' : '21'}:${m.qty}'` : "QTY+21:48'",
    "UNS+S'",
  ];
  return [`UNH+${index}+${m.type}:D:96A:UN:EAN008'`, ...body, `UNT+${body.length + 2}+${index}'`];
}

/** An interchange from `sender` to `recipient`; the buyer is the retailer, the supplier Demo Supplier. */
function interchange(control: string, messages: Message[], sender = RETAILER, recipient = SUPPLIER): string {
  const unb = `UNB+UNOC:3+${sender}:14+${recipient}:14+261116:1000+${control}'`;
  const body = messages.flatMap((m, i) => message(i + 1, m, RETAILER, SUPPLIER));
  return ["UNA:+.? '", unb, ...body, `UNZ+${messages.length}+${control}'`].join('');
}

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

async function upload(direction: 'in' | 'out', token: string, name: string, content: string) {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'application/edifact' }), name);
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/documents/upload?direction=${direction}`,
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(token) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files[0] as { documents: { id: string; documentNumber: string }[] };
}

type Detail = {
  id: string;
  status: string;
  additionalStatus: string | null;
  businessStatus: string | null;
  history: { field: string; from: string | null; to: string | null; userId: string | null; reason: string | null }[];
};
/** The document as its company sees it, without opening it (the list row; the detail would mark it Read). */
async function row(token: string, direction: 'in' | 'out', number: string) {
  const res = await call('GET', `/api/documents?direction=${direction}&documentNumber=${number}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const items = (res.json().items as (Detail & { documentNumber: string })[]).filter(
    (i) => i.documentNumber === number,
  );
  expect(items).toHaveLength(1);
  return items[0]!;
}
const detail = async (token: string, id: string) => (await call('GET', `/api/documents/${id}`, token)).json() as Detail;

/** The supplier's inbox copies of the three orders, by number. */
const inbox: Record<string, string> = {};
const FILES = {
  one: interchange('ACT0001', [{ type: 'ORDERS', number: 'ACT-1', dp: STORE_BERLIN }]),
  two: interchange('ACT0002', [
    { type: 'ORDERS', number: 'ACT-2' },
    { type: 'ORDERS', number: 'ACT-3', dp: STORE_BERLIN },
  ]),
};
let userId = '';

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A } });
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
  await upload('out', buyer, 'one.edi', FILES.one);
  await upload('out', buyer, 'two.edi', FILES.two);
  for (const n of ['ACT-1', 'ACT-2', 'ACT-3']) inbox[n] = (await row(user, 'in', n)).id;
  userId = (await call('GET', '/api/users/getUserData', user)).json().id;
});
afterAll(() => t.close());

describe('status changes', () => {
  it('marks a received document read and unread, each change a history row with who and why', async () => {
    const id = inbox['ACT-1']!;
    let res = await call('POST', '/api/documents/status', user, { ids: [id], read: true, reason: 'checked' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ changed: [id] });
    expect((await row(user, 'in', 'ACT-1')).status).toBe('read');
    // Read again: nothing changes, no history row.
    res = await call('POST', '/api/documents/status', user, { ids: [id], read: true });
    expect(res.json()).toEqual({ changed: [] });
    res = await call('POST', '/api/documents/status', user, { ids: [id], read: false });
    expect(res.json()).toEqual({ changed: [id] });
    expect((await row(user, 'in', 'ACT-1')).status).toBe('received');
    const history = (await detail(user, id)).history.filter((h) => h.reason !== 'opened');
    expect(history).toEqual([
      expect.objectContaining({ field: 'status', from: null, to: 'received' }),
      { field: 'status', from: 'received', to: 'read', userId, at: expect.any(String), reason: 'checked' },
      { field: 'status', from: 'read', to: 'received', userId, at: expect.any(String), reason: null },
    ]);
  });

  it('sets and clears the additional status of several documents at once', async () => {
    const ids = [inbox['ACT-2']!, inbox['ACT-3']!];
    let res = await call('POST', '/api/documents/status', user, { ids, additionalStatus: 'completed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(new Set(res.json().changed)).toEqual(new Set(ids));
    expect((await row(user, 'in', 'ACT-2')).additionalStatus).toBe('completed');
    expect((await row(user, 'in', 'ACT-3')).additionalStatus).toBe('completed');
    // The same value again writes nothing; one of two already so changes only the other.
    res = await call('POST', '/api/documents/status', user, { ids, additionalStatus: 'completed' });
    expect(res.json()).toEqual({ changed: [] });
    res = await call('POST', '/api/documents/status', user, { ids: [ids[0]], additionalStatus: null });
    expect(res.json()).toEqual({ changed: [ids[0]] });
    const history = (await detail(user, ids[0]!)).history.filter((h) => h.field === 'additionalStatus');
    expect(history.map((h) => [h.from, h.to])).toEqual([
      [null, 'completed'],
      ['completed', null],
    ]);
    expect((await row(user, 'in', 'ACT-3')).additionalStatus).toBe('completed');
  });

  it('lets the outbox set the additional status, but not read or unread', async () => {
    const out = await row(buyer, 'out', 'ACT-1');
    let res = await call('POST', '/api/documents/status', buyer, { ids: [out.id], additionalStatus: 'printed' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await row(buyer, 'out', 'ACT-1')).additionalStatus).toBe('printed');
    // The other company's copy keeps its own.
    expect((await row(user, 'in', 'ACT-1')).additionalStatus).toBeNull();
    res = await call('POST', '/api/documents/status', buyer, { ids: [out.id], read: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'documents.status_not_applicable',
      details: [{ field: 'read', code: 'inboxOnly' }],
    });
  });

  it('refuses the clerk (inbox read only) with 403 before looking at the ids', async () => {
    for (const ids of [[inbox['ACT-2']], [MISSING]]) {
      const res = await call('POST', '/api/documents/status', clerk, { ids, additionalStatus: 'cancelled' });
      expect(res.statusCode).toBe(403);
    }
    expect((await row(user, 'in', 'ACT-2')).additionalStatus).toBeNull();
  });

  it('answers 404 for another company’s id or one that does not exist, and changes nothing of the rest', async () => {
    const foreign = (await row(buyer, 'out', 'ACT-2')).id;
    for (const stranger of [foreign, MISSING]) {
      const res = await call('POST', '/api/documents/status', user, {
        ids: [inbox['ACT-2'], stranger],
        additionalStatus: 'cancelled',
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('resource.not_found');
    }
    expect((await row(user, 'in', 'ACT-2')).additionalStatus).toBeNull();
    expect((await row(buyer, 'out', 'ACT-2')).additionalStatus).toBeNull();
  });

  it('refuses bad input with the field', async () => {
    const cases: [unknown, string][] = [
      [{ ids: [inbox['ACT-1']] }, 'additionalStatus'],
      [{ ids: [], read: true }, 'ids'],
      [{ ids: ['nope'], read: true }, 'ids.0'],
      [{ ids: [inbox['ACT-1']], additionalStatus: 'lost' }, 'additionalStatus'],
      [{ ids: [inbox['ACT-1']], read: 'yes' }, 'read'],
      [{ ids: Array.from({ length: 201 }, () => MISSING), read: true }, 'ids'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/api/documents/status', user, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe('business statuses', () => {
  it('derives the order’s business status from the documents that name it', async () => {
    // The supplier answers its inbox order: the response names it, and so do the despatch advice and invoice.
    await upload('out', buyer, 'bs1.edi', interchange('BS0001', [{ type: 'ORDERS', number: 'BS-1' }]));
    expect((await row(user, 'in', 'BS-1')).businessStatus).toBe('new_order');
    const respond = async (control: string, m: Message) =>
      upload('out', user, `${control}.edi`, interchange(control, [m], SUPPLIER, RETAILER));
    await respond('BS0002', { type: 'ORDRSP', number: 'RSP-1', ref: 'BS-1', fn: '29' });
    expect((await row(user, 'in', 'BS-1')).businessStatus).toBe('confirmed');
    await respond('BS0003', { type: 'DESADV', number: 'DES-1', ref: 'BS-1' });
    expect((await row(user, 'in', 'BS-1')).businessStatus).toBe('dispatched');
    // A late response does not move the order back.
    await respond('BS0004', { type: 'ORDRSP', number: 'RSP-2', ref: 'BS-1', fn: '27' });
    expect((await row(user, 'in', 'BS-1')).businessStatus).toBe('dispatched');
    await respond('BS0005', { type: 'INVOIC', number: 'INV-1', ref: 'BS-1' });
    expect((await row(user, 'in', 'BS-1')).businessStatus).toBe('invoiced');
    const history = (await detail(user, (await row(user, 'in', 'BS-1')).id)).history.filter(
      (h) => h.field === 'businessStatus',
    );
    expect(history.map((h) => [h.from, h.to, h.reason])).toEqual([
      ['new_order', 'confirmed', 'linked_document'],
      ['confirmed', 'dispatched', 'linked_document'],
      ['dispatched', 'invoiced', 'linked_document'],
    ]);
  });

  it('marks an order partly invoiced until its invoices cover every line', async () => {
    await upload('out', buyer, 'bs8.edi', interchange('BS0008', [{ type: 'ORDERS', number: 'BS-3' }]));
    const invoice = (control: string, number: string, qty: string) =>
      upload(
        'out',
        user,
        `${control}.edi`,
        interchange(control, [{ type: 'INVOIC', number, ref: 'BS-3', qty }], SUPPLIER, RETAILER),
      );
    // 20 of the 48 ordered: partly invoiced.
    await invoice('BS0009', 'INV-3A', '20');
    expect((await row(user, 'in', 'BS-3')).businessStatus).toBe('partly_invoiced');
    // The remaining 28 in a second invoice: invoiced.
    await invoice('BS0010', 'INV-3B', '28');
    expect((await row(user, 'in', 'BS-3')).businessStatus).toBe('invoiced');
    const history = (await detail(user, (await row(user, 'in', 'BS-3')).id)).history.filter(
      (h) => h.field === 'businessStatus',
    );
    expect(history.map((h) => [h.from, h.to])).toEqual([
      ['new_order', 'partly_invoiced'],
      ['partly_invoiced', 'invoiced'],
    ]);
  });

  it('marks an order rejected by its response', async () => {
    await upload('out', buyer, 'bs6.edi', interchange('BS0006', [{ type: 'ORDERS', number: 'BS-2' }]));
    await upload(
      'in',
      buyer,
      'bs7.edi',
      interchange('BS0007', [{ type: 'ORDRSP', number: 'RSP-3', ref: 'BS-2', fn: '27' }], SUPPLIER, RETAILER),
    );
    expect((await row(buyer, 'out', 'BS-2')).businessStatus).toBe('rejected');
  });
});

describe('the enrichment toggle', () => {
  /** A warehouse the supplier keeps in its address book, named by the buyer's orders only by its GLN. */
  const WAREHOUSE = '5901234990011';
  type Party = { role: string; gln?: string; name?: string; city?: string; taxId?: string };
  const partiesOf = async (token: string, id: string) =>
    ((await call('GET', `/api/documents/${id}`, token)).json() as { body: { parties: Party[] } }).body.parties;

  it('fills the parties given only by GLN from the address book, and marks the document Enriched', async () => {
    const admin = (await login(t.app, ADMIN)).access_token;
    const companies = (await call('GET', '/api/admin/companies?search=Demo%20Supplier', admin)).json();
    const supplier = companies.items.find((c: { name: string }) => c.name === 'Demo Supplier');
    const setToggles = (toggles: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/companies/${supplier.id}/toggles`,
        headers: bearer(admin),
        payload: { toggles },
      });
    const entry = await call('POST', '/api/address-book', user, {
      name: 'Magazyn Centralny',
      gln: WAREHOUSE,
      personType: 'J',
      taxId: '5261040828',
      street: 'ul. Portowa 12',
      postalCode: '80-001',
      city: 'Gdańsk',
      country: 'PL',
    });
    expect(entry.statusCode, entry.body).toBe(201);

    // Without the toggle nothing is filled in.
    await upload('out', buyer, 'en1.edi', interchange('EN0001', [{ type: 'ORDERS', number: 'EN-1', dp: WAREHOUSE }]));
    const plain = await row(user, 'in', 'EN-1');
    expect(plain.additionalStatus).toBeNull();
    expect((await partiesOf(user, plain.id)).find((p) => p.role === 'DP')).toEqual({ role: 'DP', gln: WAREHOUSE });

    const before = supplier.toggles as string[];
    expect((await setToggles([...before, 'ENRICHMENT'])).statusCode).toBe(200);
    try {
      await upload('out', buyer, 'en2.edi', interchange('EN0002', [{ type: 'ORDERS', number: 'EN-2', dp: WAREHOUSE }]));
      const enriched = await row(user, 'in', 'EN-2');
      expect(enriched.additionalStatus).toBe('enriched');
      const parties = await partiesOf(user, enriched.id);
      expect(parties.find((p) => p.role === 'DP')).toMatchObject({
        gln: WAREHOUSE,
        name: 'Magazyn Centralny',
        city: 'Gdańsk',
        taxId: '5261040828',
      });
      // The buyer, a partner of the supplier, gets its name from the partner list.
      expect(parties.find((p) => p.role === 'BY')?.name).toBe('Demo Retailer');
      const history = (await detail(user, enriched.id)).history.filter((h) => h.field === 'additionalStatus');
      expect(history.map((h) => [h.from, h.to, h.reason])).toEqual([[null, 'enriched', 'enriched']]);
      // The sender's own copy is left as it sent it.
      const sent = await row(buyer, 'out', 'EN-2');
      expect(sent.additionalStatus).toBeNull();
      expect((await partiesOf(buyer, sent.id)).find((p) => p.role === 'DP')?.name).toBeUndefined();
    } finally {
      await setToggles(before);
    }
  });
});

describe('the zip of originals', () => {
  const zip = (token: string, ids: unknown) => call('POST', '/api/documents/zip', token, { ids });

  it('holds each selected original byte for byte, under unique names', async () => {
    const res = await zip(user, [inbox['ACT-1'], inbox['ACT-2'], inbox['ACT-3']]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('documents.zip');
    const entries = readZip(res.rawPayload);
    const names = entries.map((e) => e.name);
    expect(new Set(names).size).toBe(3);
    const originals = await Promise.all(
      [inbox['ACT-1'], inbox['ACT-2'], inbox['ACT-3']].map(async (id) => {
        const one = await call('GET', `/api/documents/${id}/original`, user);
        const name = /filename\*?=(?:UTF-8'')?"?([^";]+)/.exec(one.headers['content-disposition'] as string)![1]!;
        return { name: decodeURIComponent(name), bytes: one.rawPayload };
      }),
    );
    for (const [i, entry] of entries.entries()) {
      expect(Buffer.from(entry.read()).equals(originals[i]!.bytes)).toBe(true);
      expect(entry.name.replace(/ \(\d+\)(?=\.)/, '')).toBe(originals[i]!.name);
    }
    // The whole one-message file for ACT-1; one message of the two-message file for ACT-2.
    expect(Buffer.from(entries[0]!.read()).toString()).toBe(FILES.one);
    expect(Buffer.from(entries[1]!.read()).toString()).toMatch(/^UNH\+1\+ORDERS.*UNT\+\d+\+1'$/);
  });

  it('names two originals of the same file name apart', async () => {
    const first = await upload('out', buyer, 'dup1.edi', interchange('DUP0001', [{ type: 'ORDERS', number: 'DUP-1' }]));
    const second = await upload(
      'out',
      buyer,
      'dup2.edi',
      interchange('DUP0002', [{ type: 'ORDERS', number: 'DUP-1' }]),
    );
    const res = await zip(buyer, [first.documents[0]!.id, second.documents[0]!.id]);
    expect(res.statusCode, res.body).toBe(200);
    const [a, b] = readZip(res.rawPayload);
    expect(b!.name).toBe(a!.name.replace(/\.edi$/, ' (2).edi'));
    expect(Buffer.from(b!.read()).toString()).toContain('DUP0002');
  });

  it('answers 404 for another company’s id and for a restricted one, and 400 over the limit', async () => {
    const foreign = (await row(buyer, 'out', 'ACT-2')).id;
    expect((await zip(user, [inbox['ACT-1'], foreign])).statusCode).toBe(404);
    expect((await zip(user, [MISSING])).statusCode).toBe(404);
    const tooMany = await zip(
      user,
      Array.from({ length: 201 }, () => MISSING),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.details[0].field).toBe('ids');
    // The clerk reads the inbox, and so may download it, but only what a restriction leaves.
    expect((await zip(clerk, [inbox['ACT-2']])).statusCode).toBe(200);
    await restrictClerkToBerlin();
    expect((await zip(clerk, [inbox['ACT-2']])).statusCode).toBe(404);
    expect((await zip(clerk, [inbox['ACT-1'], inbox['ACT-3']])).statusCode).toBe(200);
  });
});

let restricted = false;
async function restrictClerkToBerlin() {
  if (restricted) return;
  restricted = true;
  const users = (await call('GET', '/api/company-users', user)).json().items as { id: string; email: string }[];
  const res = await call('POST', '/api/restrictions', user, {
    name: 'Actions: Berlin only',
    description: '',
    partners: [],
    deliveryPointGlns: [STORE_BERLIN],
    documentTypes: [],
    directions: [],
    assignees: { userIds: [users.find((u) => u.email === CLERK.login)!.id], groupIds: [] },
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** The cells of an XLSX's first sheet, row by row (its strings are inline or shared). */
function xlsxRows(bytes: Buffer): string[][] {
  const files = new Map(readZip(bytes).map((e) => [e.name, Buffer.from(e.read()).toString('utf8')]));
  const shared = [...(files.get('xl/sharedStrings.xml') ?? '').matchAll(/<si>(.*?)<\/si>/gs)].map((m) =>
    m[1]!.replace(/<[^>]+>/g, ''),
  );
  const sheet = files.get('xl/worksheets/sheet1.xml')!;
  return [...sheet.matchAll(/<row[^>]*>(.*?)<\/row>/gs)].map((r) =>
    [...r[1]!.matchAll(/<c([^>]*)>(.*?)<\/c>/gs)].map(([, attrs, inner]) => {
      const text = inner!.replace(/<[^>]+>/g, '');
      return /t="s"/.test(attrs!) ? shared[Number(text)]! : text;
    }),
  );
}

describe('the export', () => {
  const exportOf = (token: string, query: string) => call('GET', `/api/documents/export?${query}`, token);

  it('writes the filtered list as CSV with a BOM, the columns in order, headers in the user’s language', async () => {
    const res = await exportOf(
      user,
      'format=csv&direction=in&documentNumber=ACT-&sort=number&order=asc&columns=DocumentNumber,Status,AdditionalStatus,DeliveryPointIln',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/inbox-\d{4}-\d{2}-\d{2}\.csv/);
    expect(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(res.body.slice(1).split('\r\n')).toEqual([
      'Document number,Status,Additional status,Delivery point GLN',
      // ACT-1 and ACT-2 were opened above (Read); ACT-3 was not.
      `ACT-1,Read,,${STORE_BERLIN}`,
      'ACT-2,Read,,',
      `ACT-3,Received,Completed,${STORE_BERLIN}`,
      '',
    ]);
  });

  it('writes the selection as XLSX, headers in the user’s language', async () => {
    // The buyer's language is set to German for this export.
    expect((await call('POST', '/api/users/setLanguage', buyer, { language: 'de' })).statusCode).toBeLessThan(300);
    const ids = [(await row(buyer, 'out', 'ACT-1')).id, (await row(buyer, 'out', 'ACT-3')).id].join(',');
    const res = await exportOf(
      buyer,
      `format=xlsx&direction=out&ids=${ids}&sort=number&order=desc&columns=DocumentNumber,AdditionalStatus`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsxRows(res.rawPayload)).toEqual([['Dokumentnummer', 'Zusatzstatus'], ['ACT-3'], ['ACT-1', 'Gedruckt']]);
  });

  it('guards CSV cells against spreadsheet formulas', async () => {
    await upload('in', user, 'formula.edi', interchange('FX0001', [{ type: 'ORDERS', number: '=SUM(1)' }]));
    const res = await exportOf(user, 'format=csv&direction=in&documentNumber=%3DSUM&columns=DocumentNumber');
    expect(res.body.slice(1).split('\r\n')[1]).toBe("'=SUM(1)");
  });

  it('refuses bad input, a selection with another company’s id, and the clerk’s restricted ids', async () => {
    const bad = [
      'format=pdf&direction=in&columns=DocumentNumber',
      'format=csv&direction=in',
      'format=csv&direction=in&columns=Nope',
    ];
    for (const query of bad) expect((await exportOf(user, query)).statusCode, query).toBe(400);
    const foreign = (await row(buyer, 'out', 'ACT-2')).id;
    expect(
      (await exportOf(user, `format=csv&direction=in&columns=DocumentNumber&ids=${inbox['ACT-1']},${foreign}`))
        .statusCode,
    ).toBe(404);
    await restrictClerkToBerlin();
    const clerkCsv = await exportOf(
      clerk,
      'format=csv&direction=in&columns=DocumentNumber&documentNumber=ACT-&sort=number&order=asc',
    );
    expect(clerkCsv.body.slice(1).split('\r\n')).toEqual(['Document number', 'ACT-1', 'ACT-3', '']);
    expect(
      (await exportOf(clerk, `format=csv&direction=in&columns=DocumentNumber&ids=${inbox['ACT-2']}`)).statusCode,
    ).toBe(404);
    // The clerk may not read the outbox at all.
    expect((await exportOf(clerk, 'format=csv&direction=out&columns=DocumentNumber')).statusCode).toBe(403);
  });

  it('refuses a filter matching more rows than one export holds, rather than cutting it short', async () => {
    // Copies of one inbox document, one more than an export holds, straight into the table.
    await t.database.db.execute(sql`
      insert into documents (id, company_id, direction, interchange_id, message_index, kind, document_type, number,
        message_type, standard, version, status, body, payload_offset, payload_length)
      select gen_random_uuid(), company_id, direction, interchange_id, 1000 + n, kind, document_type,
        'BULK-' || lpad(n::text, 5, '0'), message_type, standard, version, status, body, payload_offset, payload_length
      from documents, generate_series(1, ${DOCUMENT_EXPORT_MAX_ROWS + 1}) as n
      where id = ${inbox['ACT-2']}`);
    const query = 'format=csv&direction=in&documentNumber=BULK-&sort=number&order=asc&columns=DocumentNumber';
    let res = await exportOf(user, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'documents.export_too_large',
      details: [{ field: 'filters', code: 'exportTooLarge', params: { max: DOCUMENT_EXPORT_MAX_ROWS } }],
    });
    // At the limit, every row is there, read page by page in the list's order.
    await t.database.db.execute(sql`delete from documents where number = ${'BULK-10001'}`);
    res = await exportOf(user, query);
    expect(res.statusCode).toBe(200);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines).toHaveLength(DOCUMENT_EXPORT_MAX_ROWS + 2);
    expect(lines[1]).toBe('BULK-00001');
    expect(lines.at(-2)).toBe('BULK-10000');
    // The screen's language, when the request names one.
    res = await exportOf(
      user,
      'format=csv&direction=in&documentNumber=ACT-1&columns=DocumentNumber,Status&language=pl',
    );
    expect(res.body.slice(1).split('\r\n').slice(0, 2)).toEqual(['Numer dokumentu,Status', 'ACT-1,Przeczytany']);
  });
});
