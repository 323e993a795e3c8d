import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDirectory, openDirectoryStore, shippedDirectoryZips } from '@portal/edifact/node';
import type { Database } from '../src/db/client.ts';
import { seedDemoData } from '../src/seed/demo.ts';
import { createDatabaseBlobStore } from '../src/storage/database-blob-store.ts';
import { bearer, createTestApp, freshDatabase, login, type TestApp } from './helper.ts';
import { startS3 } from './s3.ts';

// The imported UN/EDIFACT directories live in the blob store (decision 0019): two servers on one database, each with
// its own DATA_DIR (its local copy), see the same directories.

const ORDER = [
  "UNA:+.? '",
  "UNB+UNOC:3+5412345000013:14+4012345500004:14+261116:1000+REF0001'",
  "UNH+1+ORDERS:D:96A:UN:EAN008'",
  "BGM+220+PO12345+9'",
  "DTM+137:20261116:102'",
  "NAD+BY+5412345000013::9'",
  "NAD+SU+4012345500004::9'",
  "LIN+1++4000862141404:EN'",
  "QTY+21:48'",
  "UNS+S'",
  "UNT+9+1'",
  "UNZ+1+REF0001'",
].join('');

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };

let database: Database;
let first: TestApp;
let second: TestApp;
let secondDataDir: string;
const opened: TestApp[] = [];

const dataDir = () => mkdtempSync(join(tmpdir(), 'portal-test-'));
const tokenOf = async (t: TestApp) => ({
  admin: (await login(t.app, ADMIN)).access_token,
  user: (await login(t.app)).access_token,
});
const validate = (t: TestApp, token: string) =>
  t.app.inject({ method: 'POST', url: '/api/validation/edifact', headers: bearer(token), payload: { content: ORDER } });
const directories = async (t: TestApp, token: string) =>
  (await t.app.inject({ url: '/api/admin/edifact/directories', headers: bearer(token) })).json().directories as {
    name: string;
    source: string;
    importedAt: string;
  }[];
