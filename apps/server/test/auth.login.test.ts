import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { companies } from '../src/features/companies/companies.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { bearer, createTestApp, DEMO_USER, type TestApp } from './helper.ts';

let t: TestApp;
let passwordHash: string;
const PASSWORD = 'Str0ng#Pass';

beforeAll(async () => {
  t = await createTestApp();
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(() => t.close());

// Every test speaks from its own address, so the per-address limit of one test never throttles another.
let lastIp = 0;
const nextIp = () => `10.0.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

const postLogin = (payload: unknown, remoteAddress = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/users/login', payload: payload as object, remoteAddress });

/** A fresh user (own company unless one is given), so limits and status changes stay inside one test. */
async function addUser(options: { companyId?: string; verified?: boolean; disabled?: boolean } = {}) {
  const now = t.clock.now();
  let companyId = options.companyId;
  if (!companyId) {
    const [company] = await t.database.db
      .insert(companies)
      .values({ name: `Co ${randomUUID()}` })
      .returning();
    companyId = company!.id;
  }
  const email = `u-${randomUUID()}@example.com`;
  const [row] = await t.database.db
    .insert(users)
    .values({
      email,
      companyId,
      firstName: 'Test',
      lastName: 'User',
      passwordHash,
      emailVerifiedAt: options.verified === false ? null : now,
      disabledAt: options.disabled ? now : null,
    })
    .returning();
  return { id: row!.id, email, companyId, creds: { login: email, password: PASSWORD } };
}

async function addCompany(values: Partial<typeof companies.$inferInsert>) {
  const [company] = await t.database.db
    .insert(companies)
    .values({ name: `Co ${randomUUID()}`, ...values })
    .returning();
  return company!.id;
}

describe('POST /api/users/login', () => {
  it('returns the description login result for valid credentials', async () => {
    const res = await postLogin(DEMO_USER);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['keycloakResponse', 'success', 'vindicationInfoResponse']);
    expect(body.success).toBe(true);
    expect(body.keycloakResponse.token).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 300,
      refresh_expires_in: 1800,
      token_type: 'Bearer',
    });
    expect(body.vindicationInfoResponse).toEqual({
      hoursDelayLogout: 0,
      vindicationInfo: {
        loginStatus: 'OK',
        restrictionWaitTime: null,
        restrictionWorkingTime: null,
        restrictionWorkingStart: null,
        restrictionMessage: null,
      },
    });
  });

  it('issues an access token that verifies with the published key and carries exp, sub, roles and groups', async () => {
    const res = await postLogin(DEMO_USER);
    const token: string = res.json().keycloakResponse.token.access_token;
    const jwks = (await t.app.inject({ url: '/api/.well-known/jwks.json' })).json();
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
      currentDate: t.clock.now(),
    });
    expect(protectedHeader.alg).toBe('EdDSA');
    const me = (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(token) })).json();
    expect(payload.sub).toBe(me.id);
    expect(payload.exp).toBe(Math.floor(t.clock.now().getTime() / 1000) + 300);
    expect(payload.roles).toEqual(['ETTN_CZ', 'chat-ai', 'ettn']);
    expect(payload.groups).toEqual(['Administrators']);
    expect(payload.email).toBe(DEMO_USER.login);

    const admin = await postLogin({ login: 'admin@demo.example.com', password: 'Admin#Demo2026' });
    expect(decodeJwt(admin.json().keycloakResponse.token.access_token)).toMatchObject({ roles: ['admin'], groups: [] });
  });

  it('does not verify with a tampered payload', async () => {
    const token: string = (await postLogin(DEMO_USER)).json().keycloakResponse.token.access_token;
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, roles: ['admin'] })).toString('base64url')}.${s}`;
    const jwks = (await t.app.inject({ url: '/api/.well-known/jwks.json' })).json();
    await expect(jwtVerify(forged, createLocalJWKSet(jwks), { currentDate: t.clock.now() })).rejects.toThrow();
    const res = await t.app.inject({ url: '/api/users/permissions', headers: bearer(forged) });
    expect(res.statusCode).toBe(401);
  });

  it('matches the e-mail regardless of case and surrounding spaces', async () => {
    const res = await postLogin({ login: '  USER@Demo.Example.COM ', password: DEMO_USER.password });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const wrong = await postLogin({ login: DEMO_USER.login, password: 'Wrong#Pass1' });
    const unknown = await postLogin({ login: `nobody-${randomUUID()}@example.com`, password: 'Wrong#Pass1' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        success: false,
        error: { code: 'auth.invalid_credentials', message: expect.any(String) },
        requestId: expect.any(String),
      });
    }
    const strip = (b: { requestId: string }) => ({ ...b, requestId: undefined });
    expect(strip(wrong.json())).toEqual(strip(unknown.json()));
    expect(Object.keys(wrong.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
  });

  it('refuses missing or empty fields with 400 naming them', async () => {
    const none = await postLogin({});
    expect(none.statusCode).toBe(400);
    expect(none.json().error.code).toBe('validation.failed');
    expect(none.json().error.details).toEqual(
      expect.arrayContaining([
        { field: 'login', code: 'required' },
        { field: 'password', code: 'required' },
      ]),
    );
    const noPassword = await postLogin({ login: DEMO_USER.login, password: '' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error.details).toEqual([{ field: 'password', code: 'required' }]);
    const noLogin = await postLogin({ login: '   ', password: 'x' });
    expect(noLogin.statusCode).toBe(400);
    expect(noLogin.json().error.details).toEqual([{ field: 'login', code: 'required' }]);
  });
});

