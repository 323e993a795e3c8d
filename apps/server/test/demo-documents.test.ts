import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { REFRESH_TOKEN_IDLE_SECONDS } from '@portal/contracts';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, recentWarnings, type TestApp } from './helper.ts';

/** Demo documents (issue 11, part 5; decision 0027): one set per demo login, seen by that session, gone with it. */

const DEMO = { login: 'demo@demo.example.com', password: 'Demo#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const USER = { login: 'user@demo.example.com', password: 'User#Demo2026' };

type Item = { id: string; documentNumber: string | null; status: string; documentType: string; partnerName: string };
type Session = { access_token: string; refresh_token: string };

let t: TestApp;

const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
async function list(token: string, direction: 'in' | 'out'): Promise<Item[]> {
  const res = await get(`/api/documents?direction=${direction}&limit=100`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Item[] }).items;
}
const numbersOf = (items: Item[]) => items.map((i) => i.documentNumber).sort();
const logout = (s: Session) =>
  t.app.inject({ method: 'POST', url: '/api/users/logout', payload: { refreshToken: s.refresh_token } });
const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

/** The rows of a query (the database's own answer, whatever the driver). */
const rowsOf = async <R>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: R[] }).rows;

/** Rows a session left behind. */
async function leftOf(sessionId: string) {
  const one = async (query: ReturnType<typeof sql>) => Number((await rowsOf<{ n: number | string }>(query))[0]!.n);
  return {
    documents: await one(sql`select count(*) as n from documents where session_id = ${sessionId}`),
    interchanges: await one(sql`select count(*) as n from interchanges where session_id = ${sessionId}`),
  };
}
async function blobCount(keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await rowsOf<{ n: number | string }>(
    sql`select count(*) as n from blobs where key in (${sql.join(
      keys.map((k) => sql`${k}`),
      sql`, `,
    )})`,
  );
  return Number(rows[0]!.n);
}
async function payloadKeys(sessionId: string): Promise<string[]> {
  const rows = await rowsOf<{ payload_key: string }>(
    sql`select payload_key from interchanges where session_id = ${sessionId}`,
  );
  return rows.map((r) => r.payload_key);
}

/** The demo jobs' states and last outputs, for a failure's message: why a set is missing. */
async function demoJobs(): Promise<string> {
  const rows = await rowsOf<{ name: string; state: string; retry_count: number; output: unknown }>(
    sql`select name, state, retry_count, output from pgboss.job where name like 'documents.%' order by created_on`,
  );
  return JSON.stringify({ warnings: recentWarnings(t), jobs: rows });
}

/**
 * Waits for a session's set: its job runs at the login's commit, and a run that failed for a passing reason (a
 * deadlock, a busy CPU pool) is retried by the workers seconds later, which `drain()` (due jobs only) does not wait for.
 */
async function setOf(sessionId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await t.jobs.drain({ timeoutMs: 60_000 });
    const { documents } = await leftOf(sessionId);
    if (documents >= 9 || Date.now() > deadline) {
      expect(documents, `the set of ${sessionId}; jobs: ${await demoJobs()}`).toBe(9);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

let a: Session;
let b: Session;

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A } });
  a = await login(t.app, DEMO);
  b = await login(t.app, DEMO);
  // The sets are made by a job enqueued in each login's transaction.
  await setOf(sessionOf(a.access_token));
  await setOf(sessionOf(b.access_token));
}, 180_000);
afterAll(() => t.close());

