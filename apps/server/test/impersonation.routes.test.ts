import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type Claims = { sub: string; email: string; roles: string[]; impersonator?: { username: string } };
const claimsOf = (token: string): Claims =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Claims;

let t: TestApp;
let admin: string;
const ids: Record<string, string> = {};

async function impersonate(userId: string, token = admin) {
  return t.app.inject({ method: 'POST', url: '/api/admin/impersonate', headers: bearer(token), payload: { userId } });
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, ADMIN)).access_token;
  for (const row of await t.database.db.select({ id: users.id, email: users.email }).from(users))
    ids[row.email] = row.id;
  // The admin also holds a second role, which the impersonated session gets.
  await t.database.db
    .update(users)
    .set({ roles: ['admin', 'developer'] })
    .where(eq(users.email, ADMIN.login));
});
afterAll(() => t.close());

describe('POST /api/admin/impersonate', () => {
  it("gives a session of the user whose token names the admin and carries the admin's roles but admin", async () => {
    const res = await impersonate(ids['user@demo.example.com']!);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    const claims = claimsOf(body.keycloakResponse.token.access_token);
    expect(claims).toMatchObject({
      sub: ids['user@demo.example.com'],
      email: 'user@demo.example.com',
      impersonator: { username: ADMIN.login },
    });
    // The user's own role (the help assistant, from the demo seed) and the admin's other role.
    expect(claims.roles).toEqual(['ETTN_CZ', 'chat-ai', 'developer', 'ettn']);

    const token = body.keycloakResponse.token.access_token as string;
    const me = (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(token) })).json();
    expect(me).toMatchObject({
      email: 'user@demo.example.com',
      firstName: 'Uma',
      roles: ['chat-ai', 'ettn', 'ETTN_CZ', 'developer'],
    });
    const perms = (await t.app.inject({ url: '/api/users/permissions', headers: bearer(token) })).json();
    expect(perms.permissions).toContain('REPORT_ISSUE');

    // Admin routes refuse the impersonated session, including another impersonation.
    expect((await t.app.inject({ url: '/api/admin/companies', headers: bearer(token) })).statusCode).toBe(403);
    expect((await impersonate(ids['buyer@demo.example.com']!, token)).statusCode).toBe(403);

    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.event, 'auth.impersonation_started'),
          eq(auditLog.subjectUserId, ids['user@demo.example.com']!),
        ),
      );
    expect(entry).toMatchObject({ actorUserId: ids[ADMIN.login], login: ADMIN.login });
  });

  it('keeps the impersonator through refresh', async () => {
    const tokens = (await impersonate(ids['clerk@demo.example.com']!)).json().keycloakResponse.token;
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: tokens.refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
    const claims = claimsOf(refreshed.json().token.access_token);
    expect(claims).toMatchObject({
      sub: ids['clerk@demo.example.com'],
      impersonator: { username: ADMIN.login },
      roles: ['ETTN_CZ', 'developer', 'ettn'],
    });
  });

  it('refuses admins, oneself, disabled and unverified users with the reason', async () => {
    const [unverified] = await t.database.db
      .insert(users)
      .values({ email: 'unverified@example.com', firstName: 'U', lastName: 'V', companyId: null })
      .returning({ id: users.id });
    const [disabled] = await t.database.db
      .insert(users)
      .values({
        email: 'disabled@example.com',
        firstName: 'D',
        lastName: 'S',
        emailVerifiedAt: new Date(),
        disabledAt: new Date(),
      })
      .returning({ id: users.id });
    const [otherAdmin] = await t.database.db
      .insert(users)
      .values({
        email: 'admin2@example.com',
        firstName: 'A',
        lastName: 'T',
        emailVerifiedAt: new Date(),
        roles: ['admin'],
      })
      .returning({ id: users.id });
    const cases: [string, string][] = [
      [otherAdmin!.id, 'admin'],
      [ids[ADMIN.login]!, 'self'],
      [disabled!.id, 'disabled'],
      [unverified!.id, 'unverified'],
    ];
    for (const [id, reason] of cases) {
      const res = await impersonate(id);
      expect(res.statusCode, reason).toBe(409);
      expect(res.json().error, reason).toMatchObject({ code: 'admin.impersonation_refused', data: { reason } });
    }
  });

  it("refuses a user whose company is blocked with the company's status", async () => {
    const retailer = (
      await t.app.inject({ url: '/api/admin/companies?search=retailer', headers: bearer(admin) })
    ).json().items[0];
    const blocked = {
      loginStatus: 'BLOCKED',
      restrictionWaitTime: 0,
      restrictionWorkingTime: 0,
      restrictionMessage: 'Unpaid',
    };
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/companies/${retailer.id}/status`,
      headers: bearer(admin),
      payload: blocked,
    });
    const res = await impersonate(ids[BUYER.login]!);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('auth.account_blocked');
    const ok = { loginStatus: 'OK', restrictionWaitTime: 0, restrictionWorkingTime: 0, restrictionMessage: null };
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/companies/${retailer.id}/status`,
      headers: bearer(admin),
      payload: ok,
    });
  });

  it('answers 404 for an unknown user, 400 for a bad id, 403 to non-admins and 401 without a token', async () => {
    expect((await impersonate(UNKNOWN)).statusCode).toBe(404);
    const bad = await impersonate('nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('userId');
    const user = (await login(t.app)).access_token;
    expect((await impersonate(ids[CLERK.login]!, user)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/admin/impersonate',
      payload: { userId: ids[CLERK.login] },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /api/users/endImpersonation', () => {
  it('ends the impersonated session and audits it; the admin session goes on', async () => {
    const tokens = (await impersonate(ids['user@demo.example.com']!)).json().keycloakResponse.token;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/endImpersonation',
      headers: bearer(tokens.access_token),
      payload: { refreshToken: tokens.refresh_token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: tokens.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/admin/companies', headers: bearer(admin) })).statusCode).toBe(200);

    const audit = (
      await t.app.inject({ url: '/api/admin/audit?event=auth.impersonation_ended', headers: bearer(admin) })
    ).json();
    expect(audit.items[0]).toMatchObject({
      actor: { id: ids[ADMIN.login], email: ADMIN.login },
      subject: { id: ids['user@demo.example.com'], email: 'user@demo.example.com' },
    });
    expect(audit.items[0].details.revokedSessions).toBeGreaterThanOrEqual(1);
  });

  it('ends it without the refresh token too', async () => {
    const tokens = (await impersonate(ids[CLERK.login]!)).json().keycloakResponse.token;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/endImpersonation',
      headers: bearer(tokens.access_token),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: tokens.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it("does not touch the user's own sessions", async () => {
    const own = await login(t.app);
    const tokens = (await impersonate(ids['user@demo.example.com']!)).json().keycloakResponse.token;
    // A foreign refresh token (the user's own session) is ignored.
    await t.app.inject({
      method: 'POST',
      url: '/api/users/endImpersonation',
      headers: bearer(tokens.access_token),
      payload: { refreshToken: own.refresh_token },
    });
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: own.refresh_token },
    });
    expect(refresh.statusCode).toBe(200);
  });

  it('refuses a caller who is not impersonated, bad input and no token', async () => {
    const user = (await login(t.app)).access_token;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/endImpersonation',
      headers: bearer(user),
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('auth.not_impersonating');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/users/endImpersonation',
      headers: bearer(user),
      payload: { refreshToken: 5 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('refreshToken');
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/users/endImpersonation', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});
