/**
 * `npm run bench:ksef` (issue 13): invoices a second through the KSeF simulator, sent by the portal's KSeF client,
 * 1. in one online session (BENCH_KSEF_ONLINE invoices, default 500, BENCH_KSEF_CONCURRENCY at once, default 4), and
 * 2. in one batch session of BENCH_KSEF_BATCH invoices (default 10,000, KSeF's most per session),
 * with the CPU time of the client and of the simulator for each.
 *
 * How the figures are taken, so that they are honest:
 * - The simulator runs in the real server as its own process (`src/main.ts` through `test/server-process.ts`, as
 *   bench:ingest does) on a fresh PostgreSQL database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 *   dropped at the end). The client runs in this process and speaks HTTP to it over a socket.
 * - Client CPU is this process's `process.cpuUsage()` over the phase: encryption, zip, hashing, JSON, HTTP. The FA(3)
 *   files are written before the clock starts, as an ERP would have them.
 * - Simulator CPU is the server process's utime + stime from /proc/<pid>/stat (all its threads, the CPU pool's
 *   workers that decrypt and XSD-check each invoice included). PostgreSQL's own processes are not counted.
 * - The simulator's rate limits (KSeF's production values by default, e.g. 180 invoices an hour) are raised through
 *   KSEF_SIMULATOR_RATE_LIMITS, and the client's own throttle (10 requests a second) through `requestsPerSecond`:
 *   this measures the work, not the limits. KSEF_SIMULATOR_DELAY_MS is 0 (no artificial stage delay).
 * - Online: from opening the session to the session processed (every invoice decided, status 200); the sending part
 *   (all 202s) is printed too. Batch: from zipping to the session processed; the client's part (zip, encrypt, upload,
 *   close) is printed with its own CPU.
 * On a 2-core machine the client and the simulator share the cores, so wall time is not the sum of the CPU times.
 */
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestCertificate, KsefClient, type KsefAuth } from '@portal/ksef/client';
import { demoPurchaseInvoice } from '../src/features/ksef/ksef.demo.ts';
import { startServerProcess, stopServerProcess } from '../test/server-process.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3932);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `portal_bench_ksef_${process.pid}`;
const ONLINE = Number(process.env.BENCH_KSEF_ONLINE ?? 500);
const BATCH = Number(process.env.BENCH_KSEF_BATCH ?? 10_000);
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_KSEF_CONCURRENCY ?? 4));

const UNLIMITED = { perSecond: 100_000, perMinute: 1_000_000, perHour: 10_000_000 };
const GROUPS = ['onlineSession', 'batchSession', 'invoiceSend', 'invoiceStatus', 'sessionMisc', 'auth', 'other'];

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** A process's CPU seconds (user + system, every thread) from /proc/<pid>/stat. */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** This process's CPU seconds since `from` (process.cpuUsage, microseconds). */
const clientCpu = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
};

/** Measures one phase: wall seconds, client CPU seconds, simulator CPU seconds. */
async function measure<T>(pid: number, work: () => Promise<T>) {
  const cpu = process.cpuUsage();
  const server = cpuOf(pid);
  const started = performance.now();
  const result = await work();
  return {
    result,
    seconds: (performance.now() - started) / 1000,
    client: clientCpu(cpu),
    simulator: cpuOf(pid) - server,
  };
}

/** `count` FA(3) invoices of one seller, numbered apart (KSeF refuses a seller's number twice). */
function invoices(prefix: string, count: number, now: Date) {
  const template = demoPurchaseInvoice(now);
  const at = template.xml.indexOf(`<P_2>${template.number}</P_2>`);
  if (at < 0) throw new Error('the template invoice has no P_2');
  const before = template.xml.slice(0, at);
  const after = template.xml.slice(at + `<P_2>${template.number}</P_2>`.length);
  return {
    seller: template.seller,
    files: Array.from({ length: count }, (_, i) => ({
      fileName: `${prefix}-${String(i + 1).padStart(5, '0')}.xml`,
      xml: `${before}<P_2>FV/${prefix}/${i + 1}</P_2>${after}`,
    })),
  };
}

/** Polls a session until it is processed (200); answers its status. */
async function processed(auth: KsefAuth, reference: string) {
  await auth.client.poll(
    'session',
    async () => (await auth.sessionStatus(reference)).status,
    (s) => s.code === 200,
  );
  return auth.sessionStatus(reference);
}

