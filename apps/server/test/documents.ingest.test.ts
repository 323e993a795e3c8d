import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { IngestMoved } from '../src/features/documents/documents.ingest.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

/**
 * The batched ingest (decision 0024) with batches of 5 messages: a file of many batches stored once with its links
 * across batches, a failure in the middle of a file and the run after it, and files of several interchanges (UNB)
 * of which some were uploaded before.
 */
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';
const BATCH = 5;

type Message = { number: string; ref?: string };

/** An EANCOM D96A order from the retailer to the supplier; `ref`: an order change naming the order (RFF+ON). */
function message(i: number, m: Message): string[] {
  const body = [`BGM+220+${m.number}+9'`, "DTM+137:20261116:102'", ...(m.ref ? [`RFF+ON:${m.ref}'`] : [])];
  body.push(`NAD+BY+${RETAILER}::9'`, `NAD+SU+${SUPPLIER}::9'`, "LIN+1++4000862141404:EN'", "QTY+21:48'", "UNS+S'");
  return [`UNH+${i}+ORDERS:D:96A:UN:EAN008'`, ...body, `UNT+${body.length + 2}+${i}'`];
}

/** One interchange (UNA, UNB … UNZ) of the retailer to the supplier. */
function interchange(control: string, messages: Message[]): string {
  const unb = `UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+${control}'`;
  return [
    "UNA:+.? '",
    unb,
    ...messages.flatMap((m, i) => message(i + 1, m)),
    `UNZ+${messages.length}+${control}'`,
  ].join('\n');
}

const orders = (prefix: string, n: number): Message[] =>
  Array.from({ length: n }, (_, i) => ({ number: `${prefix}-${String(i).padStart(3, '0')}` }));

let t: TestApp;
let buyer: string;

async function upload(name: string, content: string) {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'application/edifact' }), name);
  const request = new Request('http://x', { method: 'POST', body: form });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/documents/upload?direction=out',
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(buyer) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().files[0] as {
    interchangeId: string;
    duplicate: boolean;
    queued: boolean;
    documents: { id: string; documentNumber: string; status: string }[];
    findings: { code: string; params?: Record<string, unknown> }[];
  };
}

type Row = { message_index: number; direction: string; number: string; company_id: string };
const rowsOf = async (interchangeId: string): Promise<Row[]> =>
  (
    (await t.database.db.execute(
      sql`select message_index, direction, number, company_id from documents where interchange_id = ${interchangeId} order by direction, message_index`,
    )) as unknown as { rows: Row[] }
  ).rows;

const interchangeRow = async (id: string) =>
  (
    (await t.database.db.execute(
      sql`select state, messages_done, message_count from interchanges where id = ${id}`,
    )) as unknown as { rows: { state: string; messages_done: number; message_count: number | null }[] }
  ).rows[0]!;

/** Every message 0..n-1 exactly once in each direction (the outbox copy and the routed inbox copy). */
function expectEachOnce(rows: Row[], n: number) {
  for (const direction of ['out', 'in']) {
    const indexes = rows.filter((r) => r.direction === direction).map((r) => r.message_index);
    expect(indexes).toEqual(Array.from({ length: n }, (_, i) => i));
  }
}

beforeAll(async () => {
  t = await createTestApp({
    env: {
      EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A,
      DOCUMENTS_INGEST_BATCH_MESSAGES: String(BATCH),
    },
  });
  buyer = (await login(t.app, BUYER)).access_token;
  // The directory's import takes its time on a busy machine.
}, 240_000);
afterAll(() => t.close());

