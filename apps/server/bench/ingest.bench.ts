/**
 * `npm run bench:ingest` (issue 11, part 6): EANCOM messages validated, stored and routed end to end on PostgreSQL,
 * and a 100 MB interchange ingested under 300 MB of server memory.
 *
 * It creates its own database on 127.0.0.1:5432 (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres),
 * starts the real server as its own process (compiled, with the settings of `scripts/server-runtime.mjs`, as `npm
 * start` runs it: the app, job workers and CPU pool), and then:
 * 1. uploads ORDERS (Demo Retailer to Demo Supplier) and DESADV and INVOIC (back) over HTTP, in files of 5,000
 *    messages, and prints messages a second from the first upload until every file's ingest is done (each message
 *    validated, stored and routed: two copies);
 * 2. sends a ~100 MB ORDERS interchange to `POST /api/documents/inbound` with a company API key, streamed, and prints
 *    the time until it is done and the peak RSS of the server process meanwhile (read from /proc every 50 ms): once
 *    to the server as the first run left it, and once more after a restart on the same database (the state a
 *    server is in after a deploy: no demo seed, the directories in place, one warm-up upload).
 * The database is dropped at the end. BENCH_MESSAGES (default 30000) and BENCH_LARGE_MB (default 100) size the runs;
 * the server prints each ingest run's time split (INGEST_PROFILE).
 */
import type { ChildProcess } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { rssOf, startServerProcess, stopServerProcess } from '../test/server-process.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3931);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `portal_bench_ingest_${process.pid}`;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 30_000);
const LARGE_MB = Number(process.env.BENCH_LARGE_MB ?? 100);
const PER_FILE = 5000;

const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';
const STORE = '4012345000023';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** An EANCOM D96A order (EAN008) of the retailer to the supplier with 3 to 8 lines. */
function orders(n: number): string {
  const s = [
    `UNH+${n}+ORDERS:D:96A:UN:EAN008`,
    `BGM+220+PO${pad(n, 8)}+9`,
    'DTM+137:20261116:102',
    'DTM+2:20261120:102',
    `NAD+BY+${RETAILER}::9`,
    `NAD+SU+${SUPPLIER}::9`,
    `NAD+DP+${STORE}::9`,
    'CUX+2:EUR:9',
  ];
  const lines = 3 + (n % 6);
  for (let i = 1; i <= lines; i++) {
    s.push(`LIN+${i}++40123456${pad(i, 5)}:EN`, `QTY+21:${i * 3}`, 'PRI+AAA:12.50');
  }
  s.push('UNS+S', `CNT+2:${lines}`);
  s.push(`UNT+${s.length + 1}+${n}`);
  return s.join("'") + "'";
}

/** An EANCOM D96A despatch advice (EAN005) of the supplier to the retailer for order n. */
function desadv(n: number): string {
  const s = [
    `UNH+${n}+DESADV:D:96A:UN:EAN005`,
    `BGM+351+DES${pad(n, 8)}+9`,
    'DTM+137:20261117:102',
    'DTM+11:20261117:102',
    'DTM+17:20261118:102',
    `RFF+ON:PO${pad(n, 8)}`,
    `NAD+BY+${RETAILER}::9`,
    `NAD+DP+${STORE}::9`,
    `NAD+SU+${SUPPLIER}::9`,
    'CPS+1',
    'PAC+1++201',
    'LIN+1++5901234123457:EN',
    'QTY+12:48',
    'LIN+2++5901234123464:EN',
    'QTY+12:12',
    'CNT+2:2',
  ];
  s.push(`UNT+${s.length + 1}+${n}`);
  return s.join("'") + "'";
}

/** An EANCOM D96A invoice (EAN008) of the supplier to the retailer for order n. */
function invoic(n: number): string {
  const s = [
    `UNH+${n}+INVOIC:D:96A:UN:EAN008`,
    `BGM+380+INV${pad(n, 8)}+9`,
    'DTM+137:20261120:102',
    'DTM+35:20261118:102',
    `RFF+ON:PO${pad(n, 8)}`,
    `NAD+BY+${RETAILER}::9`,
    `NAD+SU+${SUPPLIER}::9`,
    'CUX+2:EUR:4',
    'LIN+1++5901234123457:EN',
    'QTY+47:48',
    'MOA+203:600',
    'PRI+AAA:12.5',
    'TAX+7+VAT+++:::21+S',
    'UNS+S',
    'CNT+2:1',
    'MOA+77:726',
    'MOA+79:600',
    'MOA+125:600',
    'MOA+176:126',
    'TAX+7+VAT+++:::21+S',
    'MOA+176:126',
  ];
  s.push(`UNT+${s.length + 1}+${n}`);
  return s.join("'") + "'";
}

