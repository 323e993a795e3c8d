/**
 * Issue 16's EDIFACT findings through the API: heavy work runs on the CPU pool with a time limit while the server
 * keeps answering, CONTRL of many messages with one reference stays small, and hostile directory zips (a bomb, a junk
 * directory, deep nesting) are refused without touching the directory in use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { readFileSync } from 'node:fs';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';
import { nestedZip, zipBomb, zipOf } from './zip-bomb.ts';

const UNB = "UNA:+.? 'UNB+UNOC:3+5412345000013:14+4012345500004:14+261116:1000+REF0001'";
const ORDER = (ref: string, number: string) =>
  `UNH+${ref}+ORDERS:D:96A:UN:EAN008'BGM+220+${number}+9'DTM+137:20261116:102'NAD+BY+5412345000013::9'` +
  `NAD+SU+4012345500004::9'LIN+1++4000862141404:EN'QTY+21:48'UNS+S'UNT+9+${ref}'`;
const interchange = (messages: string[]) => `${UNB}${messages.join('')}UNZ+${messages.length}+REF0001'`;

let t: TestApp;
let user: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ env: { EDIFACT_SHIPPED_DIRECTORIES: 'true' } });
  user = (await login(t.app)).access_token;
  admin = (await login(t.app, { login: 'admin@demo.example.com', password: 'Admin#Demo2026' })).access_token;
});
afterAll(() => t.close());

const post = (app: TestApp['app'], url: string, token: string, content: string) =>
  app.inject({ method: 'POST', url, headers: bearer(token), payload: { content } });
const upload = (bytes: Buffer) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/edifact/directories',
    headers: { ...bearer(admin), 'content-type': 'application/zip' },
    payload: bytes,
  });
const directories = async () =>
  (await t.app.inject({ url: '/api/admin/edifact/directories', headers: bearer(admin) })).json().directories as {
    name: string;
    segments: number;
    importedAt: string;
  }[];

describe('CPU-heavy requests run off the event loop', () => {
  it('answers /api/health again and again while a 10 MB validation is running', async () => {
    const messages: string[] = [];
    let size = 0;
    for (let i = 1; size < 9.5 * 1024 * 1024; i++) {
      const m = ORDER(String(i), `PO${i}`);
      messages.push(m);
      size += m.length;
    }
    const order: string[] = [];
    const tasksBefore = t.app.services.cpu.completed();
    const validation = post(t.app, '/api/validation/edifact', user, interchange(messages)).then((res) => {
      order.push('validation');
      return res;
    });
    for (let i = 0; i < 5; i++) {
      const health = await t.app.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(200);
      order.push('health');
    }
    const res = await validation;
    expect(res.statusCode).toBe(200);
    expect(res.json().messages.length).toBe(messages.length);
    expect(order).toEqual(['health', 'health', 'health', 'health', 'health', 'validation']);
    // It ran on the pool's threads, not on the event loop that answered the health checks.
    expect(t.app.services.cpu.completed()).toBe(tasksBefore + 1);
  });

  it('stops a task over its time limit with request.processing_limit and goes on serving', async () => {
    const strict = await createTestApp({ env: { CPU_TASK_TIMEOUT_MS: '1', CPU_QUEUE_WAIT_MS: '60000' } });
    try {
      const token = (await login(strict.app)).access_token;
      const big = interchange(Array.from({ length: 20_000 }, (_, i) => ORDER(String(i + 1), `PO${i}`)));
      const res = await post(strict.app, '/api/validation/edifact', token, big);
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'request.processing_limit', data: { reason: 'time' } });
      const contrl = await post(strict.app, '/api/validation/edifact/contrl', token, big);
      expect(contrl.json().error.code).toBe('request.processing_limit');
      expect((await strict.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('a task that waits for a thread', () => {
  it('is not charged its wait: queued behind one stopped at its limit, it runs and answers', async () => {
    const strict = await createTestApp({
      env: { CPU_TASK_TIMEOUT_MS: '500', CPU_QUEUE_WAIT_MS: '60000', CPU_THREADS: '1' },
    });
    try {
      const token = (await login(strict.app)).access_token;
      const big = interchange(Array.from({ length: 40_000 }, (_, i) => ORDER(String(i + 1), `PO${i}`)));
      const small = interchange([ORDER('1', 'PO-SMALL')]);
      // One thread: the large file takes it and is stopped after its 500 ms; the small one waits for it (longer than
      // 500 ms, and a new thread's start) and is then given its own 500 ms, which it needs a few of.
      const large = post(strict.app, '/api/validation/edifact', token, big);
      // The large one's body is read and handed to the pool first.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const asked = Date.now();
      const second = await post(strict.app, '/api/validation/edifact', token, small);
      const waited = Date.now() - asked;
      const first = await large;
      expect(first.json().error).toMatchObject({ code: 'request.processing_limit', data: { reason: 'time' } });
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json().messages).toHaveLength(1);
      // What the test is about: its answer came later than its own limit after it was asked.
      expect(waited).toBeGreaterThan(500);
    } finally {
      await strict.close();
    }
  });
});

describe('CONTRL of many messages that share one reference (finding 1)', () => {
  it('answers 8,000 messages with reference 1 with a report that grows with the input, not its square', async () => {
    const input = interchange(Array.from({ length: 8000 }, () => "UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'UNT+3+1'"));
    const res = await post(t.app, '/api/validation/edifact/contrl', user, input);
    expect(res.statusCode).toBe(200);
    expect(res.body.startsWith('UNA') || res.body.startsWith('UNB')).toBe(true);
    // A few segments per rejected message at most; the quadratic report was 53 MB for 4,000 messages.
    expect(res.body.length).toBeLessThan(input.length * 4);
  });
});

describe('directory uploads an attacker shapes', () => {
  it('refuses a 1 MB zip whose entries all point at one member that inflates to 1 GB, keeping D96A', async () => {
    const before = await directories();
    const bomb = await zipBomb(1024 * 1024 * 1024, 64);
    expect(bomb.length).toBeLessThan(1.2 * 1024 * 1024);
    const res = await upload(bomb);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'file', code: 'zipTooLarge' }]);
    expect(await directories()).toEqual(before);
  });

  it('refuses zips nested deeper than a UNECE distribution', async () => {
    const res = await upload(nestedZip(6));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'file', code: 'zipTooLarge' }]);
  });

  it('refuses a zip that holds no whole directory and changes nothing (finding 4)', async () => {
    const before = await directories();
    expect(before.map((d) => d.name)).toEqual(['D01B', 'D96A']);
    const junk = zipOf([{ name: 'EDSD.96A', bytes: Buffer.from('not a directory file at all') }]);
    const res = await upload(junk);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'file', code: 'directoryIncomplete' }]);
    expect(await directories()).toEqual(before);
    // D96A still checks: a message without its mandatory BGM is still an error of the specification level.
    const check = await post(
      t.app,
      '/api/validation/edifact',
      user,
      interchange([ORDER('1', 'PO1').replace("BGM+220+PO1+9'", '').replace('UNT+9', 'UNT+8')]),
    );
    expect(check.json().findings).toContainEqual(
      expect.objectContaining({ code: 'EDI_MANDATORY_SEGMENT_MISSING', level: 'specification' }),
    );
  });

  it('replaces a directory whole with a good upload, and validation uses the new import', async () => {
    const [before] = (await directories()).filter((d) => d.name === 'D96A');
    const res = await upload(readFileSync(shippedDirectoryZips.D96A));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'D96A', segments: before?.segments });
    const [after] = (await directories()).filter((d) => d.name === 'D96A');
    expect(after?.importedAt).not.toBe(before?.importedAt);
    const ok = await post(t.app, '/api/validation/edifact', user, interchange([ORDER('1', 'PO1')]));
    expect(ok.json().summary.errors).toBe(0);
  });
});