describe('a demo login', () => {
  it('gets a set of its own: orders received, despatch advice and invoices sent, one with errors', async () => {
    const inbox = await list(a.access_token, 'in');
    const outbox = await list(a.access_token, 'out');
    expect(inbox.map((i) => i.documentType).sort()).toEqual(['ORDERS', 'ORDERS', 'ORDERS', 'ORDERS']);
    expect(inbox.filter((i) => i.status === 'error')).toHaveLength(1);
    expect(inbox.filter((i) => i.status === 'received')).toHaveLength(3);
    expect(outbox.map((i) => i.documentType).sort()).toEqual(['DESADV', 'DESADV', 'INVOIC', 'INVOIC', 'ORDRSP']);
    // To Demo Retailer, a company on the platform: Sent, with its name.
    expect(outbox.every((i) => i.status === 'sent' && i.partnerName === 'Demo Retailer')).toBe(true);
    expect(inbox.map((i) => i.partnerName)).toEqual(expect.arrayContaining(['Demo Retailer', 'Sample Market']));
  });

  it('links the order, its response, despatch advice and invoice (reference), as the ingest does', async () => {
    const inbox = await list(a.access_token, 'in');
    const outbox = await list(a.access_token, 'out');
    const order = inbox.find((i) => /^PO-\d+-1$/.test(i.documentNumber ?? ''))!;
    const suffix = order.documentNumber!.slice(3);
    const res = await get(`/api/documents/${order.id}`, a.access_token);
    expect(res.statusCode).toBe(200);
    const links = (res.json() as { links: { documentId: string; kind: string; side: string }[] }).links;
    const linked = links.filter((l) => l.kind === 'reference' && l.side === 'to').map((l) => l.documentId);
    const chain = ['RSP', 'DES', 'INV'].map((p) => outbox.find((i) => i.documentNumber === `${p}-${suffix}`)!.id);
    expect(linked.sort()).toEqual(chain.sort());
  });

  it('is seen by its session only: two demo sessions at once see different documents', async () => {
    const mineA = [...(await list(a.access_token, 'in')), ...(await list(a.access_token, 'out'))];
    const mineB = [...(await list(b.access_token, 'in')), ...(await list(b.access_token, 'out'))];
    expect(mineA).toHaveLength(9);
    expect(mineB).toHaveLength(9);
    const numbersA = new Set(numbersOf(mineA));
    expect(numbersOf(mineB).some((n) => numbersA.has(n))).toBe(false);
    // Another session's id is not found, its original neither.
    expect((await get(`/api/documents/${mineB[0]!.id}`, a.access_token)).statusCode).toBe(404);
    expect((await get(`/api/documents/${mineB[0]!.id}/original`, a.access_token)).statusCode).toBe(404);
    const total = await get('/api/documents?direction=in&includeTotal=true', a.access_token);
    expect(total.json().total).toBe(4);
  });

  it('delivers nothing to the other companies’ inboxes', async () => {
    const buyer = await login(t.app, BUYER);
    expect(await list(buyer.access_token, 'in')).toEqual([]);
    const user = await login(t.app, USER);
    expect(await list(user.access_token, 'in')).toEqual([]);
  });

  it('leaves a user of another role unaffected: a document uploaded by a user is seen in every session', async () => {
    const buyer = await login(t.app, BUYER);
    const file = [
      "UNA:+.? '",
      "UNB+UNOC:3+4012345000016:14+5901234000017:14+261116:1000+NONDEMO1'",
      "UNH+1+ORDERS:D:96A:UN:EAN008'",
      "BGM+220+PO-REAL-1+9'",
      "DTM+137:20261116:102'",
      "NAD+BY+4012345000016::9'",
      "NAD+SU+5901234000017::9'",
      "LIN+1++4000862141404:EN'",
      "QTY+21:48'",
      "UNS+S'",
      "UNT+9+1'",
      "UNZ+1+NONDEMO1'",
    ].join('');
    const form = new FormData();
    form.append('file', new Blob([file]), 'order.edi');
    const request = new Request('http://x', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/documents/upload?direction=out',
      headers: { 'content-type': request.headers.get('content-type')!, ...bearer(buyer.access_token) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode, res.body).toBe(200);
    const first = await login(t.app, USER);
    const second = await login(t.app, USER);
    expect(numbersOf(await list(first.access_token, 'in'))).toEqual(['PO-REAL-1']);
    expect(numbersOf(await list(second.access_token, 'in'))).toEqual(['PO-REAL-1']);
    await logout(first);
    await t.jobs.drain();
    expect(numbersOf(await list(second.access_token, 'in'))).toEqual(['PO-REAL-1']);
    expect(numbersOf(await list(buyer.access_token, 'out'))).toEqual(['PO-REAL-1']);
  });
});

describe('the end of a demo session', () => {
  it('logout removes its documents, interchanges and blobs; the other session keeps its own', async () => {
    const sid = sessionOf(a.access_token);
    const keys = await payloadKeys(sid);
    expect(keys).toHaveLength(3);
    expect(await blobCount(keys)).toBe(3);
    const before = numbersOf([...(await list(b.access_token, 'in')), ...(await list(b.access_token, 'out'))]);

    expect((await logout(a)).statusCode).toBe(200);
    await t.jobs.drain();
    expect(await leftOf(sid)).toEqual({ documents: 0, interchanges: 0 });
    expect(await blobCount(keys)).toBe(0);
    const after = numbersOf([...(await list(b.access_token, 'in')), ...(await list(b.access_token, 'out'))]);
    expect(after).toEqual(before);
  });

  it('the periodic sweep removes the set of a session that expired without a logout', async () => {
    const c = await login(t.app, DEMO);
    const sidB = sessionOf(b.access_token);
    const sidC = sessionOf(c.access_token);
    await setOf(sidC);
    const keys = await payloadKeys(sidB);

    // B keeps refreshing; C is left idle until its refresh token expires.
    t.clock.advance(REFRESH_TOKEN_IDLE_SECONDS - 60);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: b.refresh_token },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    t.clock.advance(120);
    await t.jobs.enqueue(t.database.db, 'documents.demo.sweep', {});
    await t.jobs.drain();

    expect(await leftOf(sidC)).toEqual({ documents: 0, interchanges: 0 });
    expect((await leftOf(sidB)).documents, `B's set after the sweep; jobs: ${await demoJobs()}`).toBe(9);
    expect(await blobCount(keys)).toBe(3);
  }, 90_000);
});