const unb = (sender: string, recipient: string, control: string) =>
  `UNA:+.? 'UNB+UNOC:3+${sender}:14+${recipient}:14+261116:1000+${control}'`;

function file(sender: string, recipient: string, control: string, messages: string[]): string {
  return `${unb(sender, recipient, control)}${messages.join('')}UNZ+${messages.length}+${control}'`;
}

const startServer = (databaseUrl: string, dataDir: string) =>
  startServerProcess({
    port: PORT,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      // Each ingest run prints where its time went (validation on the pool, the transactions' parts).
      INGEST_PROFILE: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });

async function login(email: string, password: string): Promise<string> {
  const res = await fetch(`${BASE}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse.token
    .access_token;
}

/** A company API key of the user's company (the user needs COMPANY_PROFILE_MODIFY), for the inbound endpoint. */
async function createKey(token: string): Promise<string> {
  const res = await fetch(`${BASE}/api/company/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (!res.ok) throw new Error(`creating a key failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { secret: string }).secret;
}

async function upload(token: string, name: string, content: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'application/edifact' }), name);
  const res = await fetch(`${BASE}/api/documents/upload?direction=out`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`upload of ${name} failed: ${res.status} ${await res.text()}`);
}

/** Waits until no interchange is queued; answers the seconds waited. */
async function untilIngested(db: pg.Client, files: number, onTick?: () => void): Promise<void> {
  for (;;) {
    const { rows } = await db.query<{ queued: string; total: string }>(
      "select count(*) filter (where state = 'queued') as queued, count(*) as total from interchanges",
    );
    if (Number(rows[0]!.total) >= files && Number(rows[0]!.queued) === 0) return;
    onTick?.();
    await sleep(100);
  }
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${DB_NAME}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-ingest-bench-'));
  let server: ChildProcess | undefined;
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    server = await startServer(url.toString(), dataDir);
    const pid = server.pid ?? 0;
    await db.connect();
    let buyer = await login('buyer@demo.example.com', 'Buyer#Demo2026');
    const supplier = await login('user@demo.example.com', 'User#Demo2026');
    // Warm-up: the directories and the pool's thread, so that the start-up is not in the figures.
    await upload(buyer, 'warm.edi', file(RETAILER, SUPPLIER, 'WARM', [orders(1)]));
    await untilIngested(db, 1);
    const idle = rssOf(pid);
    console.log(`\nserver pid ${pid}, PostgreSQL database ${DB_NAME}, idle RSS ${(idle / 1e6).toFixed(0)} MB`);

    // 1. Throughput over HTTP.
    const third = Math.ceil(MESSAGES / 3);
    const uploads: { token: string; name: string; content: string; count: number }[] = [];
    for (let from = 1; from <= third; from += PER_FILE) {
      const to = Math.min(third, from + PER_FILE - 1);
      const range = Array.from({ length: to - from + 1 }, (_, i) => from + i);
      uploads.push({
        token: buyer,
        name: `orders-${from}.edi`,
        content: file(RETAILER, SUPPLIER, `O${from}`, range.map(orders)),
        count: range.length,
      });
      uploads.push({
        token: supplier,
        name: `desadv-invoic-${from}.edi`,
        content: file(SUPPLIER, RETAILER, `D${from}`, [...range.map(desadv), ...range.map(invoic)]),
        count: range.length * 2,
      });
    }
    const total = uploads.reduce((n, u) => n + u.count, 0);
    const bytes = uploads.reduce((n, u) => n + u.content.length, 0);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
    const started = performance.now();
    for (const u of uploads) await upload(u.token, u.name, u.content);
    const uploaded = performance.now();
    await untilIngested(db, uploads.length + 1);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const { rows: counts } = await db.query<{ direction: string; status: string; n: string }>(
      'select direction, status, count(*) as n from documents group by 1, 2 order by 1, 2',
    );
    console.log(
      `\n## Throughput: ${total} messages in ${uploads.length} files (${(bytes / 1e6).toFixed(1)} MB) over HTTP`,
    );
    console.log(
      `uploads answered after ${((uploaded - started) / 1000).toFixed(1)} s; all ingested after ${seconds.toFixed(1)} s`,
    );
    console.log(`**${(total / seconds).toFixed(0)} messages/s** validated, stored and routed (two copies each)`);
    console.log(`peak RSS ${(peak / 1e6).toFixed(0)} MB`);
    console.log(
      'documents by direction and status:',
      counts.map((r) => `${r.direction}/${r.status} ${r.n}`).join(', '),
    );

    // 2. A large interchange through the stream intake.
    /** Writes the large file with `control` as its interchange control reference. */
    async function writeLarge(control: string): Promise<{ path: string; size: number; n: number }> {
      const path = join(dataDir, `${control}.edi`);
      const out = createWriteStream(path);
      const target = LARGE_MB * 1e6;
      let written = 0;
      let n = 0;
      const write = (text: string) =>
        new Promise<void>((resolve) => {
          written += text.length;
          if (out.write(text)) resolve();
          else out.once('drain', () => resolve());
        });
      await write(unb(RETAILER, SUPPLIER, control));
      while (written < target - 1000) {
        let chunk = '';
        for (let i = 0; i < 500; i++) chunk += orders(1_000_000 + ++n);
        await write(chunk);
      }
      await write(`UNZ+${n}+${control}'`);
      await new Promise<void>((resolve) => out.end(resolve));
      return { path, size: statSync(path).size, n };
    }
    // Measured on the server in both states it runs in: as the throughput run left it (its heaps grown), and
    // restarted on the same database (no demo seed now, the directories in place) with one warm-up upload.
    const afterRun = await large(pid, 'LARGE1', 'as the throughput run left it');
    await stopServerProcess(server);
    server = await startServer(url.toString(), dataDir);
    const restarted = server.pid ?? 0;
    // The first token may have lived past its five minutes on a slow machine.
    buyer = await login('buyer@demo.example.com', 'Buyer#Demo2026');
    await upload(buyer, 'warm2.edi', file(RETAILER, SUPPLIER, 'WARM2', [orders(2)]));
    await untilIngested(db, uploads.length + 3);
    const fresh = await large(restarted, 'LARGE2', 'restarted');
    console.log(`\n**peak RSS ${fresh} MB restarted, ${afterRun} MB after the throughput run**`);

    /** Streams a large file (control reference `control`) to the server and answers its peak RSS in MB. */
    async function large(pid: number, control: string, state: string): Promise<string> {
      const { path, size, n } = await writeLarge(control);
      const before = rssOf(pid);
      let largePeak = before;
      const largeSampler = setInterval(() => (largePeak = Math.max(largePeak, rssOf(pid))), 50);
      const key = await createKey(buyer);
      const largeStarted = performance.now();
      const res = await fetch(`${BASE}/api/documents/inbound?direction=out&fileName=large.edi`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/edifact' },
        body: Readable.toWeb(createReadStream(path, { highWaterMark: 256 * 1024 })) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      if (!res.ok) throw new Error(`inbound failed: ${res.status} ${await res.text()}`);
      const stored = performance.now();
      await untilIngested(db, 0);
      const largeSeconds = (performance.now() - largeStarted) / 1000;
      clearInterval(largeSampler);
      const { rows: stored2 } = await db.query<{ n: string }>(
        'select count(*) as n from documents d join interchanges i on i.id = d.interchange_id where i.control_reference = $1',
        [control],
      );
      console.log(
        `\n## One ${(size / 1e6).toFixed(1)} MB interchange of ${n} ORDERS (POST /api/documents/inbound), server ${state}`,
      );
      console.log(`streamed into the BlobStore and answered after ${((stored - largeStarted) / 1000).toFixed(1)} s`);
      console.log(
        `ingested after ${largeSeconds.toFixed(1)} s: ${(n / largeSeconds).toFixed(0)} messages/s, ${stored2[0]!.n} documents`,
      );
      console.log(`**peak RSS ${(largePeak / 1e6).toFixed(0)} MB** (idle before ${(before / 1e6).toFixed(0)} MB)`);
      return (largePeak / 1e6).toFixed(0);
    }
  } finally {
    await db.end().catch(() => undefined);
    await stopServerProcess(server);
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
