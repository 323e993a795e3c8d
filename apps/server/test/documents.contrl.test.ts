/**
 * A CONTRL for every interchange a company receives (issue 12, part 4; decision 0035): Demo Retailer sends an order to
 * Demo Supplier through its outbox; the supplier's inbox has the order, and the platform answers with a CONTRL from
 * the supplier (action 7), stored in the supplier's outbox and routed to the retailer's inbox, linked to the order,
 * whose outbox copy shows `acknowledged`. An interchange with a syntax error is answered with action 4 and the
 * sender's document shows `rejected`. A CONTRL is never answered.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acknowledge } from '../src/features/documents/documents.contrl.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';

let t: TestApp;
let user: string;
let buyer: string;

const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

/** An order of Demo Retailer to Demo Supplier, as one interchange; `broken` puts a syntax error in its UNT count. */
const order = (control: string, number: string, broken = false) =>
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
    `UNT+${broken ? 7 : 9}+1'`,
    `UNZ+1+${control}'`,
  ].join('');

async function upload(token: string, direction: 'in' | 'out', name: string, content: string) {
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
}

type Row = { id: string; documentNumber: string | null; documentKind: string; documentReferenceNumber: string | null };
type Detail = {
  acknowledgement: string | null;
  body: {
    acknowledgement?: { interchangeReference?: string; action?: string; messages: { action?: string }[] };
  };
  history: { field: string; from: string | null; to: string | null; reason: string | null }[];
  links: { documentId: string; kind: string; side: string }[];
};

