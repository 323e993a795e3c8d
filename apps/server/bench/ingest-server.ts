/**
 * The server of `npm run bench:ingest`: `src/main.ts` as it is (the same app, job workers and CPU pool), plus one
 * way in for files larger than the browser's 20 MB upload until the machines' inbound endpoint calls it: a line
 * `receive <direction> <user e-mail> <path>` on stdin hands the file, as a stream, to the documents service's
 * `receive` (decision 0024) as that user, and the answer is printed on stdout as one JSON line.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { seedDemoData } from '../src/seed/demo.ts';
import { users } from '../src/features/users/users.table.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
if (config.demoData) await seedDemoData(database.db);
const app = await buildApp({ config, database });
await app.listen({ port: config.port, host: config.host });

// BENCH_MEMORY_LOG=1: the main thread's heap beside the process's RSS every 5 s (which part of the RSS is whose).
if (process.env.BENCH_MEMORY_LOG === '1') {
  setInterval(() => {
    const m = process.memoryUsage();
    const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
    process.stderr.write(`memory: rss ${mb(m.rss)}, main heap ${mb(m.heapTotal)}, external ${mb(m.external)}\n`);
  }, 5000).unref();
}

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

for await (const line of createInterface({ input: process.stdin })) {
  const [command, direction, email, path] = line.trim().split(/\s+/);
  if (command === 'memory') {
    process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`);
    continue;
  }
  if (command !== 'receive' || (direction !== 'in' && direction !== 'out') || !email || !path) continue;
  try {
    const [user] = await database.db.select().from(users).where(eq(users.email, email)).limit(1);
    if (!user) throw new Error(`no user ${email}`);
    const result = await app.services.documents.receive(
      { userId: user.id, companyId: user.companyId },
      direction,
      basename(path),
      createReadStream(path, { highWaterMark: 256 * 1024 }),
      { maxBytes: 200 * 1024 * 1024 },
    );
    process.stdout.write(
      `${JSON.stringify({ ok: true, interchangeId: result.interchangeId, queued: result.queued })}\n`,
    );
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ ok: false, error: String(error) })}\n`);
  }
}
