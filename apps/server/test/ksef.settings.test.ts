import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import forge from 'node-forge';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

x509.cryptoProvider.set(webcrypto as never);

const KSEF = { login: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };
/** Demo KSeF's NIP (its VAT id PL7010002139). */
const NIP = '7010002139';

let t: TestApp;
let ksef: string;
let supplier: string;

const call = (method: 'GET' | 'PUT' | 'POST', url: string, token: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
const fields = (res: { json(): { error?: { details?: { field: string; code: string }[] } } }) =>
  (res.json().error?.details ?? []).map((d) => `${d.field}:${d.code}`);

/** A self-signed certificate carrying the NIP, as KSeF's TEST environment (and the simulator) accepts. */
async function selfSigned(nip = NIP) {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=Demo KSeF, 2.5.4.97=VATPL-${nip}, C=PL`,
    // Valid across the tests' clock (16 November 2026) and the real one.
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2036-01-01T00:00:00Z'),
    keys,
    signingAlgorithm: algorithm,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  return { certPem: cert.toString('pem'), keyPem };
}

/** An RSA certificate and key as a password-protected PKCS#12 file. */
function pkcs12(password: string): Buffer {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '02';
  cert.validity.notBefore = new Date('2026-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2036-01-01T00:00:00Z');
  const attrs = [{ name: 'commonName', value: 'Demo KSeF RSA' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, { algorithm: '3des' });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

async function upload(token: string, file: Buffer | string, password?: string) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(Buffer.from(file))]), 'cert.p12');
  if (password !== undefined) form.append('password', password);
  const request = new Request('http://x', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/api/company/ksef/certificate',
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(token) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

beforeAll(async () => {
  t = await createTestApp({ env: { KSEF_SIMULATOR_DELAY_MS: '0' } });
  ksef = (await login(t.app, KSEF)).access_token;
  supplier = (await login(t.app)).access_token;
});
afterAll(() => t.close());

describe('the company’s KSeF settings', () => {
  it('binds the demo-ksef company to the simulator with a TEST certificate of its NIP; the connection works at once', async () => {
    const bound = (await call('GET', '/api/company/ksef', ksef)).json();
    expect(bound).toMatchObject({ configured: true, nip: NIP, environment: 'simulator', authMethod: 'certificate' });
    expect(bound.certificate.subject).toContain(`VATPL-${NIP}`);
    const test = await call('POST', '/api/company/ksef/test', ksef);
    expect(test.json(), test.body).toEqual({ ok: true, code: null, message: null });
  });

  it('refuses a bad NIP with the field, and keeps a token it never answers back', async () => {
    const bad = await call('PUT', '/api/company/ksef', ksef, {
      nip: '1234567890',
      environment: 'simulator',
      authMethod: 'token',
    });
    expect(bad.statusCode).toBe(400);
    expect(fields(bad)).toEqual(['nip:invalidNip']);
    const custom = await call('PUT', '/api/company/ksef', ksef, {
      nip: NIP,
      environment: 'custom',
      authMethod: 'token',
    });
    expect(fields(custom)).toEqual(['baseUrl:required']);
    // The token method without a token, typed or kept, could never log in.
    const noToken = await call('PUT', '/api/company/ksef', ksef, {
      nip: NIP,
      environment: 'test',
      authMethod: 'token',
    });
    expect(fields(noToken)).toEqual(['token:required']);

    const secret = 'KSEF-TOKEN-SECRET-0123456789';
    const saved = await call('PUT', '/api/company/ksef', ksef, {
      nip: `${NIP.slice(0, 3)}-${NIP.slice(3)}`,
      environment: 'simulator',
      authMethod: 'token',
      token: secret,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      configured: true,
      nip: NIP,
      environment: 'simulator',
      baseUrl: 'http://portal.test/ksef-simulator/v2',
      hasToken: true,
      // Nothing received yet (ksef-receive.test.ts: the time of the last run once there was one).
      receivedAt: null,
    });
    expect(saved.body).not.toContain(secret);
    // At rest the token is sealed: the table holds no trace of it.
    const rows = await t.database.db.execute(sql`select token_sealed from ksef_settings`);
    const stored = JSON.stringify((rows as unknown as { rows: unknown[] }).rows);
    expect(stored).toMatch(/v1:/);
    expect(stored).not.toContain(secret);

    // Saving without a token keeps the one stored.
    const again = await call('PUT', '/api/company/ksef', ksef, { nip: NIP, environment: 'test', authMethod: 'token' });
    expect(again.json()).toMatchObject({
      environment: 'test',
      hasToken: true,
      baseUrl: 'https://api-test.ksef.mf.gov.pl/v2',
    });
  });

  it('takes a certificate as PEM or PKCS#12, names what is wrong with a file, and never shows the key', async () => {
    const { certPem, keyPem } = await selfSigned();
    const pem = await upload(ksef, `${certPem}\n${keyPem}`);
    expect(pem.statusCode, pem.body).toBe(200);
    expect(pem.json().certificate.subject).toContain(`VATPL-${NIP}`);
    expect(pem.body).not.toContain('PRIVATE KEY');

    const p12 = pkcs12('s3cret');
    expect(fields(await upload(ksef, p12, 'wrong'))).toEqual(['password:wrongPassword']);
    const good = await upload(ksef, p12, 's3cret');
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().certificate.subject).toContain('Demo KSeF RSA');

    expect(fields(await upload(ksef, 'not a certificate'))).toEqual(['file:unreadable']);
    expect(fields(await upload(ksef, certPem))).toEqual(['file:noKey']);
    const other = await selfSigned('5260001246');
    expect(fields(await upload(ksef, `${certPem}\n${other.keyPem}`))).toEqual(['file:keyMismatch']);
    expect(fields(await upload(ksef, Buffer.alloc(70 * 1024, 1)))).toEqual(['file:fileTooLarge']);
  });

  it('is refused to a company without the KSeF toggle and to a user without company administration', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const res = await call(
        method,
        '/api/company/ksef',
        supplier,
        method === 'PUT' ? { nip: NIP, environment: 'test', authMethod: 'token' } : undefined,
      );
      expect(res.statusCode).toBe(403);
    }
    expect((await upload(supplier, 'x')).statusCode).toBe(403);
  });
});

describe('Test the connection', () => {
  it('logs in to the simulator with the company’s certificate (XAdES), and says what KSeF answered when it cannot', async () => {
    const { certPem, keyPem } = await selfSigned();
    expect(
      (await call('PUT', '/api/company/ksef', ksef, { nip: NIP, environment: 'simulator', authMethod: 'certificate' }))
        .statusCode,
    ).toBe(200);
    expect((await upload(ksef, `${certPem}\n${keyPem}`)).statusCode).toBe(200);
    const ok = await call('POST', '/api/company/ksef/test', ksef);
    expect(ok.json(), ok.body).toEqual({ ok: true, code: null, message: null });

    // A certificate of another NIP cannot act for this one.
    const stranger = await selfSigned('5260001246');
    expect((await upload(ksef, `${stranger.certPem}\n${stranger.keyPem}`)).statusCode).toBe(200);
    const refused = (await call('POST', '/api/company/ksef/test', ksef)).json();
    expect(refused.ok).toBe(false);
    expect(refused.code).not.toBeNull();
  });
});
