/**
 * `npm run bench:auth`: login and refresh throughput and latency of the real server at 50 concurrent connections,
 * against PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres). A fresh database
 * `portal_bench_<random>` is created, seeded with the demo data plus BENCH_USERS verified users, and dropped at the end.
 *
 * - login: every request logs in a different user of the pool, in turn (a real argon2id verification each time).
 * - refresh: every request presents a refresh token that was never used, minted beforehand through the auth service,
 *   so each one is a real successful rotation. A warm-up run measures the rate, then 1.5 times the tokens the timed
 *   run needs are minted; the run ends after the duration or, should they still run out, when they do.
 * Each scenario starts with an untimed warm-up of WARMUP_SECONDS.
 * Any non-2xx answer or connection error counts as an error. p50/p95/p99 come from every response's own latency.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { AddressInfo } from 'node:net';
import autocannon, { type Result } from 'autocannon';
import { eq, like } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { companies } from '../src/features/companies/companies.table.ts';
import { groupMembers, groups } from '../src/features/groups/groups.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { seedDemoData } from '../src/seed/demo.ts';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const EXTRA_USERS = Number(process.env.BENCH_USERS ?? 200);
const WARMUP_SECONDS = 2;
const PASSWORD = 'Bench#Pass2026';

type Row = {
  scenario: string;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  note?: string;
};

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs one autocannon scenario and measures every response's latency itself (autocannon has no p95). */
async function run(
  scenario: string,
  url: string,
  request: { path: string; body: () => string | undefined },
  options: { seconds?: number; limit?: number } = {},
): Promise<Row> {
  const latencies: number[] = [];
  let exhausted = false;
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: options.seconds ?? DURATION_SECONDS,
    timeout: 30,
    ...(options.limit ? { maxOverallRequests: options.limit } : {}),
    requests: [
      {
        method: 'POST',
        path: request.path,
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => {
          const body = request.body();
          if (body === undefined) exhausted = true;
          // Out of tokens (should not happen with maxOverallRequests): send one that fails, so it is counted.
          return { ...req, body: body ?? '{"refreshToken":"exhausted"}' };
        },
      },
    ],
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
  const result = await new Promise<Result>((resolve) => instance.on('done', resolve));
  latencies.sort((a, b) => a - b);
  const requests = latencies.length;
  const errors = result.non2xx + result.errors + result.timeouts;
  return {
    scenario,
    requests,
    seconds: result.duration,
    rps: requests / result.duration,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    errors,
    ...(exhausted ? { note: 'ran out of refresh tokens before the end' } : {}),
    ...(errors > 0 ? { note: `status codes: ${JSON.stringify(result.statusCodeStats)}` } : {}),
  };
}

function printTable(rows: Row[]): void {
  const header = ['scenario', 'requests', 'seconds', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'];
  const lines = rows.map((r) => [
    r.scenario,
    String(r.requests),
    r.seconds.toFixed(1),
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    r.p99.toFixed(1),
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
  for (const r of rows) if (r.note) console.log(`${r.scenario}: ${r.note}`);
}

async function seedBenchUsers(database: Database): Promise<string[]> {
  const db = database.db;
  const [supplier] = await db.select().from(companies).where(eq(companies.name, 'Demo Supplier'));
  const [group] = await db.select().from(groups).where(eq(groups.companyId, supplier!.id));
  // One hash for all: the login still verifies it in full every time.
  const passwordHash = await hashPassword(PASSWORD);
  const emails = Array.from({ length: EXTRA_USERS }, (_, i) => `bench${String(i).padStart(4, '0')}@bench.example.com`);
  const now = new Date();
  for (let i = 0; i < emails.length; i += 100) {
    const rows = await db
      .insert(users)
      .values(
        emails.slice(i, i + 100).map((email, j) => ({
          email,
          companyId: supplier!.id,
          firstName: 'Bench',
          lastName: `User ${i + j}`,
          passwordHash,
          emailVerifiedAt: now,
          passwordChangedAt: now,
        })),
      )
      .returning({ id: users.id });
    await db.insert(groupMembers).values(rows.map((r) => ({ groupId: group!.id, userId: r.id })));
  }
  return emails;
}

async function main(): Promise<void> {
  const name = `portal_bench_${randomBytes(6).toString('hex')}`;
  const target = new URL(BASE_URL);
  target.pathname = `/${name}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  let database: Database | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let dropped = false;
  const cleanup = async () => {
    if (dropped) return;
    dropped = true;
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  process.once('SIGINT', () => {
    void cleanup().finally(() => process.exit(130));
  });

  try {
    database = await openDatabase({ url: target.toString(), dataDir: '' });
    await seedDemoData(database.db);
    const emails = await seedBenchUsers(database);

    const config = loadConfig({
      DATABASE_URL: target.toString(),
      PUBLIC_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'silent',
      WEB_DIST: '/nonexistent',
      DEMO_DATA: 'false',
    });
    app = await buildApp({ config, database, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    console.log(
      `Auth bench: ${CONNECTIONS} connections, ${DURATION_SECONDS} s per scenario, PostgreSQL database ${name}, ` +
        `Node ${process.version}, ${availableParallelism()} CPUs, ${emails.length} bench users`,
    );

    let next = 0;
    const loginRequest = {
      path: '/api/users/login',
      body: () => JSON.stringify({ login: emails[next++ % emails.length], password: PASSWORD }),
    };
    await run('login warm-up', url, loginRequest, { seconds: WARMUP_SECONDS });
    const login = await run('login', url, loginRequest);

    // Fresh sessions, minted through the service as a login would, 40 at a time.
    const rows = await database.db.select().from(users).where(like(users.email, '%@bench.example.com'));
    let minted = 0;
    const mint = async (count: number): Promise<string[]> => {
      const tokens: string[] = [];
      for (let i = 0; i < count; i += 40) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(40, count - i) }, () =>
            app!.services.auth.issueSession(rows[minted++ % rows.length]!),
          ),
        );
        for (const set of batch) tokens.push(set.refresh_token);
      }
      return tokens;
    };
    const refreshRequest = (tokens: string[]) => {
      let used = 0;
      return {
        path: '/api/users/refreshToken',
        body: () => (used < tokens.length ? JSON.stringify({ refreshToken: tokens[used++] }) : undefined),
      };
    };
    const warmTokens = await mint(CONNECTIONS * 20);
    const warm = await run('refresh warm-up', url, refreshRequest(warmTokens), {
      seconds: WARMUP_SECONDS,
      limit: warmTokens.length,
    });
    const needed = Math.max(CONNECTIONS * 20, Math.ceil(warm.rps * DURATION_SECONDS * 1.5));
    const started = performance.now();
    const tokens = await mint(needed);
    console.log(
      `Minted ${tokens.length} refresh tokens in ${((performance.now() - started) / 1000).toFixed(1)} s (warm-up rate ${warm.rps.toFixed(0)}/s)`,
    );
    const refresh = await run('refresh', url, refreshRequest(tokens), { limit: tokens.length });
    console.log('');
    printTable([login, refresh]);
  } finally {
    await cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
