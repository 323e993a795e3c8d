/**
 * Issue 13 (decision 0041): the toggle DEMO_KSEF_SIEMENS reaches the demo-ksef company. An administrator switches it
 * on for Demo KSeF; the next login of its demo-ksef user puts the presentation set (an invoice of 40 lines, a
 * correction and an advance invoice) in the company's outbox once, as ordinary documents (no session's), and each
 * goes to the KSeF simulator and is accepted. Further logins add nothing; without the toggle there is none; a role demo
 * login keeps its per-session set and makes no company set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { CanonicalDocument } from '@portal/documents';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { isValidKsefNumber, parseFa3 } from '@portal/ksef';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const KSEF = { login: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };
const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const DEMO = { login: 'demo@demo.example.com', password: 'Demo#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };

type Item = { id: string; documentNumber: string | null; status: string; documentType: string; documentKind: string };
type Submission = { state: string; ksefNumber: string | null; errorDetails: string[]; hasUpo: boolean } | null;

let t: TestApp;
let admin: string;

const get = (url: string, token: string) => t.app.inject({ url, headers: bearer(token) });
async function list(token: string, direction: 'in' | 'out'): Promise<Item[]> {
  const res = await get(`/api/documents?direction=${direction}&limit=100`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Item[] }).items;
}
const presentation = (items: Item[]) => items.filter((i) => /^(FV|KOR|ZAL)-\d+-S1$/.test(i.documentNumber ?? ''));
const prefix = (i: Item) => i.documentNumber!.split('-')[0]!;
const rowsOf = async <R>(query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: R[] }).rows;
const count = async (query: ReturnType<typeof sql>) => Number((await rowsOf<{ n: number | string }>(query))[0]!.n);

async function companyId(name: string): Promise<string> {
  const res = await get(`/api/admin/companies?search=${encodeURIComponent(name)}&limit=10`, admin);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { id: string; name: string }[] }).items.find((c) => c.name === name)!.id;
}
async function setToggles(id: string, toggles: string[]) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/admin/companies/${id}/toggles`,
    headers: bearer(admin),
    payload: { toggles },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const submission = async (token: string, id: string): Promise<Submission> =>
  (await get(`/api/documents/${id}/ksef`, token)).json() as Submission;
/** Runs the due jobs until every submission is final: a job worker polling beside the test may hold one meanwhile. */
async function settled(token: string, ids: string[]) {
  for (let i = 0; i < 100; i++) {
    await t.jobs.drain({ timeoutMs: 60_000 });
    const states = await Promise.all(ids.map(async (id) => (await submission(token, id))?.state));
    if (states.every((s) => s !== 'queued' && s !== 'sending')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  t = await createTestApp({
    env: { KSEF_SIMULATOR_DELAY_MS: '0', EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A },
  });
  admin = (await login(t.app, ADMIN)).access_token;
}, 120_000);
afterAll(() => t.close());

describe('the presentation set of the demo-ksef company (DEMO_KSEF_SIEMENS)', () => {
  let ksefCo: string;
  let first: { access_token: string; refresh_token: string };
  let set: Item[];

  beforeAll(async () => {
    ksefCo = await companyId('Demo KSeF');
  });

  it('is not made without the toggle', async () => {
    const token = (await login(t.app, KSEF)).access_token;
    await t.jobs.drain({ timeoutMs: 60_000 });
    expect(presentation(await list(token, 'out'))).toEqual([]);
    expect(await count(sql`select count(*) as n from interchanges where company_id = ${ksefCo}`)).toBe(0);
  });

  it("is put in the company's outbox at the next login once the administrator sets the toggle", async () => {
    await setToggles(ksefCo, ['KSEF', 'DEMO_KSEF', 'DEMO_KSEF_SIEMENS']);
    first = await login(t.app, KSEF);
    await t.jobs.drain({ timeoutMs: 60_000 });
    set = presentation(await list(first.access_token, 'out'));
    expect(set.map(prefix).sort()).toEqual(['FV', 'KOR', 'ZAL']);
    expect(set.every((i) => i.documentType === 'INVOIC' && i.status !== 'error')).toBe(true);
    expect(Object.fromEntries(set.map((i) => [prefix(i), i.documentKind]))).toEqual({
      FV: 'invoice',
      KOR: 'credit_note',
      ZAL: 'invoice',
    });
    const fv = set.find((i) => prefix(i) === 'FV')!;
    const body = (await get(`/api/documents/${fv.id}`, first.access_token)).json().body as CanonicalDocument;
    expect(body.lines).toHaveLength(40);
    // Ordinary documents of the company, not of the login's session.
    expect(
      await count(
        sql`select count(*) as n from documents where company_id = ${ksefCo} and direction = 'out' and session_id is null`,
      ),
    ).toBe(3);
  });

  it('goes to the KSeF simulator, where each of the three is accepted with a KSeF number and a UPO', async () => {
    const ids = set.map((i) => i.id);
    await settled(first.access_token, ids);
    for (const item of set) {
      const done = await submission(first.access_token, item.id);
      expect(done, `${item.documentNumber} ${JSON.stringify(done)}`).toMatchObject({
        state: 'accepted',
        hasUpo: true,
        errorDetails: [],
      });
      expect(isValidKsefNumber(done!.ksefNumber!)).toBe(true);
      expect(done!.ksefNumber!.startsWith('7010002139-')).toBe(true);
    }
    // The KOR, sent with the invoice it corrects, cites that invoice's KSeF number (decision 0038).
    const fv = set.find((i) => prefix(i) === 'FV')!;
    const kor = set.find((i) => prefix(i) === 'KOR')!;
    const [sent] = await rowsOf<{ plain_xml: string }>(
      sql`select plain_xml from ksef_sim_invoices where invoice_number = ${kor.documentNumber} and accepted`,
    );
    expect(parseFa3(sent!.plain_xml).correction?.corrected).toEqual([
      expect.objectContaining({
        number: fv.documentNumber,
        ksefNumber: (await submission(first.access_token, fv.id))!.ksefNumber,
      }),
    ]);
  });

  it('stays after a logout, and further logins or a second run of the job add nothing', async () => {
    const simulated = await count(sql`select count(*) as n from ksef_sim_invoices`);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      payload: { refreshToken: first.refresh_token },
    });
    expect(logout.statusCode).toBeLessThan(300);
    await login(t.app, KSEF);
    await t.jobs.drain({ timeoutMs: 60_000 });
    const again = await login(t.app, KSEF);
    await t.jobs.drain({ timeoutMs: 60_000 });
    // The job run again (as after the queue forgot its key): the upload is a duplicate interchange.
    const userId = (await rowsOf<{ id: string }>(sql`select id from users where email = ${KSEF.login}`))[0]!.id;
    await t.jobs.enqueue(t.database.db, 'documents.demo.presentation', { companyId: ksefCo, userId });
    await t.jobs.drain({ timeoutMs: 60_000 });

    const items = presentation(await list(again.access_token, 'out'));
    expect(items.map((i) => i.id).sort()).toEqual(set.map((i) => i.id).sort());
    expect(await count(sql`select count(*) as n from interchanges where company_id = ${ksefCo}`)).toBe(1);
    expect(await count(sql`select count(*) as n from ksef_sim_invoices`)).toBe(simulated);
  });

  it('reaches Demo Retailer, its addressee on the platform, as any invoice to it does', async () => {
    const buyer = (await login(t.app, BUYER)).access_token;
    const inbox = presentation(await list(buyer, 'in'));
    expect(inbox.map((i) => i.documentNumber).sort()).toEqual(set.map((i) => i.documentNumber).sort());
  });

  it('is not made for a role demo login of a company with the toggle: that session gets its own set, as before', async () => {
    const sandbox = await companyId('Demo Sandbox');
    await setToggles(sandbox, ['DEMO_KSEF_SIEMENS']);
    const token = (await login(t.app, DEMO)).access_token;
    await t.jobs.drain({ timeoutMs: 60_000 });
    // The session's set is made by its job; on a loaded machine the list is read again until it is whole (60 s).
    let items = await list(token, 'out');
    for (const until = Date.now() + 60_000; items.length < 8 && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      items = await list(token, 'out');
    }
    // What became of the session's files, should its outbox be short.
    const files = await rowsOf(
      sql`select file_name, state, message_count, findings -> 0 ->> 'code' as finding from interchanges where session_id is not null`,
    );
    expect(items, JSON.stringify(files)).toHaveLength(8);
    expect(presentation(items)).toHaveLength(3);
    expect(
      await count(sql`select count(*) as n from documents where company_id = ${sandbox} and session_id is null`),
    ).toBe(0);
  }, 120_000);
});
