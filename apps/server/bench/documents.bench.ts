/**
 * `npm run bench:documents`: the inbox and outbox lists over one million documents of one company, on PostgreSQL
 * (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), through the real server.
 *
 * A fresh database `portal_bench_<random>` is created and migrated, seeded with the demo data, and BENCH_DOCUMENTS
 * (1,000,000) documents are bulk-loaded into Demo Supplier with INSERT … SELECT generate_series (the indexes of the
 * table definition are dropped for the load and built again after it, then VACUUM ANALYZE): both directions (60 % in),
 * 200 partners (a few big, many small), five message types, statuses, additional statuses, 40 delivery points (20 %
 * none), three years of timestamps, numbers by type and year. Bodies are empty (`{}`): a list never reads them.
 *
 * Then the server is started as `npm start` starts it (`node --import tsx apps/server/src/main.ts`, DATABASE_URL),
 * user@demo.example.com logs in, and BENCH_CONNECTIONS (20) clients run each query kind for BENCH_DURATION seconds
 * (3) over HTTP, each request with other values of its kind. Printed: p50, p95, p99 per kind against its target, and
 * EXPLAIN (ANALYZE, BUFFERS) of the repository's own SQL for the slowest kinds (captured through a Drizzle logger
 * on the same repository the server runs). The database is dropped at the end, unless BENCH_KEEP=1 (its name is
 * printed); BENCH_REUSE=<name> runs against such a database without loading it, and BENCH_KINDS=floor,first runs only
 * the kinds whose names contain one of these (docs/performance.md).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { DocumentListQuerySchema, FEATURE_PERMISSIONS } from '@portal/contracts';
import type { Db } from '../src/db/client.ts';
import { openDatabase } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { documentReaderOf } from '../src/access/document-scope.ts';
import { createDocumentsRepository } from '../src/features/documents/documents.repository.ts';
import { seedDemoData } from '../src/seed/demo.ts';
import { startServerProcess, stopServerProcess } from '../test/server-process.ts';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3391);
// BENCH_KEEP=1 keeps the database at the end (its name is printed); BENCH_REUSE=<name> runs against a kept one, loaded.
const KEEP = process.env.BENCH_KEEP === '1';
const REUSE = process.env.BENCH_REUSE;
const CHUNK = 100_000;
const INTERCHANGES = 10_000;

type Row = { kind: string; target: number; requests: number; p50: number; p95: number; p99: number; errors: number };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** One million documents (BENCH_DOCUMENTS) of Demo Supplier, in SQL, with the distributions above. */
async function load(url: string, companyId: string): Promise<void> {
  await withClient(url, async (c) => {
    const started = performance.now();
    const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where tablename = 'documents' and indexname <> 'documents_pkey'`,
    );
    for (const i of indexes) await c.query(`drop index ${i.indexname}`);
    await c.query(`create temp table bench_partner as
      select n, gen_random_uuid() as id,
        '40' || lpad(n::text, 10, '0') || ((n * 7) % 10)::text as gln,
        'Partner ' || n as name, 'DE' || lpad((100000000 + n)::text, 9, '0') as vat
      from generate_series(0, 199) n`);
    await c.query(
      `insert into partners (id, company_id, gln, name, vat_id) select id, $1, gln, name, vat from bench_partner`,
      [companyId],
    );
    await c.query(`create temp table bench_point as
      select n, '43' || lpad(n::text, 10, '0') || ((n * 3) % 10)::text as gln, 'Store ' || n as name
      from generate_series(0, 39) n`);
    await c.query(
      `create temp table bench_ic as select n, gen_random_uuid() as id from generate_series(0, ${INTERCHANGES - 1}) n`,
    );
    await c.query(
      `insert into interchanges (id, company_id, direction, sender_id, recipient_id, control_reference, syntax,
         content_sha256, payload_key, file_name, size, state, message_count, created_at, processed_at)
       select id, $1, case when n % 5 < 3 then 'in' else 'out' end, '5901234000017', '4012345000016', 'B' || n,
         'UNOC:3', md5(n::text), 'documents/interchanges/' || id || '/original', 'bench-' || n || '.edi', 5000,
         'done', 100, now(), now()
       from bench_ic`,
      [companyId],
    );
    for (let from = 0; from < DOCUMENTS; from += CHUNK) {
      const to = Math.min(DOCUMENTS, from + CHUNK) - 1;
      await c.query(
        `insert into documents (company_id, direction, interchange_id, message_index, kind, document_type, number,
           reference_number, function_code, document_name_code, message_type, message_category, standard, version,
           test, partner_id, partner_gln, partner_name, delivery_point_name, delivery_point_gln, buyer_gln,
           supplier_gln, buyer_tax_id, seller_tax_id, expected_delivery_date, business_date, platform_timestamp,
           status, processing_status, additional_status, body, findings, payload_offset, payload_length, created_at)
         select $1, g.direction, ic.id, g.i / ${INTERCHANGES}, t.kind, t.type,
           t.prefix || to_char(g.ts, 'YYYY') || '-' || lpad(g.i::text, 7, '0'),
           case when t.type = 'ORDERS' then null
             else 'PO' || to_char(g.ts, 'YYYY') || '-' || lpad(greatest(g.i - 1 - floor(g.r6 * 1000)::int, 0)::text, 7, '0') end,
           '9', t.code, t.type, t.category, 'edifact', case when g.r5 < 0.9 then 'D96A' else 'D01B' end,
           g.r5 > 0.99, p.id, p.gln, p.name, dp.name, dp.gln,
           case when g.direction = 'in' then p.gln else '5901234000017' end,
           case when g.direction = 'in' then '5901234000017' else p.gln end,
           case when g.direction = 'in' then p.vat else 'PL5260001246' end,
           case when g.direction = 'in' then 'PL5260001246' else p.vat end,
           case when t.type in ('ORDERS', 'DESADV') then g.ts::date + (1 + floor(g.r5 * 7))::int end,
           g.ts::date - floor(g.r5 * 2)::int, g.ts,
           case when g.direction = 'in' then (case when g.r4 < 0.05 then 'error' when g.r4 < 0.35 then 'received' else 'read' end)
             else (case when g.r4 < 0.03 then 'error' when g.r4 < 0.10 then 'waiting' else 'sent' end) end,
           case when g.direction = 'out' and g.r4 >= 0.03 and g.r4 < 0.10 then 'PENDING' else 'OK' end,
           case when g.r6 < 0.02 then 'cancelled' when g.r6 < 0.05 then 'completed' when g.r6 < 0.06 then 'printed'
             when g.r6 < 0.07 then 'partially_completed' end,
           '{}'::jsonb, '[]'::jsonb, 0, 500, g.ts
         from (
           select i, r1, r2, r3, r4, r5, r6, case when r3 < 0.6 then 'in' else 'out' end as direction,
             now() - interval '3 years' * (1 - i::float8 / ${DOCUMENTS}) + interval '1 minute' * r5 as ts
           from (select i, random() r1, random() r2, random() r3, random() r4, random() r5, random() r6
                 from generate_series(${from}, ${to}) i) raw
         ) g
         join lateral (select
           case when g.r2 < 0.4 then 'ORDERS' when g.r2 < 0.6 then 'DESADV' when g.r2 < 0.85 then 'INVOIC'
             when g.r2 < 0.95 then 'ORDRSP' else 'RECADV' end as type) ty on true
         join (values ('ORDERS', 'order', 'PO', '220', 'EAN008'), ('DESADV', 'despatch_advice', 'DES', '351', 'EAN005'),
           ('INVOIC', 'invoice', 'INV', '380', 'EAN008'), ('ORDRSP', 'order_response', 'RSP', '231', 'EAN005'),
           ('RECADV', 'receiving_advice', 'REC', '632', 'EAN003')) t(type, kind, prefix, code, category)
           on t.type = ty.type
         join bench_partner p on p.n = floor(200 * g.r1 * g.r1)::int
         left join bench_point dp on g.r6 >= 0.2 and dp.n = floor((g.r6 - 0.2) / 0.8 * 40)::int
         join bench_ic ic on ic.n = g.i % ${INTERCHANGES}`,
        [companyId],
      );
      process.stdout.write(`\r  loaded ${to + 1} documents (${seconds(started)})`);
    }
    console.log('');
    const indexStart = performance.now();
    for (const i of indexes) await c.query(i.indexdef);
    console.log(`  ${indexes.length} indexes built in ${seconds(indexStart)}`);
    const vacuum = performance.now();
    await c.query('vacuum analyze documents');
    await c.query('vacuum analyze interchanges');
    console.log(`  vacuum analyze in ${seconds(vacuum)}`);
  });
}

/** The server as `npm start` runs it, on the bench database; resolves once it answers. */
const startServer = (url: string) =>
  startServerProcess({
    port: PORT,
    env: {
      DATABASE_URL: url,
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-bench-')),
      EDIFACT_SHIPPED_DIRECTORIES: 'false',
    },
    timeoutSeconds: 150,
  });

/**
 * Waits until no query of the bench database runs: autocannon stops sending at the end of a kind, but the server
 * still runs what it was sent, which would slow the next kind down.
 */
async function settle(url: string): Promise<void> {
  await withClient(url, async (c) => {
    for (let i = 0; i < 1200; i += 1) {
      const { rows } = await c.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      if (rows[0]!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

/** One query kind: CONNECTIONS clients for DURATION_SECONDS, each request the next of `paths`. */
async function run(
  kind: string,
  target: number,
  token: string,
  paths: string[],
  duration = DURATION_SECONDS,
): Promise<Row> {
  const latencies: number[] = [];
  let next = 0;
  const instance = autocannon({
    url: `http://127.0.0.1:${PORT}`,
    connections: CONNECTIONS,
    duration,
    timeout: 30,
    requests: [
      {
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }),
      },
    ],
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await new Promise<Result>((resolve) => instance.on('done', resolve));
  latencies.sort((a, b) => a - b);
  return {
    kind,
    target,
    requests: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

function printTable(rows: Row[]): void {
  const header = ['query kind', 'requests', 'p50 ms', 'p95 ms', 'p99 ms', 'target', 'errors', ''];
  const lines = rows.map((r) => [
    r.kind,
    String(r.requests),
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    r.p99.toFixed(1),
    r.kind.startsWith('count') ? `${r.target} (p95)` : `p95 ≤ ${r.target}`,
    String(r.errors),
    r.p95 <= r.target && r.errors === 0 ? 'ok' : 'MISSED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
}

async function main(): Promise<void> {
  const name = REUSE ?? `portal_bench_${randomBytes(6).toString('hex')}`;
  if (!/^portal_bench_[a-z0-9]+$/.test(name)) throw new Error(`BENCH_REUSE: not a bench database: ${name}`);
  const target = new URL(BASE_URL);
  target.pathname = `/${name}`;
  const url = target.toString();
  if (!REUSE) await withClient(BASE_URL, (c) => c.query(`CREATE DATABASE ${name}`));
  let server: ChildProcess | undefined;
  const cleanup = async () => {
    await stopServerProcess(server);
    if (KEEP || REUSE) console.log(`Kept database ${name} (BENCH_REUSE=${name} runs against it again)`);
    else await withClient(BASE_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    console.log(
      `Documents bench: ${DOCUMENTS} documents, ${CONNECTIONS} clients, ${DURATION_SECONDS} s per query kind, ` +
        `PostgreSQL database ${name}, Node ${process.version}, ${availableParallelism()} CPUs`,
    );
    if (!REUSE) {
      const database = await openDatabase({ url, dataDir: '' });
      await seedDemoData(database.db);
      await database.close();
    }
    const { companyId, userId } = await withClient(url, async (c) => {
      const { rows } = await c.query<{ company_id: string; id: string }>(
        `select company_id, id from users where email = 'user@demo.example.com'`,
      );
      return { companyId: rows[0]!.company_id, userId: rows[0]!.id };
    });
    if (!REUSE) {
      const loadStart = performance.now();
      await load(url, companyId);
      console.log(`Loaded in ${seconds(loadStart)}`);
    }

    server = await startServer(url);
    const login = await fetch(`http://127.0.0.1:${PORT}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'user@demo.example.com', password: 'User#Demo2026' }),
    });
    const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
      .token.access_token;

    // Values to vary the requests of a kind.
    const sample = await withClient(url, async (c) => ({
      partners: (
        await c.query<{ id: string }>(`select id from partners where company_id = $1 order by gln`, [companyId])
      ).rows.map((r) => r.id),
    }));
    const points = await withClient(url, async (c) =>
      (
        await c.query<{ gln: string }>(
          `select distinct delivery_point_gln as gln from documents
        where company_id = $1 and delivery_point_gln is not null limit 40`,
          [companyId],
        )
      ).rows.map((r) => r.gln),
    );
    const years = ['2024', '2025', '2026'];
    const months = Array.from({ length: 24 }, (_, i) => {
      const d = new Date(Date.UTC(2024, 11 + i, 1));
      return d.toISOString().slice(0, 7);
    });
    const dir = (i: number) => (i % 2 ? 'out' : 'in');
    const q = (i: number, rest: string) => `/api/documents?direction=${dir(i)}${rest ? `&${rest}` : ''}`;
    const many = (count: number, make: (i: number) => string) => Array.from({ length: count }, (_, i) => q(i, make(i)));

    const kinds: { kind: string; target: number; paths: string[] }[] = [
      { kind: 'first page (default sort)', target: 30, paths: many(2, () => '') },
      {
        kind: 'filter: documentReferenceNumber',
        target: 50,
        paths: many(40, (i) => `documentReferenceNumber=PO${years[i % 3]}-00${i % 10}`),
      },
      {
        kind: 'filter: businessTypeIds',
        target: 50,
        paths: many(
          10,
          (i) =>
            `businessTypeIds=${['order', 'invoice', 'despatch_advice', 'order_response', 'receiving_advice'][i % 5]}`,
        ),
      },
      { kind: 'filter: documentFunctionCode', target: 50, paths: many(2, () => 'documentFunctionCode=9') },
      {
        kind: 'filter: messageType',
        target: 50,
        paths: many(10, (i) => `messageType=${['ORDERS', 'INVOIC', 'DESADV', 'ORDRSP', 'RECADV'][i % 5]}`),
      },
      {
        kind: 'filter: messageCategory',
        target: 50,
        paths: many(6, (i) => `messageCategory=${['EAN008', 'EAN005', 'EAN003'][i % 3]}`),
      },
      {
        kind: 'filter: partnerIds',
        target: 50,
        paths: many(200, (i) => `partnerIds=${sample.partners[i % sample.partners.length]}`),
      },
      {
        kind: 'filter: processingDate',
        target: 50,
        paths: many(48, (i) => `processingDateFrom=${months[i % 24]}-01&processingDateTo=${months[i % 24]}-10`),
      },
      {
        kind: 'filter: documentDate',
        target: 50,
        paths: many(48, (i) => `documentDateFrom=${months[i % 24]}-05&documentDateTo=${months[i % 24]}-20`),
      },
      {
        kind: 'filter: expectedDeliveryDate',
        target: 50,
        paths: many(
          48,
          (i) => `expectedDeliveryDateFrom=${months[i % 24]}-03&expectedDeliveryDateTo=${months[i % 24]}-09`,
        ),
      },
      {
        kind: 'filter: deliveryPointGln',
        target: 50,
        paths: many(80, (i) => `deliveryPointGln=${points[i % points.length]}`),
      },
      {
        kind: 'filter: documentStatus',
        target: 50,
        paths: many(10, (i) => `documentStatus=${['error', 'received', 'read', 'sent', 'waiting'][i % 5]}`),
      },
      {
        kind: 'filter: documentAdditionalStatus',
        target: 50,
        paths: many(
          10,
          (i) =>
            `documentAdditionalStatus=${['cancelled', 'completed', 'printed', 'partially_completed', 'enriched'][i % 5]}`,
        ),
      },
      { kind: 'filter: standard', target: 50, paths: many(2, () => 'standard=edifact') },
      { kind: 'filter: version', target: 50, paths: many(4, (i) => `version=${i % 4 < 2 ? 'D96A' : 'D01B'}`) },
      { kind: 'filter: mode', target: 50, paths: many(4, (i) => `mode=${i % 4 < 2 ? 'test' : 'production'}`) },
      {
        kind: 'filter: buyerTaxId',
        target: 50,
        paths: many(200, (i) => `buyerTaxId=${i % 2 ? 'PL5260001246' : `DE${100000000 + (i % 200)}`}`),
      },
      {
        kind: 'filter: sellerTaxId',
        target: 50,
        paths: many(200, (i) => `sellerTaxId=${i % 2 ? `DE${100000000 + (i % 200)}` : 'PL5260001246'}`),
      },
      {
        kind: 'three filters (partner, status, date)',
        target: 50,
        paths: many(
          200,
          (i) =>
            `partnerIds=${sample.partners[i % sample.partners.length]}&documentStatus=${i % 2 ? 'sent' : 'read'}&documentDateFrom=${months[i % 24]}-01&documentDateTo=${months[(i + 3) % 24]}-28`,
        ),
      },
      {
        kind: 'number prefix',
        target: 50,
        paths: many(
          200,
          (i) => `documentNumber=${['PO', 'INV', 'DES'][i % 3]}${years[i % 3]}-0${String(i % 100).padStart(2, '0')}`,
        ),
      },
    ];

    // The next page by cursor: the cursors of page 2 to 41 of the default list (both directions).
    const cursors: string[] = [];
    for (const direction of ['in', 'out']) {
      let cursor: string | null = null;
      for (let page = 0; page < 20; page += 1) {
        const res = await fetch(
          `http://127.0.0.1:${PORT}/api/documents?direction=${direction}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        cursor = ((await res.json()) as { nextCursor: string | null }).nextCursor;
        if (!cursor) break;
        cursors.push(`/api/documents?direction=${direction}&cursor=${encodeURIComponent(cursor)}`);
      }
    }
    kinds.splice(1, 0, { kind: 'next page by cursor', target: 30, paths: cursors });
    kinds.push(
      { kind: 'count (includeTotal)', target: 500, paths: many(2, () => 'includeTotal=true') },
      {
        kind: 'count with a filter',
        target: 500,
        paths: many(
          10,
          (i) => `includeTotal=true&documentStatus=${['error', 'received', 'read', 'sent', 'waiting'][i % 5]}`,
        ),
      },
    );

    // The floor: an authenticated request that reads no document (token, session, principal, JSON), so that what
    // a list adds to it can be told from what this machine's load costs every request.
    kinds.unshift({ kind: 'floor: GET /api/users/permissions', target: 30, paths: ['/api/users/permissions'] });
    // BENCH_KINDS=floor,first page runs only the kinds whose names contain one of these.
    const only = process.env.BENCH_KINDS?.split(',').filter(Boolean);
    if (only) kinds.splice(0, kinds.length, ...kinds.filter((k) => only.some((o) => k.kind.includes(o))));
    const rows: Row[] = [];
    for (const k of kinds) {
      // An untimed second of warm-up, as a server that has been running would be; each kind starts on a quiet
      // database.
      await settle(url);
      await run('warm-up', 0, token, k.paths, 1);
      await settle(url);
      const row = await run(k.kind, k.target, token, k.paths);
      rows.push(row);
      process.stdout.write(`\r  ${k.kind}: p95 ${row.p95.toFixed(1)} ms`.padEnd(80));
    }
    console.log('\n\nOver HTTP (the real server, every request authenticated and checked as from the browser):\n');
    printTable(rows);

    // The same kinds on the database alone: the statements the repository sends for a request (the list, and the
    // count when asked), captured through a Drizzle logger, run by CONNECTIONS clients at once.
    const captured: { sql: string; params: unknown[] }[] = [];
    const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
    const db = drizzle(pool, {
      schema,
      logger: { logQuery: (query, params) => captured.push({ sql: query, params }) },
    }) as unknown as Db;
    const repo = createDocumentsRepository(db);
    const reader = await documentReaderOf(db, { userId, companyId, permissions: [...FEATURE_PERMISSIONS], roles: [] });
    captured.length = 0;
    /** The statements of one request of the list (and its count). */
    const statementsOf = async (path: string) => {
      const query = DocumentListQuerySchema.parse(Object.fromEntries(new URL(path, 'http://x').searchParams));
      const { cursor, limit, sort, order, includeTotal, ...filters } = query;
      const after = cursor
        ? (() => {
            const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as string[];
            return { key: parts[2]!, id: parts[3]! };
          })()
        : undefined;
      captured.length = 0;
      await repo.list(reader, filters, { sort, direction: order }, after, limit + 1);
      if (includeTotal) await repo.count(reader, filters);
      return captured.splice(0);
    };
    const dbRows: Row[] = [];
    const statements = new Map<string, { sql: string; params: unknown[] }[][]>();
    for (const k of kinds.filter((k) => k.paths[0]!.startsWith('/api/documents'))) {
      const list: { sql: string; params: unknown[] }[][] = [];
      for (const path of k.paths.slice(0, 20)) list.push(await statementsOf(path));
      statements.set(k.kind, list);
      const latencies: number[] = [];
      const until = performance.now() + DURATION_SECONDS * 1000;
      let next = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < until) {
            const request = list[next++ % list.length]!;
            const started = performance.now();
            for (const statement of request) await pool.query(statement.sql, statement.params);
            latencies.push(performance.now() - started);
          }
        }),
      );
      latencies.sort((a, b) => a - b);
      dbRows.push({
        kind: k.kind,
        target: k.target,
        requests: latencies.length,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        errors: 0,
      });
    }
    console.log('\nThe database alone (the statements of the repository, the same clients):\n');
    printTable(dbRows);

    // The plans of the slowest kinds on the database, against their target.
    const slowest = [...dbRows].sort((a, b) => b.p95 / b.target - a.p95 / a.target).slice(0, 3);
    for (const row of slowest) {
      const kind = kinds.find((k) => k.kind === row.kind)!;
      for (const statement of statements.get(row.kind)![0]!) {
        const plan = await pool.query(`explain (analyze, buffers) ${statement.sql}`, statement.params);
        console.log(`\n${row.kind} (database p95 ${row.p95.toFixed(1)} ms): ${kind.paths[0]}`);
        console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
      }
    }
    await pool.end();
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
