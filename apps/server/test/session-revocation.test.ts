import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const permissions = (token: string) => t.app.inject({ url: '/api/users/permissions', headers: bearer(token) });

describe('an access token dies with its session', () => {
  it('carries the session id', async () => {
    const tokens = await login(t.app);
    expect(decodeJwt(tokens.access_token).sid).toEqual(expect.any(String));
  });

  it('stops working at logout, before it expires, while other sessions go on', async () => {
    const first = await login(t.app);
    const second = await login(t.app);
    expect((await permissions(first.access_token)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/users/logout', payload: { refreshToken: first.refresh_token } });
    const refused = await permissions(first.access_token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('auth.unauthenticated');
    expect((await permissions(second.access_token)).statusCode).toBe(200);
  });

  it('stops working when a rotated refresh token is replayed (the session is revoked)', async () => {
    const tokens = await login(t.app);
    const rotated = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: tokens.refresh_token },
    });
    const fresh = rotated.json().token.access_token as string;
    expect((await permissions(fresh)).statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: tokens.refresh_token },
    });
    expect((await permissions(fresh)).statusCode).toBe(401);
  });
});
