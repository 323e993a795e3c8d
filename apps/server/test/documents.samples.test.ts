/**
 * The third-party sample corpus (`../shared/samples/edifact`: 100-odd files of other EDIFACT projects, good and
 * broken, never copied here) uploaded into an inbox: no file makes a 500, every interchange becomes documents (a
 * broken message as `error`), and a one-message file's original comes back byte for byte. Skipped when the corpus is
 * not there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedDirectoryZips } from '@portal/edifact/node';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const SAMPLES = fileURLToPath(new URL('../../../../shared/samples/edifact', import.meta.url));
const hasSamples = existsSync(SAMPLES);

let t: TestApp;
let user: string;

async function upload(name: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const request = new Request('http://x', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/api/documents/upload?direction=in',
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(user) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

describe.skipIf(!hasSamples)('the sample corpus uploaded into the inbox', () => {
  beforeAll(async () => {
    t = await createTestApp({
      env: { EDIFACT_DIRECTORIES_IMPORT: `${shippedDirectoryZips.D96A},${shippedDirectoryZips.D01B}` },
    });
    user = (await login(t.app)).access_token;
  });
  afterAll(() => t?.close());

  it('stores every interchange, refuses only what is not one, and keeps the originals', async () => {
    let documents = 0;
    let errors = 0;
    let sameBytes = 0;
    const answers = new Map<number, number>();
    for (const name of readdirSync(SAMPLES).sort()) {
      const content = readFileSync(`${SAMPLES}/${name}`);
      const res = await upload(name, content);
      answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
      expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      if (res.statusCode !== 200) {
        expect(res.json().error.code, name).toBe('documents.not_interchange');
        continue;
      }
      const [file] = res.json().files as { duplicate: boolean; documents: { id: string; status: string }[] }[];
      if (file!.duplicate) continue;
      documents += file!.documents.length;
      errors += file!.documents.filter((d) => d.status === 'error').length;
      if (file!.documents.length === 1) {
        const original = await t.app.inject({
          method: 'GET',
          url: `/api/documents/${file!.documents[0]!.id}/original?encoding=original`,
          headers: bearer(user),
        });
        expect(original.statusCode, name).toBe(200);
        expect(original.rawPayload.equals(content), name).toBe(true);
        sameBytes += 1;
      }
    }
    expect(answers.get(200)).toBeGreaterThan(80);
    expect(documents).toBeGreaterThan(100);
    // The corpus holds broken messages, stored with their findings rather than dropped.
    expect(errors).toBeGreaterThan(0);
    expect(sameBytes).toBeGreaterThan(30);
    const total = await t.app.inject({
      method: 'GET',
      url: '/api/documents?direction=in&includeTotal=true',
      headers: bearer(user),
    });
    expect(total.json().total).toBe(documents);
  }, 300_000);
});