describe('company status at login', () => {
  it('refuses a BLOCKED company with the restriction fields', async () => {
    const start = new Date('2026-11-01T08:00:00Z');
    const companyId = await addCompany({
      loginStatus: 'BLOCKED',
      restrictionWaitTime: 45,
      restrictionWorkingTime: 30,
      restrictionWorkingStart: start,
      restrictionMessage: 'Overdue invoices: contact accounting',
    });
    const u = await addUser({ companyId });
    const res = await postLogin(u.creds);
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('auth.account_blocked');
    expect(body.keycloakResponse).toBeUndefined();
    expect(body.vindicationInfoResponse).toEqual({
      hoursDelayLogout: 0,
      vindicationInfo: {
        loginStatus: 'BLOCKED',
        restrictionWaitTime: 45,
        restrictionWorkingTime: 30,
        restrictionWorkingStart: start.toISOString(),
        restrictionMessage: 'Overdue invoices: contact accounting',
      },
    });
  });

  it('blocks an existing session as soon as the company is blocked', async () => {
    const u = await addUser();
    const token = (await postLogin(u.creds)).json().keycloakResponse.token;
    await t.database.db.update(companies).set({ loginStatus: 'BLOCKED' }).where(eq(companies.id, u.companyId));
    const call = await t.app.inject({ url: '/api/users/permissions', headers: bearer(token.access_token) });
    expect(call.statusCode).toBe(403);
    expect(call.json().error.code).toBe('auth.account_blocked');
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: token.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json()).toEqual({ success: false, error: 'auth.account_blocked' });
  });

  it('refuses SYS_DISABLE with auth.system_disabled', async () => {
    const companyId = await addCompany({ loginStatus: 'SYS_DISABLE' });
    const u = await addUser({ companyId });
    const res = await postLogin(u.creds);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'auth.system_disabled' },
      vindicationInfoResponse: { hoursDelayLogout: 0, vindicationInfo: { loginStatus: 'SYS_DISABLE' } },
    });
  });

  it('OK_LIMITED: works in windows of the working time, blocked in the pause, then a new window', async () => {
    const companyId = await addCompany({
      loginStatus: 'OK_LIMITED',
      restrictionWorkingTime: 30,
      restrictionWaitTime: 15,
      restrictionMessage: 'Limited',
    });
    const u = await addUser({ companyId });
    const windowStart = t.clock.now();

    const first = await postLogin(u.creds);
    expect(first.statusCode).toBe(200);
    expect(first.json().success).toBe(true);
    expect(first.json().vindicationInfoResponse).toEqual({
      hoursDelayLogout: 30 * 60,
      vindicationInfo: {
        loginStatus: 'OK_LIMITED',
        restrictionWaitTime: 15,
        restrictionWorkingTime: 30,
        restrictionWorkingStart: windowStart.toISOString(),
        restrictionMessage: 'Limited',
      },
    });

    // A later login in the same window gets the seconds that are left.
    t.clock.advance(28 * 60);
    const later = await postLogin(u.creds);
    expect(later.statusCode).toBe(200);
    expect(later.json().vindicationInfoResponse.hoursDelayLogout).toBe(2 * 60);
    expect(later.json().vindicationInfoResponse.vindicationInfo.restrictionWorkingStart).toBe(
      windowStart.toISOString(),
    );
    const session = later.json().keycloakResponse.token;

    // Into the pause: login is blocked, the running session's calls get 403 and its refresh is refused.
    t.clock.advance(3 * 60);
    const paused = await postLogin(u.creds);
    expect(paused.statusCode).toBe(403);
    expect(paused.json()).toMatchObject({
      success: false,
      error: { code: 'auth.account_blocked' },
      vindicationInfoResponse: {
        hoursDelayLogout: 0,
        vindicationInfo: { loginStatus: 'BLOCKED', restrictionWaitTime: 15, restrictionWorkingTime: 30 },
      },
    });
    const call = await t.app.inject({ url: '/api/users/permissions', headers: bearer(session.access_token) });
    expect(call.statusCode).toBe(403);
    expect(call.json().error.code).toBe('auth.account_blocked');
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: session.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json().success).toBe(false);

    // Past the pause (30 + 15 minutes after the start): a new window begins at this login.
    t.clock.advance(15 * 60);
    const again = await postLogin(u.creds);
    expect(again.statusCode).toBe(200);
    expect(again.json().vindicationInfoResponse.hoursDelayLogout).toBe(30 * 60);
    expect(again.json().vindicationInfoResponse.vindicationInfo.restrictionWorkingStart).toBe(
      t.clock.now().toISOString(),
    );
    // The session of the earlier window was revoked in the pause and stays refused.
    const stale = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: session.refresh_token },
    });
    expect(stale.statusCode).toBe(401);
  });

  it('OK_LIMITED: a session that sits out the pause and refreshes afterwards starts a new window, not an endless one', async () => {
    const companyId = await addCompany({
      loginStatus: 'OK_LIMITED',
      restrictionWorkingTime: 20,
      restrictionWaitTime: 10,
    });
    const u = await addUser({ companyId });
    let token = (await postLogin(u.creds)).json().keycloakResponse.token;
    const refresh = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/users/refreshToken',
        payload: { refreshToken: token.refresh_token },
      });
      if (res.statusCode === 200) token = res.json().token;
      return res;
    };
    t.clock.advance(19 * 60);
    expect((await refresh()).statusCode).toBe(200);
    // No call during the pause (minutes 20 to 30); the refresh token is still within its idle time at minute 31.
    t.clock.advance(12 * 60);
    const afterPause = await refresh();
    expect(afterPause.statusCode).toBe(200);
    // That refresh opened a window of 20 minutes: 21 minutes later the company is in its pause again.
    t.clock.advance(21 * 60);
    const next = await refresh();
    expect(next.statusCode).toBe(401);
    expect(next.json()).toEqual({ success: false, error: 'auth.account_blocked' });
  });
});