const line = (label: string, m: { seconds: number; client: number; simulator: number }, count: number) =>
  `${label}: ${m.seconds.toFixed(1)} s, **${(count / m.seconds).toFixed(0)} invoices/s**; CPU client ${m.client.toFixed(1)} s ` +
  `(${((m.client / count) * 1000).toFixed(2)} ms/invoice), simulator ${m.simulator.toFixed(1)} s ` +
  `(${((m.simulator / count) * 1000).toFixed(2)} ms/invoice)`;

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${DB_NAME}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-ksef-bench-'));
  let server: ChildProcess | undefined;
  try {
    server = await startServerProcess({
      port: PORT,
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        // Pre-signed upload addresses must reach this server.
        PUBLIC_URL: BASE,
        DEMO_DATA: 'false',
        KSEF_SIMULATOR_DELAY_MS: '0',
        KSEF_SIMULATOR_RATE_LIMITS: JSON.stringify(Object.fromEntries(GROUPS.map((g) => [g, UNLIMITED]))),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const pid = server.pid ?? 0;
    const client = new KsefClient({
      baseUrl: `${BASE}/ksef-simulator/v2`,
      requestsPerSecond: 100_000,
      pollIntervalMs: 100,
      pollTimeoutMs: 30 * 60_000,
      timeoutMs: 10 * 60_000,
    });
    const now = new Date();
    const online = invoices('ONLINE', ONLINE, now);
    const batch = invoices('BATCH', BATCH, now);
    const certificate = await createTestCertificate({
      nip: online.seller.nip,
      name: online.seller.name,
      notBefore: new Date(now.getTime() - 86_400_000),
    });
    const credentials = {
      kind: 'certificate' as const,
      context: { type: 'Nip' as const, value: online.seller.nip },
      certificatePem: certificate.certificatePem,
      privateKey: certificate.privateKeyPem,
    };
    // Warm-up: a login and one invoice, so the keys, the pool's threads and the XSD are ready before the clock runs.
    const auth = await client.login(credentials);
    const warm = await auth.openOnlineSession();
    const warmed = await warm.send(invoices('WARM', 1, now).files[0]!.xml);
    await warm.close();
    await auth.waitForInvoice(warm.referenceNumber, warmed.referenceNumber);
    console.log(
      `\nserver pid ${pid} (simulator, PostgreSQL database ${DB_NAME}); ${ONLINE} online invoices ` +
        `(${CONCURRENCY} at once), a batch of ${BATCH}; invoice ${(online.files[0]!.xml.length / 1024).toFixed(1)} KB`,
    );

    // 1. One online session.
    let sendPart: { seconds: number; client: number; simulator: number } = { seconds: 0, client: 0, simulator: 0 };
    const onlineRun = await measure(pid, async () => {
      const session = await auth.openOnlineSession();
      sendPart = await measure(pid, async () => {
        let next = 0;
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < online.files.length) await session.send(online.files[next++]!.xml);
          }),
        );
      });
      await session.close();
      return processed(auth, session.referenceNumber);
    });
    console.log(`\n## One online session of ${ONLINE} invoices`);
    console.log(line('sent (every invoice answered 202)', sendPart, ONLINE));
    console.log(line('open to processed (every invoice decided)', onlineRun, ONLINE));
    console.log(
      `session: ${onlineRun.result.successfulInvoiceCount} accepted, ${onlineRun.result.failedInvoiceCount} failed`,
    );

    // 2. One batch session.
    type Phase = { seconds: number; client: number; simulator: number };
    let clientPart: Phase = { seconds: 0, client: 0, simulator: 0 };
    const batchRun = await measure(pid, async () => {
      const sent = await measure(pid, () => auth.sendBatch(batch.files));
      clientPart = sent;
      return processed(auth, sent.result.referenceNumber);
    });
    const bytes = batch.files.reduce((n, f) => n + f.xml.length, 0);
    console.log(`\n## One batch session of ${BATCH} invoices (${(bytes / 1e6).toFixed(1)} MB of FA(3))`);
    console.log(line('client: zip, encrypt, upload, close', clientPart, BATCH));
    console.log(line('zip to processed (every invoice decided)', batchRun, BATCH));
    console.log(
      `session: ${batchRun.result.successfulInvoiceCount} accepted, ${batchRun.result.failedInvoiceCount} failed`,
    );
    await auth.logout();
  } finally {
    await stopServerProcess(server);
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
