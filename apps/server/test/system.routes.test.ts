import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicConfigSchema } from '@portal/contracts';
import { createTestApp, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t.close());

describe('system endpoints', () => {
  it('reports health with a database check', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('publishes the Ed25519 public key that verifies access tokens', async () => {
    const res = await t.app.inject({ url: '/api/.well-known/jwks.json' });
    const key = res.json().keys[0];
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(key.d).toBeUndefined();
  });

  it('serves the public configuration without a login, in the shape of the contract', async () => {
    const res = await t.app.inject({ url: '/api/public-config' });
    expect(res.statusCode).toBe(200);
    expect(PublicConfigSchema.strict().parse(res.json())).toEqual({
      legacyEdiUrl: 'https://legacy-edi.example.com/',
      version: expect.any(String),
    });
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const schema = doc.paths['/api/public-config'].get.responses['200'].content['application/json'].schema;
    expect(schema.required).toEqual(['legacyEdiUrl', 'version']);
  });

  it('serves the OpenAPI document with the account endpoints', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/users/login',
        '/api/users/refreshToken',
        '/api/users/register',
        '/api/legacy/login',
      ]),
    );
  });

  it('answers unknown API routes with the error body and a request id', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'request.not_found' }, requestId: expect.any(String) });
  });

  it('sends a strict Content-Security-Policy', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('refuses a malformed JSON body with 400 and an oversized one with 413', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"login":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('request.malformed');
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { login: 'a'.repeat(2 * 1024 * 1024), password: 'x' },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('request.too_large');
  });
});
