/**
 * The receiver's answer to a received document (issue 12, part 4): Demo Supplier accepts or rejects (with a reason)
 * an order Demo Retailer sent; the portal sends an APERAK back through the outbox, which lands in Demo Retailer's
 * inbox and gives its outbox order the business status (confirmed, or anomaly reported with the reason in its
 * history). One answer per document; the reason required for a rejection; another company's id 404; INBOX_MODIFY.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';

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

/** An order of Demo Retailer to Demo Supplier, as one interchange. */
const order = (control: string, number: string) =>
  [
    "UNA:+.? '",
    `UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+${control}'`,
    "UNH+1+ORDERS:D:96A:UN:EAN008'",
    `BGM+220+${number}+9'`,
    "DTM+137:20261116:102'",
    `NAD+BY+${RETAILER}::9'`,
    `NAD+SU+${SUPPLIER}::9'`,
    "LIN+1++4000862141404:EN'",
    "QTY+21:48'",
    "UNS+S'",
    "UNT+9+1'",
    `UNZ+1+${control}'`,
  ].join('');

async function upload(token: string, name: string, content: string) {
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
}

type Row = { id: string; documentNumber: string; documentKind: string; status: string; businessStatus: string | null };
type History = { field: string; from: string | null; to: string | null; reason: string | null }[];

/** The list rows of a company's inbox or outbox (without opening them). */
async function rows(token: string, direction: 'in' | 'out'): Promise<Row[]> {
  const res = await call('GET', `/api/documents?direction=${direction}&limit=100`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Row[];
}
const byNumber = async (token: string, direction: 'in' | 'out', number: string) =>
  (await rows(token, direction)).find((r) => r.documentNumber === number)!;
const historyOf = async (token: string, id: string) =>
  (await call('GET', `/api/documents/${id}`, token)).json().history as History;

/** Demo Retailer sends an order; answers Demo Supplier's inbox copy's id and the retailer's outbox order's id. */
async function sendOrder(control: string, number: string) {
  await upload(buyer, `${control}.edi`, order(control, number));
  return { received: (await byNumber(user, 'in', number)).id, sent: (await byNumber(buyer, 'out', number)).id };
}

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_SHIPPED_DIRECTORIES: 'true' } });
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
}, 120_000);
afterAll(() => t?.close());

describe('a rejection', () => {
  it('sends an APERAK to the buyer, whose order reports the anomaly with the reason', async () => {
    const { received, sent } = await sendOrder('RSP0001', 'RSP-1');
    expect((await byNumber(buyer, 'out', 'RSP-1')).businessStatus).toBe('new_order');
    const reason = 'Artikel 4000862141404 nicht mehr lieferbar; bitte neu bestellen (Größe: 0,5 l).';
    const res = await call('POST', `/api/documents/${received}/response`, user, { decision: 'reject', reason });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ decision: 'reject', responseDocumentId: expect.any(String) });

    // The supplier's outbox holds the APERAK, sent; the retailer's inbox has it.
    const aperak = (await rows(buyer, 'in')).find((r) => r.documentKind === 'application_error');
    expect(aperak).toMatchObject({ status: 'received' });
    const body = (await call('GET', `/api/documents/${aperak!.id}`, buyer)).json().body;
    expect(body).toMatchObject({
      header: { documentNameCode: '305', functionCode: '27' },
      references: [{ qualifier: 'ON', value: 'RSP-1' }],
      parties: [
        { role: 'MS', gln: SUPPLIER },
        { role: 'MR', gln: RETAILER },
      ],
      errors: [{ code: 'REJECTED', text: reason }],
    });

    expect((await byNumber(buyer, 'out', 'RSP-1')).businessStatus).toBe('anomaly_reported');
    expect((await historyOf(buyer, sent)).filter((h) => h.field === 'businessStatus')).toEqual([
      expect.objectContaining({ from: 'new_order', to: 'anomaly_reported', reason }),
    ]);
    // The receiver's history records the answer with its reason.
    expect((await historyOf(user, received)).filter((h) => h.field === 'response')).toEqual([
      expect.objectContaining({ from: null, to: 'rejected', reason }),
    ]);
  });

  it('needs a reason, of at most 350 characters', async () => {
    const { received } = await sendOrder('RSP0002', 'RSP-2');
    for (const payload of [{ decision: 'reject' }, { decision: 'reject', reason: '  ' }]) {
      const res = await call('POST', `/api/documents/${received}/response`, user, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain('reason');
    }
    // Demo Retailer reads UNOC (ISO 8859-1): a Polish letter would reach it mangled, so it is refused.
    const polish = await call('POST', `/api/documents/${received}/response`, user, {
      decision: 'reject',
      reason: 'Artykuł wycofany z oferty',
    });
    expect(polish.statusCode).toBe(400);
    expect(polish.json().error.details).toEqual([
      expect.objectContaining({ field: 'reason', code: 'notInCharset', params: { character: 'ł', syntax: 'UNOC' } }),
    ]);
    const long = await call('POST', `/api/documents/${received}/response`, user, {
      decision: 'reject',
      reason: 'x'.repeat(351),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details).toEqual([expect.objectContaining({ field: 'reason', code: 'tooLong' })]);
  });
});

describe('an acceptance', () => {
  it('confirms the buyer’s order; a second answer is 409', async () => {
    const { received, sent } = await sendOrder('RSP0003', 'RSP-3');
    const res = await call('POST', `/api/documents/${received}/response`, user, { decision: 'accept' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await byNumber(buyer, 'out', 'RSP-3')).businessStatus).toBe('confirmed');
    expect((await historyOf(buyer, sent)).filter((h) => h.field === 'businessStatus')).toEqual([
      expect.objectContaining({ from: 'new_order', to: 'confirmed', reason: 'linked_document' }),
    ]);
    // The first order's status is its own: RSP-1 still reports its anomaly.
    expect((await byNumber(buyer, 'out', 'RSP-1')).businessStatus).toBe('anomaly_reported');

    for (const payload of [{ decision: 'accept' }, { decision: 'reject', reason: 'Zmiana decyzji' }]) {
      const again = await call('POST', `/api/documents/${received}/response`, user, payload);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('documents.already_answered');
    }
    const aperaks = (await rows(user, 'out')).filter((r) => r.documentKind === 'application_error');
    expect(aperaks).toHaveLength(2);
  });
});

describe('who may answer what', () => {
  it('another company’s document is 404, an outbox document 400', async () => {
    const { sent } = await sendOrder('RSP0004', 'RSP-4');
    const foreign = await call('POST', `/api/documents/${sent}/response`, user, { decision: 'accept' });
    expect(foreign.statusCode).toBe(404);
    const missing = await call('POST', '/api/documents/00000000-0000-4000-8000-000000000000/response', user, {
      decision: 'accept',
    });
    expect(missing.statusCode).toBe(404);
    const own = await call('POST', `/api/documents/${sent}/response`, buyer, { decision: 'accept' });
    expect(own.statusCode).toBe(400);
    expect(own.json().error.code).toBe('documents.status_not_applicable');
  });

  it('a user without INBOX_MODIFY is 403', async () => {
    const { received } = await sendOrder('RSP0005', 'RSP-5');
    const res = await call('POST', `/api/documents/${received}/response`, clerk, { decision: 'accept' });
    expect(res.statusCode).toBe(403);
  });
});
