import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
/** The demo companies' GLNs (issue 10 seeds them): Demo Supplier, Demo Retailer and one of its delivery points. */
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';
const STORE_BERLIN = '4012345000023';
/** A GLN no company on the platform holds. */
const OUTSIDER = '8712345678906';
/** Files above this are queued for the job instead of being read while the upload waits. */
const INLINE_MAX = 1500;

type Order = { number: string; date?: string; delivery?: string; dp?: string; broken?: boolean; orderRef?: string };

/** A small EANCOM D96A order written for these tests; `broken` leaves out the mandatory BGM. */
function order(ref: number, o: Order, buyer: string, supplier: string): string[] {
  const body = [
    ...(o.broken ? [] : [`BGM+220+${o.number}+9'`]),
    `DTM+137:${o.date ?? '20261116'}:102'`,
    ...(o.delivery ? [`DTM+2:${o.delivery}:102'`] : []),
    ...(o.orderRef ? [`RFF+ON:${o.orderRef}'`] : []),
    `NAD+BY+${buyer}::9'`,
    `NAD+SU+${supplier}::9'`,
    ...(o.dp ? [`NAD+DP+${o.dp}::9'`] : []),
    "LIN+1++4000862141404:EN'",
    "QTY+21:48'",
    "UNS+S'",
  ];
  return [`UNH+${ref}+ORDERS:D:96A:UN:EAN008'`, ...body, `UNT+${body.length + 2}+${ref}'`];
}

/** An interchange of orders from `sender` to `recipient` (the buyer sends, the supplier receives). */
function interchange(
  control: string,
  orders: Order[],
  opts: { sender?: string; recipient?: string; test?: boolean } = {},
): string {
  const sender = opts.sender ?? RETAILER;
  const recipient = opts.recipient ?? SUPPLIER;
  const unb = `UNB+UNOC:3+${sender}:14+${recipient}:14+261116:1000+${control}${opts.test ? '++++++1' : ''}'`;
  const messages = orders.flatMap((o, i) => order(i + 1, o, sender, recipient));
  return ["UNA:+.? '", unb, ...messages, `UNZ+${orders.length}+${control}'`].join('\n');
}

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: bearer(token) } : {}),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

