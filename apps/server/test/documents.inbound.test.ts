import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { Readable } from 'node:stream';
import {
  INBOUND_FAILURES_PER_ADDRESS,
  INBOUND_FAILURE_WINDOW_SECONDS,
} from '../src/features/api-keys/api-keys.service.ts';
import { bearer, createTestApp, latestAudit, login, type TestApp } from './helper.ts';

const LIMIT = 3 * 1024 * 1024;
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
/** The demo companies' GLNs: Demo Supplier and Demo Retailer. */
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';
/** A GLN no company on the platform holds. */
const OUTSIDER = '8712345678906';

/** An interchange of one EANCOM D96A order from `sender` to `recipient`. */
function interchange(control: string, number: string, sender = RETAILER, recipient = SUPPLIER): string {
  const body = [
    `BGM+220+${number}+9'`,
    "DTM+137:20261116:102'",
    `NAD+BY+${sender}::9'`,
    `NAD+SU+${recipient}::9'`,
    "LIN+1++4000862141404:EN'",
    "QTY+21:48'",
    "UNS+S'",
  ];
  return [
    `UNB+UNOC:3+${sender}:14+${recipient}:14+261116:1000+${control}'`,
    "UNH+1+ORDERS:D:96A:UN:EAN008'",
    ...body,
    `UNT+${body.length + 2}+1'`,
    `UNZ+1+${control}'`,
  ].join('');
}

let t: TestApp;
let supplierUser: string;
let buyer: string;
let retailerKey: { id: string; secret: string };
let supplierKey: { id: string; secret: string };

