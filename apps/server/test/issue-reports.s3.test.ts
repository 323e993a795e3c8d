import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs } from '../src/storage/blobs.table.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';
import { startS3 } from './s3.ts';

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const PNG_HEAD = Buffer.from('89504e470d0a1a0a', 'hex');

let s3: Awaited<ReturnType<typeof startS3>>;
let t: TestApp;

beforeAll(async () => {
  s3 = await startS3('portal-issue-reports', 'files/');
  t = await createTestApp({ blobs: s3.store });
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

describe('issue-report attachments on the S3 store', () => {
  it('keeps the files in the bucket, not in the database, and serves them back byte for byte', async () => {
    // A PNG signature then noise: accepted as a PNG, and big enough to arrive in several chunks.
    const png = Buffer.concat([PNG_HEAD, randomBytes(300_000)]);
    const form = new FormData();
    form.append('type', 'technical');
    form.append('priority', 'minor');
    form.append('subject', 'Stored on S3');
    form.append('description', 'The attachment lives in the bucket.');
    form.append('files', new Blob([png], { type: 'image/png' }), 'screen.png');
    const request = new Request('http://x', { method: 'POST', body: form });
    const user = (await login(t.app)).access_token;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/issue-reports',
      headers: { 'content-type': request.headers.get('content-type')!, ...bearer(user) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().id as string;

    const objects = [];
    for await (const entry of s3.store.list(`issue-reports/${id}/`)) objects.push(entry);
    expect(objects).toHaveLength(1);
    expect(objects[0]!.size).toBe(png.length);
    const [stored] = await t.database.db.select({ n: count() }).from(blobs);
    expect(stored!.n).toBe(0);

    const admin = (await login(t.app, ADMIN)).access_token;
    const list = (await t.app.inject({ url: '/api/admin/issue-reports', headers: bearer(admin) })).json();
    const report = list.items.find((r: { id: string }) => r.id === id);
    const download = await t.app.inject({
      url: `/api/admin/issue-reports/${id}/files/${report.files[0].id}`,
      headers: bearer(admin),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.rawPayload.equals(png)).toBe(true);
  });
});