const upload = (t: TestApp, token: string, filename: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/edifact/directories?filename=${filename}`,
    headers: { ...bearer(token), 'content-type': 'application/zip' },
    payload: readFileSync(shippedDirectoryZips.D96A),
  });
const storedKeys = async (prefix: string) => {
  const keys: string[] = [];
  for await (const entry of createDatabaseBlobStore(database.db).list(prefix)) keys.push(entry.key);
  return keys;
};

beforeAll(async () => {
  database = await freshDatabase();
  await seedDemoData(database.db);
  first = await createTestApp({ database, seed: false });
  secondDataDir = dataDir();
  second = await createTestApp({ database, seed: false, dataDir: secondDataDir });
  opened.push(first, second);
});
afterAll(async () => {
  for (const t of opened) await t.close();
  await database.close();
});

describe('UN/EDIFACT directories shared through the blob store', () => {
  it('uses a directory imported through one server for validation on the other', async () => {
    const a = await tokenOf(first);
    const b = await tokenOf(second);
    const before = await validate(second, b.user);
    expect(before.statusCode).toBe(200);
    expect(before.json().ok).toBe(false);
    expect(await directories(second, b.admin)).toEqual([]);

    const imported = await upload(first, a.admin, 'd96a.zip');
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({ name: 'D96A', source: 'upload:d96a.zip' });
    expect(await storedKeys('edifact/directories/D96A/')).toHaveLength(1);

    const after = await validate(second, b.user);
    expect(after.json()).toMatchObject({ ok: true, summary: { errors: 0 } });
    expect(await directories(second, b.admin)).toEqual([imported.json()]);
    expect(existsSync(join(secondDataDir, 'edifact', 'D96A', 'tables.json'))).toBe(true);
  });

  it('replaces a directory imported again on every server, keeping one bundle of it in the store', async () => {
    const a = await tokenOf(first);
    const b = await tokenOf(second);
    const again = await upload(second, b.admin, 'again.zip');
    expect(again.statusCode).toBe(200);
    expect(await storedKeys('edifact/directories/D96A/')).toHaveLength(1);
    expect(await directories(first, a.admin)).toEqual([again.json()]);
    expect((await validate(first, a.user)).json().ok).toBe(true);
  });

  it('refills a deleted local copy from the store, and fills a new server at its start', async () => {
    const b = await tokenOf(second);
    await rm(join(secondDataDir, 'edifact'), { recursive: true, force: true });
    expect((await validate(second, b.user)).json()).toMatchObject({ ok: true, summary: { errors: 0 } });
    expect(existsSync(join(secondDataDir, 'edifact', 'D96A', 'tables.json'))).toBe(true);

    const thirdDataDir = dataDir();
    const third = await createTestApp({ database, seed: false, dataDir: thirdDataDir });
    opened.push(third);
    expect(existsSync(join(thirdDataDir, 'edifact', 'D96A', 'meta.json'))).toBe(true);
    const c = await tokenOf(third);
    expect((await directories(third, c.admin)).map((d) => d.source)).toEqual(['upload:again.zip']);
    expect((await validate(third, c.user)).json().ok).toBe(true);
  });

  it('skips a blob under its keys that is not a directory bundle, and goes on validating', async () => {
    const store = createDatabaseBlobStore(database.db);
    await store.put('edifact/directories/D01B/999999999999999-00000000.gz', Buffer.from('not gzip'), {
      contentType: 'application/gzip',
    });
    await store.put('edifact/directories-changed', Buffer.from('a change'), { contentType: 'text/plain' });
    const b = await tokenOf(second);
    expect((await validate(second, b.user)).json().ok).toBe(true);
    expect((await directories(second, b.admin)).map((d) => d.name)).toEqual(['D96A']);
  });
});

describe('UN/EDIFACT directories shared through an S3 bucket', () => {
  it('uses a directory imported through one server for validation on the other', async () => {
    const s3 = await startS3('portal-edifact', 'tenant/');
    const own = await freshDatabase();
    await seedDemoData(own.db);
    const one = await createTestApp({ database: own, seed: false, blobs: s3.store });
    const other = await createTestApp({ database: own, seed: false, blobs: s3.store });
    try {
      const a = await tokenOf(one);
      const b = await tokenOf(other);
      expect((await validate(other, b.user)).json().ok).toBe(false);
      const imported = await upload(one, a.admin, 'd96a.zip');
      expect(imported.statusCode).toBe(200);
      expect((await validate(other, b.user)).json()).toMatchObject({ ok: true, summary: { errors: 0 } });
      expect(await directories(other, b.admin)).toEqual([imported.json()]);
      const keys: string[] = [];
      for await (const entry of s3.store.list('edifact/')) keys.push(entry.key);
      expect(keys).toEqual([expect.stringMatching(/^edifact\/directories\/D96A\//), 'edifact/directories-changed']);
    } finally {
      await one.close();
      await other.close();
      await own.close();
      await s3.close();
    }
  });
});

describe('a DATA_DIR/edifact from before the blob store', () => {
  it('copies its directories into the store at start', async () => {
    const own = await freshDatabase();
    const legacy = dataDir();
    await importDirectory(shippedDirectoryZips.D96A, openDirectoryStore(join(legacy, 'edifact')));
    const t = await createTestApp({ database: own, dataDir: legacy });
    try {
      const keys: string[] = [];
      for await (const entry of createDatabaseBlobStore(own.db).list('edifact/directories/')) keys.push(entry.key);
      expect(keys).toEqual([expect.stringMatching(/^edifact\/directories\/D96A\/\d{15}-[0-9a-f]{8}\.gz$/)]);
      const { admin } = await tokenOf(t);
      expect((await directories(t, admin)).map((d) => [d.name, d.source])).toEqual([
        ['D96A', shippedDirectoryZips.D96A],
      ]);
    } finally {
      await t.close();
      await own.close();
    }
  });
});