describe('a file of more messages than one batch', () => {
  it('stores every message once, both copies, and links a change to its order in an earlier batch', async () => {
    const messages: Message[] = [...orders('B', 12), { number: 'B-CHANGE-1', ref: 'B-001' }, ...orders('B2', 4)];
    const result = await upload('batches.edi', interchange('BATCH01', messages));
    expect(result).toMatchObject({ duplicate: false, queued: false });
    expect(result.documents).toHaveLength(messages.length);
    expect(result.documents.map((d) => d.documentNumber)).toEqual(messages.map((m) => m.number));
    expect(await interchangeRow(result.interchangeId)).toEqual({
      state: 'done',
      messages_done: messages.length,
      message_count: messages.length,
    });
    expectEachOnce(await rowsOf(result.interchangeId), messages.length);

    // The change (message 12, the third batch) names order B-001 (message 1, the first batch).
    const change = result.documents.find((d) => d.documentNumber === 'B-CHANGE-1')!;
    const order = result.documents.find((d) => d.documentNumber === 'B-001')!;
    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/documents/${change.id}`, headers: bearer(buyer) })
    ).json();
    expect(detail.links).toContainEqual({ documentId: order.id, kind: 'reference', side: 'from' });
    // Within one file no document is a duplicate of another, whichever batches they fell in.
    expect(result.findings.filter((f) => f.code === 'duplicate_document')).toEqual([]);
  });
});

describe('a failure in the middle of a file', () => {
  it('keeps the batches written, and the next run goes on from there: every message once', async () => {
    // A real failure of the database in the third batch: a trigger refuses one document number while armed.
    await t.database.db.execute(sql`create table ingest_test_switch (armed boolean not null)`);
    await t.database.db.execute(sql`insert into ingest_test_switch values (true)`);
    await t.database.db.execute(
      sql.raw(`
      create function ingest_test_refuse() returns trigger language plpgsql as $$
      begin
        if new.number = 'F-012' and (select armed from ingest_test_switch) then
          raise exception 'refused for the test';
        end if;
        return new;
      end $$`),
    );
    await t.database.db.execute(
      sql`create trigger ingest_test_refuse before insert on documents for each row execute function ingest_test_refuse()`,
    );
    const messages = orders('F', 18);
    // The upload runs the ingest itself; at the failure it answers with what is stored, queued for the job.
    const result = await upload('fail.edi', interchange('FAIL01', messages));
    expect(result).toMatchObject({ duplicate: false, queued: true });
    expect(result.documents).toHaveLength(2 * BATCH);
    const id = result.interchangeId;
    // Two batches (messages 0 to 9) are in, the third is not, and the interchange is still queued.
    expect(await interchangeRow(id)).toEqual({ state: 'queued', messages_done: 2 * BATCH, message_count: null });
    expectEachOnce(await rowsOf(id), 2 * BATCH);
    // Its job, written as a safety net due minutes later, was made due now: a worker retries it within seconds (and
    // may have tried it already, meeting the same refusal).
    const [job] = await t.jobs
      .list({ state: 'created', name: 'documents.ingest', limit: 100 })
      .then(async (created) =>
        [
          ...created,
          ...(await t.jobs.list({ state: 'retry', name: 'documents.ingest', limit: 100 })),
          ...(await t.jobs.list({ state: 'active', name: 'documents.ingest', limit: 100 })),
        ].filter((j) => j.data.interchangeId === id),
      );
    expect(job, 'the ingest job of the interchange').toBeDefined();
    expect(job!.retryCount > 0 || job!.state === 'active' || job!.startAfter.getTime() <= Date.now() + 1000).toBe(true);

    // The job's next run (here called directly) goes on from message 10. A worker's run of the job at the same moment
    // makes one of the two stop (IngestMoved), and the other finishes.
    await t.database.db.execute(sql`update ingest_test_switch set armed = false`);
    for (const until = Date.now() + 30_000; (await interchangeRow(id)).state === 'queued' && Date.now() < until;) {
      await t.app.services.documents.ingest(id).catch((error: unknown) => {
        if (!(error instanceof IngestMoved)) throw error;
      });
    }
    expect(await interchangeRow(id)).toEqual({ state: 'done', messages_done: 18, message_count: 18 });
    expectEachOnce(await rowsOf(id), 18);
    // Another run (the safety-net job) changes nothing.
    await t.app.services.documents.ingest(id);
    expect(await rowsOf(id)).toHaveLength(36);
    await t.database.db.execute(sql`drop trigger ingest_test_refuse on documents`);
  });
});

describe('a batch whose transaction PostgreSQL ends for a deadlock', () => {
  it('runs it again: every message once, the interchange finding once, and the answer is not queued', async () => {
    // A trigger raises a real deadlock (SQLSTATE 40P01) the first time message 11 is written, in the third batch; a
    // sequence counts the times, since a sequence is not rolled back with the transaction it was read in.
    await t.database.db.execute(sql`create sequence ingest_test_deadlocks`);
    await t.database.db.execute(
      sql.raw(`
      create function ingest_test_deadlock() returns trigger language plpgsql as $$
      begin
        if new.number = 'D-011' and new.direction = 'out' and nextval('ingest_test_deadlocks') = 1 then
          raise exception 'deadlock detected (the test)' using errcode = '40P01';
        end if;
        return new;
      end $$`),
    );
    await t.database.db.execute(
      sql`create trigger ingest_test_deadlock before insert on documents for each row execute function ingest_test_deadlock()`,
    );
    try {
      const messages = orders('D', 12);
      // UNZ counts 13 messages: a finding of the interchange, reported by the last batch (the one run twice).
      const file = interchange('DEAD01', messages).replace("UNZ+12+DEAD01'", "UNZ+13+DEAD01'");
      const result = await upload('deadlock.edi', file);
      expect(result).toMatchObject({ duplicate: false, queued: false });
      expect(result.documents.map((d) => d.documentNumber)).toEqual(messages.map((m) => m.number));
      expectEachOnce(await rowsOf(result.interchangeId), messages.length);
      expect(result.findings.filter((f) => f.code === 'EDI_UNZ_COUNT_MISMATCH')).toHaveLength(1);
      const { rows } = (await t.database.db.execute(sql`select last_value from ingest_test_deadlocks`)) as unknown as {
        rows: { last_value: string | number }[];
      };
      expect(Number(rows[0]!.last_value)).toBe(2);
    } finally {
      await t.database.db.execute(sql`drop trigger ingest_test_deadlock on documents`);
    }
  });
});

describe('a file of several interchanges', () => {
  it('checks every UNB: an interchange uploaded before is left out, the others are stored', async () => {
    const first = await upload('first.edi', interchange('MULTI-B', orders('MB', 3)));
    expect(first.duplicate).toBe(false);
    const file = [
      interchange('MULTI-A', orders('MA', 4)),
      interchange('MULTI-B', orders('MB', 3)),
      interchange('MULTI-C', orders('MC', 7)),
    ].join('\n');
    const result = await upload('three.edi', file);
    expect(result.duplicate).toBe(false);
    expect(result.documents.map((d) => d.documentNumber)).toEqual([
      ...orders('MA', 4).map((m) => m.number),
      ...orders('MC', 7).map((m) => m.number),
    ]);
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        code: 'duplicate_interchange',
        params: { sender: RETAILER, controlReference: 'MULTI-B', interchangeId: first.interchangeId },
      }),
    );
    // The messages keep their place in the file: MULTI-B's three (4 to 6) are not stored again.
    const indexes = (await rowsOf(result.interchangeId))
      .filter((r) => r.direction === 'out')
      .map((r) => r.message_index);
    expect(indexes).toEqual([0, 1, 2, 3, 7, 8, 9, 10, 11, 12, 13]);
    // MULTI-B's orders are there once (the first upload's), in the outbox and the supplier's inbox.
    const mb = (await t.database.db.execute(
      sql`select count(*)::int as n from documents where number like 'MB-%'`,
    )) as unknown as { rows: { n: number }[] };
    expect(mb.rows[0]!.n).toBe(6);
  });

  it('answers a file whose every interchange was uploaded before as a duplicate, storing nothing', async () => {
    // The earlier uploads' follow-ups (their CONTRL answers) are stored by jobs: done before counting, and again after.
    await t.jobs.drain();
    const before = (await t.database.db.execute(sql`select count(*)::int as n from documents`)) as unknown as {
      rows: { n: number }[];
    };
    const again = [interchange('MULTI-C', orders('MC', 7)), interchange('MULTI-A', orders('MA', 4))].join('\n');
    const result = await upload('again.edi', again);
    expect(result.duplicate).toBe(true);
    expect(result.documents.map((d) => d.documentNumber)).toContain('MC-000');
    await t.jobs.drain();
    const after = (await t.database.db.execute(sql`select count(*)::int as n from documents`)) as unknown as {
      rows: { n: number }[];
    };
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});