/** A multipart body with one `file` part per file, as a browser sends it. */
async function upload(direction: string, token: string, files: { name: string; content: string | Uint8Array }[]) {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([f.content], { type: 'application/edifact' }), f.name);
  const request = new Request('http://x', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: `/api/documents/upload?direction=${direction}`,
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(token) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

type Item = {
  id: string;
  documentNumber: string | null;
  status: string;
  partnerName: string | null;
  partnerId: string | null;
};
const list = async (token: string, query: string) => {
  const res = await call('GET', `/api/documents?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Item[]; nextCursor: string | null; total?: number };
};
const numbers = async (token: string, query: string) => (await list(token, query)).items.map((i) => i.documentNumber);

beforeAll(async () => {
  t = await createTestApp({
    env: {
      EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A,
      DOCUMENTS_INLINE_MAX_BYTES: String(INLINE_MAX),
    },
  });
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
});
afterAll(() => t.close());

describe('upload into the outbox and routing on the platform', () => {
  const file = interchange('R0001', [{ number: 'PO-1001', delivery: '20261120', dp: STORE_BERLIN }]);
  let outId = '';
  let inId = '';

  it('stores the buyer’s order as Sent and answers per file', async () => {
    const res = await upload('out', buyer, [{ name: 'order.edi', content: file }]);
    expect(res.statusCode, res.body).toBe(200);
    const [result] = res.json().files;
    expect(result).toMatchObject({ fileName: 'order.edi', duplicate: false, queued: false });
    // One segment a line is allowed, and said.
    expect(result.findings).toEqual([
      expect.objectContaining({ code: 'EDI_WHITESPACE_BETWEEN_SEGMENTS', severity: 'warning', line: 1 }),
    ]);
    expect(result.documents).toEqual([
      {
        id: expect.any(String),
        direction: 'out',
        documentType: 'ORDERS',
        documentNumber: 'PO-1001',
        status: 'sent',
        partnerName: 'Demo Supplier',
      },
    ]);
    outId = result.documents[0].id;
    const outbox = await list(buyer, 'direction=out');
    expect(outbox.items.map((i) => i.id)).toEqual([outId]);
  });

  it('delivers an inbox copy to the supplier, Received, with the list’s columns', async () => {
    const inbox = await list(user, 'direction=in');
    expect(inbox.items).toHaveLength(1);
    expect(inbox.items[0]).toMatchObject({
      documentNumber: 'PO-1001',
      documentKind: 'order',
      documentType: 'ORDERS',
      status: 'received',
      processingStatus: 'OK',
      partnerName: 'Demo Retailer',
      // The partners service made the supplier's partner for the retailer's GLN.
      partnerId: expect.any(String),
      partnerGln: RETAILER,
      deliveryPointGln: STORE_BERLIN,
      expectedDeliveryDate: '2026-11-20',
      businessDate: '2026-11-16',
      messageType: 'ORDERS',
      messageCategory: 'EAN008',
      version: 'D96A',
      standard: 'edifact',
      test: false,
    });
    inId = inbox.items[0]!.id;
    expect(inId).not.toBe(outId);
  });

  it('marks the inbox copy Read the first time a user of the supplier opens it, with a history row', async () => {
    const res = await call('GET', `/api/documents/${inId}`, user);
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json();
    expect(doc.status).toBe('read');
    expect(doc.body.lines[0]).toMatchObject({ gtin: '4000862141404' });
    expect(doc.history.map((h: { from: string | null; to: string }) => [h.from, h.to])).toEqual([
      [null, 'received'],
      ['received', 'read'],
    ]);
    expect(doc.history[1].userId).toEqual(expect.any(String));
    // The sender's copy is another company's: not named here.
    expect(doc.links).toEqual([]);
    const again = (await call('GET', `/api/documents/${inId}`, user)).json();
    expect(again.history).toHaveLength(2);
    // The sender's outbox copy stays Sent.
    expect((await call('GET', `/api/documents/${outId}`, buyer)).json().status).toBe('sent');
  });

  it('links a later document to the one its reference number names, both ways in the detail', async () => {
    const res = await upload('in', user, [
      { name: 'change.edi', content: interchange('R9001', [{ number: 'PO-1001-C', orderRef: 'PO-1001' }]) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const changeId = res.json().files[0].documents[0].id;
    const change = (await call('GET', `/api/documents/${changeId}`, user)).json();
    expect(change.documentReferenceNumber).toBe('PO-1001');
    expect(change.links).toEqual([{ documentId: inId, kind: 'reference', side: 'from' }]);
    const original = (await call('GET', `/api/documents/${inId}`, user)).json();
    // Besides the chain, the CONTRL the supplier answered the order's interchange with names it (decision 0035).
    expect(original.links.filter((l: { kind: string }) => l.kind !== 'acknowledgement')).toEqual([
      { documentId: changeId, kind: 'reference', side: 'to' },
    ]);
  });

  it('gives back the original bytes exactly as uploaded', async () => {
    const res = await call('GET', `/api/documents/${inId}/original`, user);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(file);
    // Named by the user's naming format (the default: DocType_PartnerName_DocNumber).
    expect(res.headers['content-disposition']).toContain("UTF-8''ORDERS_Demo-Retailer_PO-1001.edi");
  });

  it('answers 404 for another company’s document, its original included', async () => {
    expect((await call('GET', `/api/documents/${inId}`, buyer)).statusCode).toBe(404);
    expect((await call('GET', `/api/documents/${inId}/original`, buyer)).statusCode).toBe(404);
    expect((await call('GET', `/api/documents/${outId}`, user)).statusCode).toBe(404);
    expect((await call('GET', `/api/documents/00000000-0000-4000-8000-000000000000`, user)).statusCode).toBe(404);
  });

  it('treats the same interchange again as a duplicate: nothing new, the first upload’s documents', async () => {
    const res = await upload('out', buyer, [{ name: 'again.edi', content: file }]);
    expect(res.statusCode, res.body).toBe(200);
    const [result] = res.json().files;
    expect(result).toMatchObject({ duplicate: true, documents: [{ id: outId, status: 'sent' }] });
    expect((await list(buyer, 'direction=out&includeTotal=true')).total).toBe(1);
    expect((await list(user, 'direction=in&includeTotal=true')).total).toBe(2);
  });

  it('stores the same order number again from another interchange, with a duplicate warning', async () => {
    const res = await upload('out', buyer, [
      { name: 'resent.edi', content: interchange('R0001B', [{ number: 'PO-1001', dp: STORE_BERLIN }]) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [result] = res.json().files;
    expect(result.duplicate).toBe(false);
    expect(result.documents).toMatchObject([{ documentNumber: 'PO-1001', status: 'sent' }]);
    expect(result.findings).toContainEqual(
      expect.objectContaining({ code: 'duplicate_document', severity: 'warning', params: { documentId: outId } }),
    );
  });

  it('leaves an order to a company off the platform waiting for a transport', async () => {
    const res = await upload('out', buyer, [
      { name: 'outside.edi', content: interchange('R0002', [{ number: 'PO-OUT' }], { recipient: OUTSIDER }) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().files[0].documents).toMatchObject([{ documentNumber: 'PO-OUT', status: 'waiting' }]);
    const [row] = (await list(buyer, 'direction=out&documentNumber=PO-OUT')).items;
    expect(row).toMatchObject({ processingStatus: 'PENDING', partnerGln: OUTSIDER, partnerId: expect.any(String) });
    // The unknown GLN became a partner of the buyer's, named by its GLN until someone names it.
    const partners = (await call('GET', '/api/partners?search=' + OUTSIDER, buyer)).json();
    expect(partners.items).toEqual([expect.objectContaining({ id: row!.partnerId, gln: OUTSIDER })]);
  });
});

describe('a message with errors among good ones', () => {
  it('stores the broken one as Error with its findings, the others go on and are delivered', async () => {
    const before = (await list(user, 'direction=in&includeTotal=true')).total!;
    const res = await upload('out', buyer, [
      {
        name: 'three.edi',
        content: interchange('R0003', [
          { number: 'PO-2001' },
          { number: 'PO-2002', broken: true },
          { number: 'PO-2003' },
        ]),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [result] = res.json().files;
    expect(result.documents.map((d: Item) => d.status)).toEqual(['sent', 'error', 'sent']);
    expect(result.findings.length).toBeGreaterThan(0);
    expect(result.findings.every((f: { severity: string }) => ['error', 'warning', 'info'].includes(f.severity))).toBe(
      true,
    );
    const broken = result.documents[1];
    const detail = (await call('GET', `/api/documents/${broken.id}`, buyer)).json();
    expect(detail.findings.some((f: { severity: string }) => f.severity === 'error')).toBe(true);
    expect(detail.history[0]).toMatchObject({ from: null, to: 'error', reason: 'validation' });
    // Only the two good ones reach the supplier.
    expect((await list(user, 'direction=in&includeTotal=true')).total).toBe(before + 2);
  });

  it('gives a message of a longer interchange its own bytes, UNH to UNT', async () => {
    const [first] = (await list(user, 'direction=in&documentNumber=PO-2001')).items;
    const res = await call('GET', `/api/documents/${first!.id}/original`, user);
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('UNH+1+ORDERS')).toBe(true);
    expect(res.body.trimEnd().endsWith("UNT+9+1'")).toBe(true);
  });
});

describe('refused uploads', () => {
  it('refuses an outbox file whose UNB sender is not one of the company’s GLNs, storing nothing', async () => {
    const res = await upload('out', buyer, [
      {
        name: 'forged.edi',
        content: interchange('F0001', [{ number: 'X-1' }], { sender: SUPPLIER, recipient: RETAILER }),
      },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'documents.sender_not_own',
      details: [{ field: 'files.0', code: 'senderNotOwn' }],
    });
    expect(await numbers(buyer, 'direction=out&documentNumber=X-')).toEqual([]);
  });

  it('refuses a file that is not an interchange', async () => {
    const res = await upload('in', user, [{ name: 'notes.txt', content: 'hello, not EDIFACT' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('documents.not_interchange');
  });

  it('refuses a bad direction with the field, and no file at all', async () => {
    const bad = await upload('sideways', user, [{ name: 'a.edi', content: interchange('B1', [{ number: 'B' }]) }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([expect.objectContaining({ field: 'direction' })]);
    const none = await upload('in', user, []);
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details).toEqual([expect.objectContaining({ field: 'file', code: 'required' })]);
  });

  it('refuses a file over 20 MB with 413 and the code', async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 1).fill(0x41);
    const res = await upload('in', user, [{ name: 'big.edi', content: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({
      code: 'request.too_large',
      details: [{ field: 'file', code: 'fileTooLarge' }],
    });
  });

  it('needs the permission of the direction: the inbox-only clerk may neither send nor read the outbox', async () => {
    const out = await upload('out', clerk, [
      { name: 'a.edi', content: interchange('C1', [{ number: 'C' }], { sender: SUPPLIER, recipient: RETAILER }) },
    ]);
    expect(out.statusCode).toBe(403);
    const into = await upload('in', clerk, [{ name: 'a.edi', content: interchange('C2', [{ number: 'C' }]) }]);
    expect(into.statusCode).toBe(403);
    expect((await call('GET', '/api/documents?direction=out', clerk)).statusCode).toBe(403);
    expect((await list(clerk, 'direction=in')).items.length).toBeGreaterThan(0);
  });
});

describe('the inbox list: filters, sort and keyset pages', () => {
  beforeAll(async () => {
    // Received outside the platform and uploaded into the supplier's inbox.
    const res = await upload('in', user, [
      {
        name: 'in-1.edi',
        content: interchange('IN0001', [
          { number: 'AB-100', date: '20261101', delivery: '20261105', dp: STORE_BERLIN },
          { number: 'AB-200', date: '20261102', delivery: '20261106' },
          { number: 'AC-300', date: '20261103', delivery: '20261107', dp: STORE_BERLIN },
        ]),
      },
      { name: 'in-test.edi', content: interchange('IN0002', [{ number: 'TEST-1', date: '20261104' }], { test: true }) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('filters by number prefix, delivery point, document date, mode, kind and status', async () => {
    expect(await numbers(user, 'direction=in&documentNumber=AB-&sort=number&order=asc')).toEqual(['AB-100', 'AB-200']);
    expect(
      await numbers(user, `direction=in&deliveryPointGln=${STORE_BERLIN}&documentNumber=A&sort=number&order=asc`),
    ).toEqual(['AB-100', 'AC-300']);
    expect(
      await numbers(user, 'direction=in&documentDateFrom=2026-11-02&documentDateTo=2026-11-03&sort=number&order=asc'),
    ).toEqual(['AB-200', 'AC-300']);
    expect(
      await numbers(
        user,
        'direction=in&expectedDeliveryDateFrom=2026-11-07&expectedDeliveryDateTo=2026-11-30&documentNumber=A',
      ),
    ).toEqual(['AC-300']);
    expect(await numbers(user, 'direction=in&mode=test')).toEqual(['TEST-1']);
    expect(await numbers(user, 'direction=in&businessTypeIds=invoice')).toEqual([]);
    expect((await list(user, 'direction=in&businessTypeIds=order,invoice&includeTotal=true')).total).toBeGreaterThan(4);
    expect(await numbers(user, `direction=in&documentStatus=read&sort=number&order=asc`)).toEqual([
      'PO-1001',
      'PO-1001-C',
    ]);
    expect(await numbers(user, `direction=in&partnerIds=${OUTSIDER}`)).toEqual([]);
    expect((await list(user, `direction=in&partnerIds=${RETAILER}&includeTotal=true`)).total).toBeGreaterThan(4);
  });

  it('sorts on a column and pages with the cursor, each row once', async () => {
    const seen: string[] = [];
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(user, `direction=in&sort=number&order=desc&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i) => i.documentNumber!));
      ids.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...seen].sort().reverse());
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.length).toBe((await list(user, 'direction=in&includeTotal=true')).total);
  });

  it('pages by the default sort (newest first) too', async () => {
    const first = await list(user, 'direction=in&limit=3');
    const second = await list(user, `direction=in&limit=3&cursor=${first.nextCursor}`);
    const ids = [...first.items, ...second.items].map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses a forged cursor, a cursor of another sort and bad filters with the field', async () => {
    const forged = await call('GET', '/api/documents?direction=in&cursor=bm9wZQ', user);
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
    const byNumber = await list(user, 'direction=in&sort=number&limit=1');
    const mixed = await call(
      'GET',
      `/api/documents?direction=in&sort=status&limit=1&cursor=${byNumber.nextCursor}`,
      user,
    );
    expect(mixed.statusCode).toBe(400);
    const bad = await call('GET', '/api/documents?direction=in&documentDateFrom=2026-02-30&documentStatus=lost', user);
    expect(bad.statusCode).toBe(400);
    const fields = (bad.json().error.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['documentDateFrom', 'documentStatus.0']);
    expect((await call('GET', '/api/documents', user)).statusCode).toBe(400);
  });
});

