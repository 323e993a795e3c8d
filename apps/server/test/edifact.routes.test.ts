import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDIFACT_DIRECTORY_ZIP_MAX_BYTES, EDIFACT_MAX_BYTES } from '@portal/contracts';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

// A small EANCOM 97 order written for these tests (not copied from any sample).
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

let t: TestApp;
let user: string;
let clerk: string;
let admin: string;
let unece: Server;
let uneceUrl: string;

beforeAll(async () => {
  unece = createServer((_req, res) => res.writeHead(404).end('not here'));
  await new Promise<void>((r) => unece.listen(0, '127.0.0.1', r));
  const address = unece.address();
  uneceUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/{lower}.zip`;
  t = await createTestApp({
    env: {
      EDIFACT_DIRECTORIES_IMPORT: `${shippedDirectoryZips.D96A},${shippedDirectoryZips.D01B}`,
      EDIFACT_DOWNLOAD_BASE_URL: uneceUrl,
    },
  });
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' })).access_token;
  admin = (await login(t.app, { login: 'admin@demo.example.com', password: 'Admin#Demo2026' })).access_token;
});
afterAll(async () => {
  await t.close();
  unece.close();
});

const validateAs = (token: string, content: string) =>
  t.app.inject({ method: 'POST', url: '/api/validation/edifact', headers: bearer(token), payload: { content } });

describe('POST /api/validation/edifact', () => {
  it('validates a correct EANCOM order: no errors, one message listed', async () => {
    const res = await validateAs(user, ORDER);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(body.summary).toMatchObject({ errors: 0, errorLevel: null, truncated: false });
    expect(body.messages).toEqual([
      {
        reference: '1',
        type: 'ORDERS',
        version: 'D96A',
        association: 'EAN008',
        documentNumber: 'PO12345',
        line: 1,
        status: 'valid',
      },
    ]);
  });

  it('reports a missing mandatory segment at the specification level with path, field name and line', async () => {
    const res = await validateAs(user, ORDER.replace("BGM+220+PO12345+9'", '').replace('UNT+9', 'UNT+8'));
    const body = res.json();
    expect(body.summary.errorLevel).toBe('specification');
    expect(body.findings).toContainEqual(
      expect.objectContaining({
        code: 'EDI_MANDATORY_SEGMENT_MISSING',
        severity: 'error',
        level: 'specification',
        messageType: 'ORDERS',
        version: 'D96A',
      }),
    );
  });

  it('reports a wrong UNT segment count and counts it with the specification notification', async () => {
    const body = (await validateAs(user, ORDER.replace('UNT+9', 'UNT+12'))).json();
    expect(body.summary.errorLevel).toBe('specification');
    expect(body.findings).toContainEqual(
      expect.objectContaining({ code: 'EDI_UNT_COUNT_MISMATCH', expected: '9', actual: '12' }),
    );
  });

  it('reports a code the EANCOM guide does not allow at the map level', async () => {
    const body = (await validateAs(user, ORDER.replace('BGM+220', 'BGM+999'))).json();
    expect(body.summary.errorLevel).toBe('map');
    expect(body.findings).toContainEqual(
      expect.objectContaining({
        code: 'EDI_INVALID_CODE',
        level: 'map',
        severity: 'error',
        path: 'BGM[1]/C002/1001',
        actual: '999',
        version: 'EAN008',
      }),
    );
  });

  it('refuses empty content with the field, and more than 10 MB with 413', async () => {
    const empty = await validateAs(user, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details).toEqual([{ field: 'content', code: 'required' }]);
    const big = await validateAs(user, 'A'.repeat(EDIFACT_MAX_BYTES + 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('request.too_large');
  });

  it('needs the document validation permission and a login', async () => {
    expect((await validateAs(clerk, ORDER)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/validation/edifact',
      payload: { content: ORDER },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('builds the CONTRL a partner would send back, as a download', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/validation/edifact/contrl',
      headers: bearer(user),
      payload: { content: ORDER.replace('UNT+9', 'UNT+12') },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('CONTRL.edi');
    expect(res.body).toMatch(/UNH\+[^+]+\+CONTRL:/);
    expect(res.body).toContain('UCI+REF0001');
  });
});

describe('admin: UN/EDIFACT directories', () => {
  it('lists the directories imported at start, to admins only', async () => {
    const res = await t.app.inject({ url: '/api/admin/edifact/directories', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const names = res.json().directories.map((d: { name: string }) => d.name);
    expect(names).toEqual(['D01B', 'D96A']);
    expect((await t.app.inject({ url: '/api/admin/edifact/directories', headers: bearer(user) })).statusCode).toBe(403);
  });

  it('refuses an upload that is not a zip, naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/edifact/directories',
      headers: { ...bearer(admin), 'content-type': 'application/zip' },
      payload: Buffer.from('not a zip'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'file', code: 'zipRequired' }]);
  });

  it('refuses a non-admin upload before reading the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/edifact/directories',
      headers: { ...bearer(user), 'content-type': 'application/zip' },
      payload: Buffer.from('not a zip'),
    });
    expect(res.statusCode).toBe(403);
  });

  it('describes the upload in the OpenAPI document: the zip itself, binary, with its size limit', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const body = doc.paths['/api/admin/edifact/directories'].post.requestBody;
    expect(Object.keys(body.content)).toEqual(['application/zip', 'application/octet-stream']);
    expect(body.content['application/zip'].schema).toMatchObject({
      type: 'string',
      format: 'binary',
      maxLength: EDIFACT_DIRECTORY_ZIP_MAX_BYTES,
    });
  });

  it('checks the directory name and reports a failed download as 502', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/edifact/directories/download',
      headers: bearer(admin),
      payload: { name: 'X1' },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/edifact/directories/download',
      headers: bearer(admin),
      payload: { name: 'D99Z' },
    });
    expect(missing.statusCode).toBe(502);
    expect(missing.json().error.code).toBe('edifact.directory_download_failed');
  });
});