describe('account state at login', () => {
  it('refuses an unverified user with auth.email_not_verified and the id to resend to', async () => {
    const u = await addUser({ verified: false });
    const res = await postLogin(u.creds);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      error: { code: 'auth.email_not_verified', data: { id: u.id } },
    });
    expect(res.json().keycloakResponse).toBeUndefined();
    // Without the right password nothing about the account is told.
    const wrong = await postLogin({ ...u.creds, password: 'Wrong#Pass1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toEqual({ code: 'auth.invalid_credentials', message: expect.any(String) });
  });

  it('tells a disabled user so only with the right password', async () => {
    const u = await addUser({ disabled: true });
    const right = await postLogin(u.creds);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({ success: false, error: { code: 'auth.account_disabled' } });
    const wrong = await postLogin({ ...u.creds, password: 'Wrong#Pass1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('auth.invalid_credentials');
  });
});

describe('brute-force limits', () => {
  // The policy in full (waits, the account lock, the unlock link): security-lockout.test.ts and decision 0009.
  it('slows an account at one address after 5 failures, even with the right password, until the wait passes', async () => {
    const u = await addUser();
    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      const res = await postLogin({ ...u.creds, password: `Wrong#Pass${i}` }, ip);
      expect(res.statusCode).toBe(401);
    }
    const sixth = await postLogin(u.creds, ip);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ success: false, error: { code: 'auth.too_many_attempts' } });
    expect(sixth.json().keycloakResponse).toBeUndefined();
    const retryAfter = Number(sixth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The e-mail in another case is the same account.
    const upper = await postLogin({ ...u.creds, login: u.email.toUpperCase() }, ip);
    expect(upper.statusCode).toBe(429);

    t.clock.advance(retryAfter);
    const after = await postLogin(u.creds, ip);
    expect(after.statusCode).toBe(200);
    expect(after.json().success).toBe(true);

    const events = await t.database.db
      .select({ event: auditLog.event, ip: auditLog.ip })
      .from(auditLog)
      .where(eq(auditLog.login, u.email.toLowerCase()));
    const count = (event: string) => events.filter((e) => e.event === event).length;
    expect(count('auth.login_failed')).toBe(5);
    expect(count('auth.login_throttled')).toBe(2);
    expect(count('auth.login_succeeded')).toBe(1);
    expect(events.filter((e) => e.event === 'auth.login_failed').every((e) => e.ip === ip)).toBe(true);
  });

  it('a success clears the failures of an account', async () => {
    const u = await addUser();
    for (let i = 0; i < 4; i++) expect((await postLogin({ ...u.creds, password: 'Wrong#Pass1' })).statusCode).toBe(401);
    expect((await postLogin(u.creds)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await postLogin({ ...u.creds, password: 'Wrong#Pass1' })).statusCode).toBe(401);
    expect((await postLogin(u.creds)).statusCode).toBe(200);
  });

  it('throttles an address after 50 failures across different accounts, for accounts new to it', async () => {
    const ip = nextIp();
    for (let i = 0; i < 50; i++) {
      const res = await postLogin({ login: `probe-${i}-${randomUUID()}@example.com`, password: 'Guess#Pass1' }, ip);
      expect(res.statusCode).toBe(401);
    }
    const u = await addUser();
    const blocked = await postLogin(u.creds, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('auth.too_many_attempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await postLogin(u.creds, nextIp())).statusCode).toBe(200);

    const [failed] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.ip, ip), eq(auditLog.event, 'auth.login_failed')));
    expect(failed!.n).toBe(50);
    const [throttled] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.ip, ip), eq(auditLog.event, 'auth.login_throttled')));
    expect(throttled!.n).toBe(1);
  });
});