describe('restrictions narrow the list and the detail', () => {
  it('hides from the clerk what a restriction on a delivery point leaves out, detail included (404)', async () => {
    const all = await list(clerk, 'direction=in&documentNumber=A&sort=number&order=asc');
    expect(all.items.map((i) => i.documentNumber)).toEqual(['AB-100', 'AB-200', 'AC-300']);
    const users = (await call('GET', '/api/company-users', user)).json().items as { id: string; email: string }[];
    const clerkId = users.find((u) => u.email === CLERK.login)!.id;
    const res = await call('POST', '/api/restrictions', user, {
      name: 'Berlin only',
      description: '',
      partners: [],
      deliveryPointGlns: [STORE_BERLIN],
      documentTypes: [],
      directions: [],
      assignees: { userIds: [clerkId], groupIds: [] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await numbers(clerk, 'direction=in&documentNumber=A&sort=number&order=asc')).toEqual(['AB-100', 'AC-300']);
    const hidden = all.items.find((i) => i.documentNumber === 'AB-200')!;
    expect((await call('GET', `/api/documents/${hidden.id}`, clerk)).statusCode).toBe(404);
    expect((await call('GET', `/api/documents/${hidden.id}/original`, clerk)).statusCode).toBe(404);
    // The supplier's administrator is not restricted.
    expect((await call('GET', `/api/documents/${hidden.id}`, user)).statusCode).toBe(200);
  });
});

describe('the ingest job', () => {
  it('ingests a file above the inline size after the upload, and a second run creates nothing twice', async () => {
    const orders = Array.from({ length: 12 }, (_, i) => ({ number: `Q-${100 + i}`, dp: STORE_BERLIN }));
    const content = interchange('Q0001', orders);
    expect(content.length).toBeGreaterThan(INLINE_MAX);
    const res = await upload('out', buyer, [{ name: 'queued.edi', content }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().files[0]).toMatchObject({ queued: true, duplicate: false, documents: [] });
    await t.jobs.drain({ timeoutMs: 60_000 });
    expect((await list(buyer, 'direction=out&documentNumber=Q-&includeTotal=true')).total).toBe(12);
    expect((await list(user, 'direction=in&documentNumber=Q-&includeTotal=true')).total).toBe(12);
    // The safety-net jobs of the files read inline, made due now: they find their interchanges read already.
    await t.database.db.execute(
      sql`UPDATE pgboss.job SET start_after = now() WHERE name = 'documents.ingest' AND state = 'created'`,
    );
    await t.jobs.drain({ timeoutMs: 60_000 });
    expect((await list(buyer, 'direction=out&documentNumber=Q-&includeTotal=true')).total).toBe(12);
    expect((await list(user, 'direction=in&documentNumber=PO-10&includeTotal=true')).total).toBe(3);
    const duplicate = await upload('out', buyer, [{ name: 'queued-again.edi', content }]);
    expect(duplicate.json().files[0]).toMatchObject({ duplicate: true, queued: false });
    expect(duplicate.json().files[0].documents).toHaveLength(12);
  });
});

describe('partner notifications (issue 10) as documents arrive or fail', () => {
  const mails = async (to: string) => {
    const result = (await t.database.db.execute(
      sql`select subject, text_body from outbound_emails where to_address = ${to} order by created_at`,
    )) as unknown as { rows: { subject: string; text_body: string }[] };
    return result.rows;
  };
  const partnerId = async (token: string, gln: string) => {
    const res = await call('GET', `/api/partners?search=${gln}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const found = (res.json().items as { id: string; gln: string }[]).find((p) => p.gln === gln);
    if (found) return found.id;
    const created = await call('POST', '/api/partners', token, { gln });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  };

  it('e-mails the receiver’s recipients of a received document, and the sender’s of one that failed', async () => {
    const atSupplier = await partnerId(user, RETAILER);
    const atRetailer = await partnerId(buyer, SUPPLIER);
    const set = (token: string, id: string, email: string, language: string, events: string[]) =>
      call('PUT', `/api/partners/${id}/notifications`, token, { notifications: [{ email, language, events }] });
    expect((await set(user, atSupplier, 'orders@supplier.test', 'de', ['received'])).statusCode).toBe(200);
    expect((await set(buyer, atRetailer, 'edi@retailer.test', 'en', ['failed'])).statusCode).toBe(200);

    const res = await upload('out', buyer, [
      {
        name: 'notify.edi',
        content: interchange('N0001', [{ number: 'PO-N-1' }, { number: 'PO-N-2', broken: true }]),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);

    // The supplier hears of the order it received (in German), not of the broken one, which never reached it.
    const received = await mails('orders@supplier.test');
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe('Neues Dokument von Demo Retailer');
    expect(received[0]!.text_body).toContain('PO-N-1');
    // The buyer hears of its order that failed, with the reason.
    const failed = await mails('edi@retailer.test');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text_body).toContain('Document: ORDERS');
    expect(failed[0]!.text_body).toMatch(/Reason: EDI_MANDATORY_SEGMENT_MISSING \(BGM, line \d+\)/);
  });
});