type Headers = Record<string, string>;
const inbound = (payload: string | Buffer | Readable, headers: Headers, query = '', remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/documents/inbound${query}`,
    headers: { 'content-type': 'application/edifact', ...headers },
    payload,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const withKey = (secret: string): Headers => ({ 'x-api-key': secret });

const createKey = async (token: string, name: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/company/api-keys',
    headers: bearer(token),
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
};
const listDocs = async (token: string, direction: 'in' | 'out', number: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/documents?direction=${direction}&documentNumber=${number}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { id: string; documentNumber: string; status: string; partnerName: string | null }[];
};
const expectInvalid = (res: { statusCode: number; json(): { error: { code: string; message: string } } }) => {
  expect(res.statusCode).toBe(401);
  expect(res.json().error.code).toBe('api_keys.invalid');
};

beforeAll(async () => {
  // A 3 MiB limit instead of 100 MB, so that a body over it is quick to send; files over 2 MiB go to the job.
  t = await createTestApp({
    env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A, INBOUND_MAX_BYTES: String(LIMIT) },
  });
  supplierUser = (await login(t.app)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
  retailerKey = await createKey(buyer, 'Retailer ERP');
  supplierKey = await createKey(supplierUser, 'Supplier transport');
});
afterAll(() => t.close());

describe('POST /api/documents/inbound with a company API key', () => {
  it('sends an ERP’s interchange from the outbox and routes it to the other company’s inbox', async () => {
    const res = await inbound(interchange('K0001', 'PO-K1'), withKey(retailerKey.secret), '?fileName=erp-1.edi');
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json();
    expect(result).toMatchObject({ fileName: 'erp-1.edi', duplicate: false, queued: false, findings: [] });
    expect(result.documents).toEqual([
      expect.objectContaining({
        direction: 'out',
        documentNumber: 'PO-K1',
        status: 'sent',
        partnerName: 'Demo Supplier',
      }),
    ]);

    const [received] = await listDocs(supplierUser, 'in', 'PO-K1');
    expect(received).toMatchObject({ status: 'received', partnerName: 'Demo Retailer' });
    const [sent] = await listDocs(buyer, 'out', 'PO-K1');
    expect(sent!.id).toBe(result.documents[0].id);

    // The history says it came by API key, from no user; the interchange names the key.
    const detail = await t.app.inject({ method: 'GET', url: `/api/documents/${sent!.id}`, headers: bearer(buyer) });
    expect(detail.json().history[0]).toMatchObject({ to: 'sent', userId: null, reason: 'api_key' });
    const rows = (await t.database.db.execute(
      sql`select uploaded_by, api_key_id from interchanges where id = ${result.interchangeId}`,
    )) as unknown as { rows: unknown[] };
    expect(rows.rows).toEqual([{ uploaded_by: null, api_key_id: retailerKey.id }]);

    const keys = await t.app.inject({ method: 'GET', url: '/api/company/api-keys', headers: bearer(buyer) });
    const listed = keys.json().items.find((k: { id: string }) => k.id === retailerKey.id);
    expect(listed.lastUsedAt).toBe(t.clock.now().toISOString());
  });

  it('takes the key as a bearer token too, text/plain and octet-stream bodies, and answers a duplicate', async () => {
    const file = interchange('K0002', 'PO-K2');
    const first = await inbound(file, { authorization: `Bearer ${retailerKey.secret}`, 'content-type': 'text/plain' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().duplicate).toBe(false);
    const again = await inbound(Buffer.from(file), {
      ...withKey(retailerKey.secret),
      'content-type': 'application/octet-stream',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true, interchangeId: first.json().interchangeId });
  });

  it('delivers a received interchange into the key’s company’s inbox with direction=in', async () => {
    const res = await inbound(
      interchange('K0003', 'PO-K3', OUTSIDER, SUPPLIER),
      withKey(supplierKey.secret),
      '?direction=in',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().documents).toEqual([expect.objectContaining({ direction: 'in', status: 'received' })]);
    expect(await listDocs(supplierUser, 'in', 'PO-K3')).toHaveLength(1);
    expect(await listDocs(buyer, 'in', 'PO-K3')).toHaveLength(0);
  });

  it('refuses an outbox interchange whose UNB sender is not the key’s company’s (another company’s key)', async () => {
    // The supplier's key cannot send as the retailer.
    const res = await inbound(interchange('K0004', 'PO-K4'), withKey(supplierKey.secret));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'documents.sender_not_own',
      details: [{ field: 'body', code: 'senderNotOwn', params: { gln: RETAILER } }],
    });
    expect(await listDocs(buyer, 'out', 'PO-K4')).toHaveLength(0);
    expect(await listDocs(supplierUser, 'out', 'PO-K4')).toHaveLength(0);
  });

  it('answers 401 alike for a missing, malformed, unknown or revoked key, and for a session token', async () => {
    const file = interchange('K0005', 'PO-K5');
    expectInvalid(await inbound(file, {}));
    expectInvalid(await inbound(file, withKey('edi_short')));
    // The right prefix with a wrong secret, and a key no company holds.
    const last = retailerKey.secret.at(-1) === 'A' ? 'B' : 'A';
    expectInvalid(await inbound(file, withKey(retailerKey.secret.slice(0, -1) + last)));
    expectInvalid(await inbound(file, withKey(`edi_${'x'.repeat(43)}`)));
    expectInvalid(await inbound(file, bearer(buyer)));

    const doomed = await createKey(buyer, 'Soon revoked');
    expect((await inbound(interchange('K0006', 'PO-K6'), withKey(doomed.secret))).statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/company/api-keys/${doomed.id}`, headers: bearer(buyer) });
    const revoked = await inbound(file, withKey(doomed.secret));
    expectInvalid(revoked);
    expect(revoked.json().error.message).toBe((await inbound(file, {})).json().error.message);
    expect((await latestAudit(t.database.db, 'api_keys.auth_failed'))?.details).toEqual({ reason: 'missing' });
    expect(await listDocs(buyer, 'out', 'PO-K5')).toHaveLength(0);
    // A key is no session: it opens nothing else.
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/documents?direction=out',
      headers: bearer(retailerKey.secret),
    });
    expect(other.statusCode).toBe(401);
  });

  it('refuses a blocked company’s key as it refuses its users', async () => {
    const companyId = (
      (await t.database.db.execute(
        sql`select company_id from company_api_keys where id = ${retailerKey.id}`,
      )) as unknown as { rows: { company_id: string }[] }
    ).rows[0]!.company_id;
    await t.database.db.execute(sql`update companies set login_status = 'BLOCKED' where id = ${companyId}`);
    try {
      const res = await inbound(interchange('K0007', 'PO-K7'), withKey(retailerKey.secret));
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('auth.account_blocked');
    } finally {
      await t.database.db.execute(sql`update companies set login_status = 'OK' where id = ${companyId}`);
    }
    expect((await inbound(interchange('K0007', 'PO-K7'), withKey(retailerKey.secret))).statusCode).toBe(200);
  });

  it('refuses an empty body, another media type and a body over the limit (413), storing nothing', async () => {
    // The interchanges stored, once the jobs of what came before (the CONTRL answers of earlier uploads) are done.
    const stored = async () => {
      await t.jobs.drain();
      return (
        (await t.database.db.execute(sql`select count(*)::int as n from interchanges`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    };
    const before = await stored();
    const empty = await inbound('', withKey(retailerKey.secret));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details).toEqual([{ field: 'body', code: 'required' }]);

    const json = await inbound(JSON.stringify({ a: 1 }), {
      ...withKey(retailerKey.secret),
      'content-type': 'application/json',
    });
    expect(json.statusCode).toBe(415);

    const nul = await inbound(Buffer.from([0, 0, 0, 0x55, 0x4e, 0x42]), withKey(retailerKey.secret));
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.code).toBe('documents.not_interchange');
    expect(nul.json().error.details[0].field).toBe('body');

    // A declared length over the limit is refused before a byte is read; without a key, nothing at all is read.
    const declared = { 'content-length': String(LIMIT + 1) };
    expectInvalid(await inbound(Readable.from([]), declared));
    const res = await inbound(Readable.from([Buffer.from('UNA')]), { ...withKey(retailerKey.secret), ...declared });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('request.too_large');

    // Sent in chunks with no length: a good envelope, then more than the limit; cut off at the limit.
    const head = interchange('K0010', 'PO-K10').slice(0, 80);
    const filler = Buffer.alloc(1024 * 1024, 0x41);
    const chunked = await inbound(
      Readable.from(
        (function* () {
          yield Buffer.from(head);
          for (let i = 0; i <= LIMIT / filler.length; i++) yield filler;
        })(),
      ),
      withKey(retailerKey.secret),
    );
    expect(chunked.statusCode).toBe(413);
    expect(chunked.json().error.details).toEqual([{ field: 'body', code: 'fileTooLarge', params: { max: LIMIT } }]);
    expect(await stored()).toBe(before);

    const bad = await inbound(interchange('K0008', 'PO-K8'), withKey(retailerKey.secret), '?direction=sideways');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('direction');
  });

  it('takes a body in chunks as a stream, answers a large one queued, and the job reads it', async () => {
    // ~2.5 MB (over DOCUMENTS_INLINE_MAX_BYTES): orders of many lines, sent in chunks without a declared length.
    const lines = Array.from({ length: 200 }, (_, i) => `LIN+${i + 1}++4000862141404:EN'QTY+21:${i + 1}'`).join('');
    const message = (n: number) => {
      const segments = `BGM+220+BIG-${n}+9'DTM+137:20261116:102'NAD+BY+${RETAILER}::9'NAD+SU+${SUPPLIER}::9'${lines}UNS+S'`;
      return `UNH+${n}+ORDERS:D:96A:UN:EAN008'${segments}UNT+${segments.split("'").length + 1}+${n}'`;
    };
    const count = Math.ceil((2.5 * 1024 * 1024) / message(1).length);
    const res = await inbound(
      Readable.from(
        (function* () {
          yield Buffer.from(`UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+BIG1'`);
          for (let n = 1; n <= count; n++) yield Buffer.from(message(n));
          yield Buffer.from(`UNZ+${count}+BIG1'`);
        })(),
      ),
      withKey(retailerKey.secret),
      '?fileName=big.edi',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ fileName: 'big.edi', duplicate: false, queued: true, documents: [] });
    // The job worker reads it (due at once, as any file too large to be read while the request waits).
    const id = res.json().interchangeId as string;
    const state = async () =>
      (
        (await t.database.db.execute(sql`select state from interchanges where id = ${id}`)) as unknown as {
          rows: { state: string }[];
        }
      ).rows[0]!.state;
    for (let i = 0; i < 1200 && (await state()) === 'queued'; i++) await new Promise((r) => setTimeout(r, 100));
    const [last] = await listDocs(buyer, 'out', `BIG-${count}`);
    expect(last).toMatchObject({ documentNumber: `BIG-${count}`, status: 'sent' });
    const [received] = await listDocs(supplierUser, 'in', `BIG-${count}`);
    expect(received).toMatchObject({ status: 'received', partnerName: 'Demo Retailer' });
  }, 120_000);

  it(`makes an address wait after ${INBOUND_FAILURES_PER_ADDRESS} failed keys, whatever key it tries next`, async () => {
    const address = '203.0.113.77';
    const file = interchange('K0009', 'PO-K9');
    for (let i = 0; i < INBOUND_FAILURES_PER_ADDRESS; i++) {
      expectInvalid(await inbound(file, withKey(`edi_${String(i).padStart(43, 'q')}`), '', address));
    }
    const throttled = await inbound(file, withKey(retailerKey.secret), '', address);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().error.code).toBe('request.too_many_requests');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    // Other addresses are not affected, and the window passes.
    expect((await inbound(file, withKey(retailerKey.secret))).statusCode).toBe(200);
    t.clock.advance(INBOUND_FAILURE_WINDOW_SECONDS + 1);
    expect((await inbound(file, withKey(retailerKey.secret), '', address)).statusCode).toBe(200);
  });
});
