import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { users } from '../src/features/users/users.table.ts';
import { bearer, createTestApp, DEMO_USER, login, type TestApp } from './helper.ts';
import { linkIn, startSmtpReceiver } from './smtp.ts';

// Issue 16, items 6 and 10: sessions that outlive their admin, caching of tokens, stale reset links.

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const SECOND_ADMIN = { login: 'second-admin@demo.example.com', password: 'Second#Admin2026' };
const RESET_PREFIX = 'http://portal.test/set-password?token=';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url } });
  const now = new Date();
  await t.database.db.insert(users).values({
    email: SECOND_ADMIN.login,
    firstName: 'Sam',
    lastName: 'Second',
    roles: ['admin'],
    passwordHash: await hashPassword(SECOND_ADMIN.password),
    emailVerifiedAt: now,
    passwordChangedAt: now,
  });
  for (const row of await t.database.db.select({ id: users.id, email: users.email }).from(users))
    ids[row.email] = row.id;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('an impersonation ends with its admin (item 6)', () => {
  it('stops the access token and the refresh token once the impersonating admin is disabled', async () => {
    const admin = (await login(t.app, ADMIN)).access_token;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      headers: bearer(admin),
      payload: { userId: ids[DEMO_USER.login] },
    });
    expect(started.statusCode, started.body).toBe(200);
    const session = started.json().keycloakResponse.token as { access_token: string; refresh_token: string };
    expect(
      (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(session.access_token) })).statusCode,
    ).toBe(200);

    const second = (await login(t.app, SECOND_ADMIN)).access_token;
    try {
      await disableThenCheck(session, second);
    } finally {
      await t.database.db.update(users).set({ disabledAt: null }).where(eq(users.id, ids[ADMIN.login]!));
    }
  });

  async function disableThenCheck(session: { access_token: string; refresh_token: string }, second: string) {
    const disabled = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${ids[ADMIN.login]}/disable`,
      headers: bearer(second),
    });
    expect(disabled.statusCode, disabled.body).toBe(200);

    const me = await t.app.inject({ url: '/api/users/getUserData', headers: bearer(session.access_token) });
    expect(me.statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: session.refresh_token },
    });
    expect(refreshed.statusCode).toBe(401);
    expect(refreshed.json()).toEqual({ success: false, error: 'auth.token_invalid' });

    // Enabling the admin again does not bring the ended impersonation back.
    await t.app.inject({ method: 'POST', url: `/api/admin/users/${ids[ADMIN.login]}/enable`, headers: bearer(second) });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: session.refresh_token },
    });
    expect(again.statusCode).toBe(401);
    // The impersonated user's own sessions were never the admin's to end.
    expect((await login(t.app)).access_token).toBeTruthy();
  }

  it('ends the impersonation for good when the admin is disabled, even if re-enabled before its tokens are used', async () => {
    const admin = (await login(t.app, ADMIN)).access_token;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      headers: bearer(admin),
      payload: { userId: ids[DEMO_USER.login] },
    });
    const session = started.json().keycloakResponse.token as { access_token: string; refresh_token: string };
    const second = (await login(t.app, SECOND_ADMIN)).access_token;
    const url = `/api/admin/users/${ids[ADMIN.login]}`;
    expect((await t.app.inject({ method: 'POST', url: `${url}/disable`, headers: bearer(second) })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: 'POST', url: `${url}/enable`, headers: bearer(second) })).statusCode).toBe(
      200,
    );
    const me = await t.app.inject({ url: '/api/users/getUserData', headers: bearer(session.access_token) });
    expect(me.statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: session.refresh_token },
    });
    expect(refreshed.statusCode).toBe(401);
  });

  it('ends an impersonation when the admin loses the admin role', async () => {
    const admin = (await login(t.app, ADMIN)).access_token;
    const session = (
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/impersonate',
        headers: bearer(admin),
        payload: { userId: ids['clerk@demo.example.com'] },
      })
    ).json().keycloakResponse.token as { access_token: string; refresh_token: string };
    await t.database.db.update(users).set({ roles: [] }).where(eq(users.id, ids[ADMIN.login]!));
    try {
      expect(
        (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(session.access_token) })).statusCode,
      ).toBe(401);
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/users/refreshToken',
        payload: { refreshToken: session.refresh_token },
      });
      expect(refreshed.statusCode).toBe(401);
    } finally {
      await t.database.db
        .update(users)
        .set({ roles: ['admin'] })
        .where(eq(users.id, ids[ADMIN.login]!));
    }
  });
});

describe('answers with tokens or one-time links are never cached (item 10)', () => {
  it('sends Cache-Control: no-store with login, refresh, legacy login, impersonation and the e-mail log', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/login', payload: DEMO_USER });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');

    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: res.json().keycloakResponse.token.refresh_token },
    });
    expect(refresh.statusCode).toBe(200);
    expect(refresh.headers['cache-control']).toBe('no-store');

    // The old system's login answers a registration token (or a refusal): neither may be kept.
    const legacy = await t.app.inject({
      method: 'POST',
      url: '/api/legacy/login',
      payload: { login: 'nobody-legacy', password: 'whatever' },
    });
    expect(legacy.headers['cache-control']).toBe('no-store');

    const admin = (await login(t.app, SECOND_ADMIN)).access_token;
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      headers: bearer(admin),
      payload: { userId: ids['clerk@demo.example.com'] },
    });
    expect(started.statusCode).toBe(200);
    expect(started.headers['cache-control']).toBe('no-store');

    const emails = await t.app.inject({ url: '/api/admin/emails', headers: bearer(admin) });
    expect(emails.statusCode).toBe(200);
    expect(emails.headers['cache-control']).toBe('no-store');
  });
});

describe('a reset link issued before a password change (item 10)', () => {
  it('stops working once the password was changed in the profile', async () => {
    const email = 'buyer@demo.example.com';
    const password = 'Buyer#Demo2026';
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/users/sendResetPasswordEmail',
      payload: { email },
    });
    expect(asked.statusCode).toBe(200);
    const token = new URL(linkIn(await receiver.waitFor(email, /password/i), RESET_PREFIX)).searchParams.get('token')!;

    t.clock.advance(60);
    const session = (await login(t.app, { login: email, password })).access_token;
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/users/changePassword',
      headers: bearer(session),
      payload: { currentPassword: password, newPassword: 'Changed#Buyer2026' },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    const check = await t.app.inject({ method: 'POST', url: '/api/users/checkActionToken', payload: { token } });
    expect(check.json()).toMatchObject({ valid: false });
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/users/setPassword',
      payload: { token, password: 'Attacker#Pass2026' },
    });
    expect(used.statusCode).toBe(400);
    expect(used.json().error.code).toBe('auth.link_invalid');
    expect((await login(t.app, { login: email, password: 'Changed#Buyer2026' })).access_token).toBeTruthy();
  });
});
