import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { startServerProcess, stopServerProcess } from './server-process.ts';

/**
 * Issue 11's crash test: a real server process (src/main.ts, on its own PostgreSQL database) is killed with SIGKILL
 * while its job worker ingests an interchange of thousands of messages; after a restart the worker finishes it and
 * every message is there exactly once, both copies (decision 0024). Needs PostgreSQL: TEST_DATABASE_URL (e.g.
 * postgres://postgres@127.0.0.1:5432/postgres); without it the test is skipped, since a PGlite data folder is not
 * meant to survive a SIGKILL of its one process mid-write.
 */
const URL_ = process.env.TEST_DATABASE_URL;
const PORT = 3950 + Math.floor(Math.random() * 40);
const BASE = `http://127.0.0.1:${PORT}`;
const MESSAGES = 4000;
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';

function file(): string {
  const messages: string[] = [];
  for (let i = 1; i <= MESSAGES; i++) {
    const body = [
      `BGM+220+CRASH-${String(i).padStart(5, '0')}+9'`,
      "DTM+137:20261116:102'",
      `NAD+BY+${RETAILER}::9'`,
      `NAD+SU+${SUPPLIER}::9'`,
      "LIN+1++4000862141404:EN'",
      "QTY+21:48'",
      "UNS+S'",
    ];
    messages.push(`UNH+${i}+ORDERS:D:96A:UN:EAN008'`, ...body, `UNT+${body.length + 2}+${i}'`);
  }
  const unb = `UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+CRASH1'`;
  return ["UNA:+.? '", unb, ...messages, `UNZ+${MESSAGES}+CRASH1'`].join('\n');
}

describe.skipIf(!URL_)('a server killed in the middle of an ingest (needs TEST_DATABASE_URL)', () => {
  const name = `portal_crash_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-crash-'));
  let databaseUrl = '';
  let server: ChildProcess | undefined;
  let db: pg.Client;

  const start = () =>
    startServerProcess({
      port: PORT,
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        EDIFACT_SHIPPED_DIRECTORIES: 'false',
        EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A,
        // Every upload goes to the job, in small batches: the kill falls between two of them, or in one.
        DOCUMENTS_INLINE_MAX_BYTES: '0',
        DOCUMENTS_INGEST_BATCH_MESSAGES: '100',
        JOB_POLL_SECONDS: '1',
      },
    });

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: URL_ });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const target = new URL(URL_!);
    target.pathname = `/${name}`;
    databaseUrl = target.toString();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  }, 60_000);

  afterAll(async () => {
    await stopServerProcess(server, 'SIGKILL');
    await db?.end().catch(() => undefined);
    const admin = new pg.Client({ connectionString: URL_ });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('finishes the ingest after a restart, every message exactly once in the outbox and the inbox', async () => {
    server = await start();
    const login = await fetch(`${BASE}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' }),
    });
    const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
      .token.access_token;
    const form = new FormData();
    form.append('file', new Blob([file()], { type: 'application/edifact' }), 'crash.edi');
    const res = await fetch(`${BASE}/api/documents/upload?direction=out`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const { files } = (await res.json()) as { files: { interchangeId: string; queued: boolean }[] };
    expect(files[0]!.queued).toBe(true);
    const id = files[0]!.interchangeId;

    const progress = async () =>
      (
        await db.query<{ state: string; messages_done: number }>(
          'select state, messages_done from interchanges where id = $1',
          [id],
        )
      ).rows[0]!;
    // Killed once the worker has written some batches, and before it wrote the last.
    for (let i = 0; i < 6000 && (await progress()).messages_done === 0; i++) await sleep(20);
    await stopServerProcess(server, 'SIGKILL');
    const atKill = await progress();
    expect(atKill.state).toBe('queued');
    expect(atKill.messages_done).toBeGreaterThan(0);
    expect(atKill.messages_done).toBeLessThan(MESSAGES);

    // pg-boss fails a run whose worker died once its expiry (15 minutes for documents.ingest) has passed, and
    // retries it: the test takes that step itself (as pg-boss's maintenance would) instead of waiting.
    await db.query(
      `update pgboss.job set state = 'retry', start_after = now() where name = 'documents.ingest' and state = 'active'`,
    );
    server = await start();
    for (let i = 0; i < 3000 && (await progress()).state === 'queued'; i++) await sleep(100);
    expect(await progress()).toEqual({ state: 'done', messages_done: MESSAGES });

    for (const direction of ['out', 'in']) {
      const { rows } = await db.query<{ n: number; distinct_n: number; min: number; max: number }>(
        `select count(*)::int as n, count(distinct message_index)::int as distinct_n,
                min(message_index) as min, max(message_index) as max
         from documents where interchange_id = $1 and direction = $2`,
        [id, direction],
      );
      expect(rows[0]).toEqual({ n: MESSAGES, distinct_n: MESSAGES, min: 0, max: MESSAGES - 1 });
    }
    // Each outbox copy is linked to its inbox copy once, and has one history row.
    const { rows: links } = await db.query<{ n: number }>(
      `select count(*)::int as n from document_links l join documents d on d.id = l.from_id
       where d.interchange_id = $1 and l.kind = 'copy'`,
      [id],
    );
    expect(links[0]!.n).toBe(MESSAGES);
    const { rows: history } = await db.query<{ n: number }>(
      `select count(*)::int as n from document_status_history h join documents d on d.id = h.document_id
       where d.interchange_id = $1`,
      [id],
    );
    expect(history[0]!.n).toBe(2 * MESSAGES);
  }, 600_000);
});