async function rows(token: string, direction: 'in' | 'out'): Promise<Row[]> {
  const res = await get(`/api/documents?direction=${direction}&limit=100`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Row[];
}
const detail = async (token: string, id: string): Promise<Detail> => {
  const res = await get(`/api/documents/${id}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Detail;
};
/** The CONTRLs of a list answering an interchange (their reference is its control reference). */
const contrls = async (token: string, direction: 'in' | 'out', control: string) =>
  (await rows(token, direction)).filter(
    (r) => r.documentKind === 'syntax_report' && r.documentReferenceNumber === control,
  );

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_SHIPPED_DIRECTORIES: 'true' } });
  user = (await login(t.app)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
}, 120_000);
afterAll(() => t?.close());

describe('an order sent through the outbox', () => {
  it('is answered with a CONTRL 7 that reaches the sender, linked to its order, which shows acknowledged', async () => {
    await upload(buyer, 'out', 'CTL0001.edi', order('CTL0001', 'CTL-1'));
    const received = (await rows(user, 'in')).find((r) => r.documentNumber === 'CTL-1');
    expect(received).toBeDefined();
    const sent = (await rows(buyer, 'out')).find((r) => r.documentNumber === 'CTL-1')!;
    expect((await detail(buyer, sent.id)).acknowledgement).toBeNull();

    await t.jobs.drain();

    // The supplier's outbox holds the CONTRL, linked to its inbox order; the retailer's inbox has its copy.
    const [out] = await contrls(user, 'out', 'CTL0001');
    expect(out).toBeDefined();
    const outDetail = await detail(user, out!.id);
    expect(outDetail.links).toContainEqual({ documentId: received!.id, kind: 'acknowledgement', side: 'from' });
    const inbox = await contrls(buyer, 'in', 'CTL0001');
    expect(inbox).toHaveLength(1);
    const contrl = await detail(buyer, inbox[0]!.id);
    expect(contrl.body.acknowledgement).toMatchObject({ interchangeReference: 'CTL0001', action: '7' });
    expect(contrl.links).toContainEqual({ documentId: sent.id, kind: 'acknowledgement', side: 'from' });

    const order1 = await detail(buyer, sent.id);
    expect(order1.acknowledgement).toBe('acknowledged');
    expect(order1.history.filter((h) => h.field === 'acknowledgement')).toEqual([
      expect.objectContaining({ from: null, to: 'acknowledged', reason: 'contrl' }),
    ]);
    expect(order1.links).toContainEqual({ documentId: inbox[0]!.id, kind: 'acknowledgement', side: 'to' });

    // Once: another drain writes nothing more.
    await t.jobs.drain();
    expect(await contrls(buyer, 'in', 'CTL0001')).toHaveLength(1);
  });

  it('with a syntax error is answered with a CONTRL 4, and the sender sees its order rejected', async () => {
    await upload(buyer, 'out', 'CTL0002.edi', order('CTL0002', 'CTL-2', true));
    await t.jobs.drain();
    const inbox = await contrls(buyer, 'in', 'CTL0002');
    expect(inbox).toHaveLength(1);
    const contrl = await detail(buyer, inbox[0]!.id);
    // The envelope was read (UCI 7); the message is rejected (UCM 4, the UNT count in error).
    expect(contrl.body.acknowledgement).toMatchObject({
      interchangeReference: 'CTL0002',
      messages: [expect.objectContaining({ reference: '1', action: '4' })],
    });
    const sent = (await rows(buyer, 'out')).find((r) => r.documentNumber === 'CTL-2')!;
    const sentDetail = await detail(buyer, sent.id);
    expect(sentDetail.acknowledgement).toBe('rejected');
    expect(sentDetail.history.filter((h) => h.field === 'acknowledgement')).toEqual([
      expect.objectContaining({ to: 'rejected' }),
    ]);
  });
});

describe('a CONTRL of a large interchange', () => {
  it('acknowledges every one of its 10,001 messages (more rows than one statement can bind)', async () => {
    await upload(buyer, 'out', 'CTL0003.edi', order('CTL0003', 'CTL-3'));
    await t.jobs.drain();
    const sent = (await rows(buyer, 'out')).find((r) => r.documentNumber === 'CTL-3')!;
    const [contrl] = await contrls(buyer, 'in', 'CTL0003');
    expect((await detail(buyer, sent.id)).acknowledgement).toBe('acknowledged');
    // 10,000 more messages of the same interchange in the sender's outbox, straight into the table: 10,000 history
    // rows of 7 values are more parameters than PostgreSQL counts (65,535).
    await t.database.db.execute(sql`
      insert into documents (id, company_id, direction, interchange_id, message_index, kind, document_type, number,
        message_type, standard, version, status, body, payload_offset, payload_length)
      select gen_random_uuid(), company_id, direction, interchange_id, 1000 + n, kind, document_type,
        'CTL-3-' || n, message_type, standard, version, status, body, payload_offset, payload_length
      from documents, generate_series(1, 10000) as n
      where id = ${sent.id}`);
    const companyId = (
      (await t.database.db.execute(sql`select company_id from documents where id = ${sent.id}`)) as unknown as {
        rows: { company_id: string }[];
      }
    ).rows[0]!.company_id;

    // The CONTRL's acknowledgement as its ingest applies it, once more, now over 10,001 messages.
    const received = {
      id: contrl!.id,
      companyId,
      unbRecipient: RETAILER,
      body: { acknowledgement: { interchangeReference: 'CTL0003', action: '7', messages: [] } },
    } as unknown as Parameters<typeof acknowledge>[0][number];
    await t.database.db.transaction((tx) => acknowledge([received], new Date(), tx));

    // One history entry each, the first message's not repeated: the history is where the detail reads it from.
    const counted = (await t.database.db.execute(sql`
      with sent as (select id from documents where number like 'CTL-3%' and direction = 'out')
      select (select count(*) from sent)::int as n,
        (select count(*) from document_status_history h join sent on sent.id = h.document_id
          where h.field = 'acknowledgement' and h.to_value = 'acknowledged')::int as history,
        (select count(distinct l.to_id) from document_links l join sent on sent.id = l.to_id
          where l.kind = 'acknowledgement')::int as links`)) as unknown as {
      rows: { n: number; history: number; links: number }[];
    };
    expect(counted.rows[0]).toEqual({ n: 10_001, history: 10_001, links: 10_001 });
  }, 120_000);
});

describe('a CONTRL', () => {
  it('is never answered', async () => {
    await upload(buyer, 'out', 'CTL0003.edi', order('CTL0003', 'CTL-3'));
    await t.jobs.drain();
    await t.jobs.drain();
    // One CONTRL each way at most: the supplier's answer reached the retailer, and nothing answered it back.
    const answer = (await contrls(buyer, 'in', 'CTL0003'))[0]!;
    expect(answer).toBeDefined();
    const supplierInbox = (await rows(user, 'in')).filter((r) => r.documentKind === 'syntax_report');
    expect(supplierInbox).toEqual([]);

    // An inbox upload of a CONTRL is not answered either (nothing in the uploader's outbox).
    const before = (await rows(user, 'out')).filter((r) => r.documentKind === 'syntax_report').length;
    const text = [
      "UNA:+.? '",
      `UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+CTL0004'`,
      "UNH+1+CONTRL:D:3:UN'",
      `UCI+X1+${SUPPLIER}:14+${RETAILER}:14+7'`,
      "UNT+3+1'",
      "UNZ+1+CTL0004'",
    ].join('');
    await upload(user, 'in', 'CTL0004.edi', text);
    await t.jobs.drain();
    expect((await rows(user, 'out')).filter((r) => r.documentKind === 'syntax_report')).toHaveLength(before);
  });

  it('answers an inbox upload (a partner off the platform) from the GLN it was addressed to', async () => {
    const before = (await rows(user, 'out')).filter((r) => r.documentKind === 'syntax_report').length;
    const text = order('CTL0005', 'CTL-5').replaceAll(RETAILER, '4000000000009');
    await upload(user, 'in', 'CTL0005.edi', text);
    await t.jobs.drain();
    const out = (await rows(user, 'out')).filter((r) => r.documentKind === 'syntax_report');
    expect(out).toHaveLength(before + 1);
    expect(await contrls(user, 'out', 'CTL0005')).toHaveLength(1);
  });
});
