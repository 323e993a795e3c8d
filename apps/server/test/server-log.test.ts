import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { freshDatabase } from './helper.ts';

// What a person reads in the server log: the API's requests at info, the web app's files only at debug, and each
// stored e-mail's link on a line of its own (no SMTP_URL), not inside an escaped JSON string.

type LogRecord = { level: number; msg: string; reqId?: string; req?: { url: string }; links?: string[] };

const webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Portal</title>');
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'assets', 'app.js'), 'console.log(1)');

const opened: { app: FastifyInstance; database: Database }[] = [];
afterAll(async () => {
  for (const { app, database } of opened) {
    await app.close();
    await database.close();
  }
});
afterEach(() => vi.restoreAllMocks());

async function serverLoggingAt(level: 'info' | 'debug') {
  const records: LogRecord[] = [];
  const database = await freshDatabase();
  const config = loadConfig({
    PUBLIC_URL: 'http://portal.test',
    LOG_LEVEL: level,
    WEB_DIST: webDist,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-test-')),
    EDIFACT_SHIPPED_DIRECTORIES: 'false',
  });
  const app = await buildApp({
    config,
    database,
    logStream: { write: (line: string) => void records.push(JSON.parse(line) as LogRecord) },
  });
  await app.ready();
  opened.push({ app, database });
  /** The log records of one request, by the id the log gives it. */
  const linesOf = (url: string) => {
    const ids = new Set(records.filter((r) => r.req?.url === url).map((r) => r.reqId));
    return records.filter((r) => r.reqId !== undefined && ids.has(r.reqId));
  };
  return { app, records, linesOf };
}

describe('the server log', () => {
  it('logs the API at info and the web app files (assets, pages) only at debug', async () => {
    const { app, linesOf } = await serverLoggingAt('info');
    expect((await app.inject({ url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/documents/in' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect(linesOf('/assets/app.js')).toEqual([]);
    expect(linesOf('/documents/in')).toEqual([]);
    expect(linesOf('/api/health').map((r) => [r.level, r.msg])).toEqual([
      [30, 'incoming request'],
      [30, 'request completed'],
    ]);
    // A file that is not there is still a line worth reading.
    await app.inject({ url: '/api/nothing-here' });
    expect(linesOf('/api/nothing-here').length).toBeGreaterThan(0);
  });

  it('still has the files at debug, for whoever asks for them', async () => {
    const { app, linesOf } = await serverLoggingAt('debug');
    await app.inject({ url: '/assets/app.js' });
    expect(linesOf('/assets/app.js').map((r) => [r.level, r.msg])).toEqual([
      [20, 'incoming request'],
      [20, 'request completed'],
    ]);
  });

  it("prints a stored e-mail's link on a line of its own, ready to copy", async () => {
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    const { app, records } = await serverLoggingAt('info');
    const email = `log-${randomUUID()}@example.com`;
    const registered = await app.inject({
      method: 'POST',
      url: '/api/users/register',
      payload: { firstName: 'Lou', lastName: 'Log', email, password: 'Str0ng#Pass', locale: 'en' },
    });
    expect(registered.statusCode).toBe(200);
    vi.restoreAllMocks();

    const lines = printed.join('').split('\n');
    const link = lines.find((line) => line.startsWith('http://portal.test/api/users/verifyEmail?token='));
    expect(link).toMatch(/^http:\/\/portal\.test\/api\/users\/verifyEmail\?token=[\w%-]+$/);
    expect(lines).toContain(`E-mail to ${email} stored (no SMTP_URL): Confirm your e-mail address`);
    // The link works as printed.
    const opened = await app.inject({ url: link!.slice('http://portal.test'.length) });
    expect(opened.headers.location).toBe('/login?msgType=success&msgText=emailVerified');
    // The JSON log names it too, as a field rather than inside an escaped text.
    expect(records.find((r) => r.msg === 'E-mail stored (no SMTP_URL)')?.links).toEqual([link]);
  });
});
