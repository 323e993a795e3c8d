import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

/**
 * A client that goes away in the middle of a stream (an upload cut off, a zip download closed) costs its own request
 * only: the server keeps answering everyone else, nothing half-written stays, and no error escapes the request (an
 * unhandled rejection would fail this file, and end a real server process).
 */
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = '5901234000017';
const RETAILER = '4012345000016';

let t: TestApp;
let base: string;
let buyer: string;
let key: string;

const count = async (table: 'interchanges' | 'blobs') =>
  (
    (await t.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]!.n;

/** Sends the head of a request, then destroys the socket before the body ends. */
function cutOff(path: string, headers: Record<string, string>, head: Buffer, after: number): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}${path}`, { method: 'POST', headers });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(head);
    const filler = Buffer.alloc(64 * 1024, 0x41);
    let sent = 0;
    const more = () => {
      while (sent < after) {
        sent += filler.length;
        if (!req.write(filler)) return void req.once('drain', more);
      }
      req.destroy();
    };
    more();
  });
}

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_DIRECTORIES_IMPORT: shippedDirectoryZips.D96A } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  buyer = (await login(t.app, BUYER)).access_token;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/company/api-keys',
    headers: bearer(buyer),
    payload: { name: 'cut off' },
  });
  key = created.json().secret;
});
afterAll(() => t.close());

describe('a client that goes away mid-stream', () => {
  it('an inbound upload cut off after 2 MB stores nothing, and the server answers the next request', async () => {
    // The jobs the app started with (on PostgreSQL its own workers run them) store nothing while this test counts.
    await t.jobs.drain({ timeoutMs: 60_000 });
    const [interchanges, blobs] = [await count('interchanges'), await count('blobs')];
    const head = Buffer.from(`UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+CUT1'UNH+1+ORDERS:D:96A:UN:EAN008'`);
    await cutOff(
      '/api/documents/inbound',
      { 'x-api-key': key, 'content-type': 'application/edifact', 'transfer-encoding': 'chunked' },
      head,
      2 * 1024 * 1024,
    );
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    // The request's own failure settles after the socket closed, later on a busy machine: its blob, written as the
    // bytes came, is deleted then. A blob or interchange that stayed would keep the counts up for good.
    const settled = async () => (await count('interchanges')) === interchanges && (await count('blobs')) === blobs;
    for (const until = Date.now() + 10_000; !(await settled()) && Date.now() < until;) await sleep(100);
    expect(await count('interchanges')).toBe(interchanges);
    expect(await count('blobs')).toBe(blobs);
  });

  it('a zip download closed after its first bytes leaves the server answering', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/documents/inbound',
      headers: { 'x-api-key': key, 'content-type': 'application/edifact' },
      payload: `UNB+UNOC:3+${RETAILER}:14+${SUPPLIER}:14+261116:1000+ZIP1'UNH+1+ORDERS:D:96A:UN:EAN008'BGM+220+CUT-ZIP+9'DTM+137:20261116:102'NAD+BY+${RETAILER}::9'NAD+SU+${SUPPLIER}::9'UNT+6+1'UNZ+1+ZIP1'`,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json().documents[0].id as string;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${base}/api/documents/zip`, {
        method: 'POST',
        headers: { ...bearer(buyer), 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (error.message.includes('aborted') ? resolve() : reject(error)));
      req.end(JSON.stringify({ ids: [id, id] }));
    });
    await sleep(300);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/documents/zip',
      headers: bearer(buyer),
      payload: { ids: [id] },
    });
    expect(again.statusCode).toBe(200);
  });
});
