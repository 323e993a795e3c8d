/**
 * `npm run bench:abuse`: the pathological EDIFACT shapes of issue 16 at growing sizes, sent over HTTP to a real
 * server started as its own process (`src/main.ts`, PostgreSQL when BENCH_DATABASE_URL is set, else the embedded
 * PGlite), while a second loop asks `/api/health` every 20 ms. For each size it prints the request's time, the
 * server's peak RSS above its idle level (read from /proc while the request runs), and the slowest health answer
 * meanwhile, so linearity and responsiveness can be read off the table. BENCH_QUICK=1 runs the two smaller sizes.
 * Every loop is bounded; traffic goes to 127.0.0.1 only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssOf, startServerProcess, stopServerProcess } from '../test/server-process.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3917);
const BASE = `http://127.0.0.1:${PORT}`;
const QUICK = process.env.BENCH_QUICK === '1';

type Shape = { name: string; path: string; sizes: number[]; make(n: number): string };

const UNB = "UNA:+.? 'UNB+UNOC:3+5412345000013:14+4012345500004:14+261116:1000+REF0001'";
const SHAPES: Shape[] = [
  {
    name: 'CONTRL, N messages all with reference 1',
    path: '/api/validation/edifact/contrl',
    sizes: [1000, 4000, 16_000, 64_000],
    make: (n) => `${UNB}${"UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'UNT+3+1'".repeat(n)}UNZ+${n}+REF0001'`,
  },
  {
    name: "validate, LIN then N times SG25'",
    path: '/api/validation/edifact',
    sizes: [10_000, 40_000, 200_000, 1_000_000],
    make: (n) => `UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'LIN+1'${"SG25'".repeat(n)}UNT+3+1'`,
  },
  {
    name: "validate, N times AB' inside a message",
    path: '/api/validation/edifact',
    sizes: [40_000, 400_000, 2_000_000],
    make: (n) => `UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'${"AB'".repeat(n)}UNT+3+1'`,
  },
  {
    name: "validate, N bytes of '",
    path: '/api/validation/edifact',
    sizes: [100_000, 1_000_000, 10_000_000],
    make: (n) => "'".repeat(n),
  },
];

/** The server as `npm start` runs it, on PostgreSQL when BENCH_DATABASE_URL is set, else the embedded PGlite. */
const startServer = (dataDir: string) =>
  startServerProcess({
    port: PORT,
    env: {
      DATA_DIR: dataDir,
      ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    },
    timeoutSeconds: 60,
  });

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-abuse-'));
  const server = await startServer(dataDir);
  const pid = server.pid ?? 0;
  try {
    const login = await fetch(`${BASE}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'user@demo.example.com', password: 'User#Demo2026' }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
      .token.access_token;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    // Warm the pool's thread and the directories so the first row is not the start-up.
    await fetch(`${BASE}/api/validation/edifact`, { method: 'POST', headers, body: JSON.stringify({ content: UNB }) });
    await sleep(500);
    const idle = rssOf(pid);
    console.log(`\nserver pid ${pid}, idle RSS ${(idle / 1e6).toFixed(0)} MB\n`);
    console.log(
      '| shape | N | input | status | time (s) | peak RSS above idle (MB) | slowest /api/health meanwhile (ms) |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const shape of SHAPES) {
      for (const n of QUICK ? shape.sizes.slice(0, 2) : shape.sizes) {
        const content = shape.make(n);
        let done = false;
        let peak = rssOf(pid);
        let slowest = 0;
        const health = (async () => {
          for (let i = 0; !done && i < 10_000; i++) {
            const started = performance.now();
            await fetch(`${BASE}/api/health`);
            slowest = Math.max(slowest, performance.now() - started);
            peak = Math.max(peak, rssOf(pid));
            await sleep(20);
          }
        })();
        const started = performance.now();
        const res = await fetch(`${BASE}${shape.path}`, { method: 'POST', headers, body: JSON.stringify({ content }) });
        await res.arrayBuffer();
        const seconds = (performance.now() - started) / 1000;
        done = true;
        await health;
        peak = Math.max(peak, rssOf(pid));
        console.log(
          `| ${shape.name} | ${n} | ${(content.length / 1e6).toFixed(2)} MB | ${res.status} | ${seconds.toFixed(2)} | ` +
            `${((peak - idle) / 1e6).toFixed(0)} | ${slowest.toFixed(0)} |`,
        );
      }
    }
  } finally {
    await stopServerProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
