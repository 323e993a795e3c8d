import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { users } from '../src/features/users/users.table.ts';
import { bearer, createTestApp, DEMO_USER, login, type TestApp } from './helper.ts';

// A 2-second access token (the login tests cover the default 300 s); refresh tokens keep their own lifetimes.
// One app for the whole file: opening a fresh database is the costly part of a test file.
const ACCESS_TTL = 2;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ accessTtlSeconds: ACCESS_TTL });
});
afterAll(() => t.close());

type Tokens = Awaited<ReturnType<typeof login>>;

const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/refreshToken', payload: { refreshToken } });

/** Refreshes and fails the test unless it worked. */
async function rotate(tokens: Tokens): Promise<Tokens> {
  const res = await refresh(tokens.refresh_token);
  if (res.statusCode !== 200) throw new Error(`refresh failed: ${res.statusCode} ${res.body}`);
  return res.json().token;
}

const REFUSED = { success: false, error: 'auth.token_invalid' };

describe('POST /api/users/refreshToken', () => {
  it('rotates: returns the description refresh result with a new token set; the old refresh token is then refused', async () => {
    const first = await login(t.app);
    const res = await refresh(first.refresh_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      token: {
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        expires_in: ACCESS_TTL,
        refresh_expires_in: 1800,
        token_type: 'Bearer',
      },
    });
    const second = res.json().token as Tokens;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    const me = await t.app.inject({ url: '/api/users/getUserData', headers: bearer(second.access_token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(DEMO_USER.login);

    const again = await refresh(first.refresh_token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(REFUSED);
  });

  it('revokes the whole family when a rotated token is presented again', async () => {
    const a = await login(t.app);
    const b = await rotate(a);
    const c = await rotate(b);
    // An attacker replays a: the family ends, so the legitimate holder of c is refused too.
    expect((await refresh(a.refresh_token)).statusCode).toBe(401);
    const newest = await refresh(c.refresh_token);
    expect(newest.statusCode).toBe(401);
    expect(newest.json()).toEqual(REFUSED);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, DEMO_USER.login));
    const reuse = await t.database.db.select().from(auditLog).where(eq(auditLog.event, 'auth.refresh_reuse'));
    expect(reuse.some((e) => e.subjectUserId === user!.id)).toBe(true);
    // Other sessions of the same user are not affected.
    const other = await login(t.app);
    expect((await refresh(other.refresh_token)).statusCode).toBe(200);
  });

  it('refuses an unknown, empty or oversized token', async () => {
    expect((await refresh(randomUUID())).json()).toEqual(REFUSED);
    const empty = await refresh('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details).toEqual([{ field: 'refreshToken', code: 'required' }]);
    const big = await refresh('x'.repeat(513));
    expect(big.statusCode).toBe(400);
    expect(big.json().error.details).toEqual([{ field: 'refreshToken', code: 'tooLong' }]);
    const missing = await t.app.inject({ method: 'POST', url: '/api/users/refreshToken', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].field).toBe('refreshToken');
  });

  it('expires after 30 minutes without use', async () => {
    const a = await login(t.app);
    t.clock.advance(29 * 60);
    const b = await rotate(a);
    t.clock.advance(31 * 60);
    const res = await refresh(b.refresh_token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(REFUSED);
  });

  it('ends after 10 hours even when refreshed every 20 minutes', async () => {
    let tokens = await login(t.app);
    const start = t.clock.now().getTime();
    let rotations = 0;
    for (;;) {
      t.clock.advance(20 * 60);
      const res = await refresh(tokens.refresh_token);
      if (res.statusCode !== 200) {
        expect(res.json()).toEqual(REFUSED);
        break;
      }
      tokens = res.json().token;
      rotations++;
      // Near the end the idle lifetime is cut to what remains of the 10 hours.
      const left = Math.floor((start + 10 * 3600_000 - t.clock.now().getTime()) / 1000);
      expect(tokens.refresh_expires_in).toBe(Math.min(1800, left));
    }
    expect(rotations).toBe(29);
    expect(t.clock.now().getTime() - start).toBe(10 * 3600_000);
  });

  it('refuses the session after logout', async () => {
    const a = await login(t.app);
    const b = await rotate(a);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/users/logout',
      payload: { refreshToken: b.refresh_token },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    expect((await refresh(b.refresh_token)).json()).toEqual(REFUSED);
    // Logging out with nothing or an unknown token is harmless.
    expect((await t.app.inject({ method: 'POST', url: '/api/users/logout', payload: {} })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/users/logout', payload: { refreshToken: 'nope' } })).statusCode,
    ).toBe(200);
  });

  it('refuses a user disabled after login', async () => {
    const email = `disable-${randomUUID()}@example.com`;
    const password = 'Str0ng#Pass';
    await t.database.db.insert(users).values({
      email,
      firstName: 'Dis',
      lastName: 'Abled',
      passwordHash: await hashPassword(password),
      emailVerifiedAt: t.clock.now(),
    });
    const tokens = await login(t.app, { login: email, password });
    await t.database.db.update(users).set({ disabledAt: t.clock.now() }).where(eq(users.email, email));
    const res = await refresh(tokens.refresh_token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(REFUSED);
  });
});

describe('a short access token', () => {
  it('is refused once expired, and a refresh gives a working one', async () => {
    const tokens = await login(t.app);
    expect(tokens.expires_in).toBe(ACCESS_TTL);
    expect(
      (await t.app.inject({ url: '/api/users/permissions', headers: bearer(tokens.access_token) })).statusCode,
    ).toBe(200);
    t.clock.advance(ACCESS_TTL + 1);
    const expired = await t.app.inject({ url: '/api/users/permissions', headers: bearer(tokens.access_token) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('auth.unauthenticated');
    const res = await refresh(tokens.refresh_token);
    expect(res.statusCode).toBe(200);
    const renewed = await t.app.inject({
      url: '/api/users/permissions',
      headers: bearer(res.json().token.access_token),
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().permissions).toHaveLength(24);
  });
});
