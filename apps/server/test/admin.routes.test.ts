import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_PERMISSIONS } from '@portal/contracts';
import { bearer, createTestApp, DEMO_USER, login, type TestApp } from './helper.ts';

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type Details = { field: string; code: string }[];
const fieldsOf = (body: { error?: { details?: Details } }) => (body.error?.details ?? []).map((d) => d.field);

let t: TestApp;
let admin: string;
let user: string;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
async function call(method: Method, url: string, token: string | undefined, payload?: object) {
  return t.app.inject({ method, url, ...(token ? { headers: bearer(token) } : {}), ...(payload ? { payload } : {}) });
}

let supplierId: string;
let retailerId: string;
let userId: string;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, ADMIN)).access_token;
  user = (await login(t.app)).access_token;
  const companies = (await call('GET', '/api/admin/companies?search=demo', admin)).json();
  supplierId = companies.items.find((c: { name: string }) => c.name === 'Demo Supplier').id;
  retailerId = companies.items.find((c: { name: string }) => c.name === 'Demo Retailer').id;
  const users = (await call('GET', '/api/admin/users?search=demo.example.com', admin)).json();
  userId = users.items.find((u: { email: string }) => u.email === DEMO_USER.login).id;
  adminId = users.items.find((u: { email: string }) => u.email === ADMIN.login).id;
});
afterAll(() => t.close());

describe('admin routes: who may call them', () => {
  const routes: [Method, string, object?][] = [
    ['GET', '/api/admin/companies'],
    ['GET', `/api/admin/companies/${UNKNOWN}`],
    ['POST', '/api/admin/companies', { name: 'X' }],
    ['PATCH', `/api/admin/companies/${UNKNOWN}`, { name: 'X' }],
    [
      'PUT',
      `/api/admin/companies/${UNKNOWN}/status`,
      { loginStatus: 'OK', restrictionWaitTime: 0, restrictionWorkingTime: 0, restrictionMessage: null },
    ],
    ['PUT', `/api/admin/companies/${UNKNOWN}/toggles`, { toggles: [] }],
    ['PUT', `/api/admin/companies/${UNKNOWN}/overdue-payment`, { overduePayment: true }],
    ['GET', '/api/admin/users'],
    ['GET', `/api/admin/users/${UNKNOWN}`],
    ['POST', '/api/admin/users', { email: 'x@example.com' }],
    ['POST', `/api/admin/users/${UNKNOWN}/verify`],
    ['POST', `/api/admin/users/${UNKNOWN}/disable`],
    ['POST', `/api/admin/users/${UNKNOWN}/enable`],
    ['POST', `/api/admin/users/${UNKNOWN}/send-reset`],
    ['PUT', `/api/admin/users/${UNKNOWN}/roles`, { roles: [] }],
    ['GET', '/api/admin/emails'],
    ['GET', '/api/admin/audit'],
  ];

  it('answers 401 without a token', async () => {
    for (const [method, url, payload] of routes) {
      const res = await call(method, url, undefined, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('answers 403 to non-admins, even with bad input', async () => {
    const clerk = (await login(t.app, CLERK)).access_token;
    for (const token of [user, clerk]) {
      for (const [method, url, payload] of routes) {
        const res = await call(method, url, token, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error.code).toBe('auth.forbidden');
      }
    }
  });

  it('answers 404 for unknown ids and 400 for malformed ones', async () => {
    for (const [method, url, payload] of routes.filter(([, u]) => u.includes(UNKNOWN))) {
      const valid = url.endsWith('/status')
        ? { loginStatus: 'OK', restrictionWaitTime: 0, restrictionWorkingTime: 0, restrictionMessage: null }
        : url.endsWith('/roles')
          ? { roles: ['developer'] }
          : payload;
      const res = await call(method, url, admin, valid);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('resource.not_found');
      const bad = await call(method, url.replace(UNKNOWN, 'nope'), admin, valid);
      expect(bad.statusCode, `${method} ${url}`).toBe(400);
      expect(fieldsOf(bad.json())).toContain('id');
    }
  });
});

describe('admin companies', () => {
  it('lists by name with search and a stable cursor', async () => {
    const all = (await call('GET', '/api/admin/companies', admin)).json();
    const names = all.items.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(all.nextCursor).toBeNull();
    const supplier = all.items.find((c: { id: string }) => c.id === supplierId);
    expect(supplier).toMatchObject({ vatId: 'PL5260001246', loginStatus: 'OK', overduePayment: false, userCount: 2 });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/admin/companies?limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await call('GET', url, admin)).json();
      expect(page.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.items.map((c: { name: string }) => c.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(names);

    const found = (await call('GET', '/api/admin/companies?search=de811907', admin)).json();
    expect(found.items.map((c: { name: string }) => c.name)).toEqual(['Demo Retailer']);
    const none = (await call('GET', '/api/admin/companies?search=%25_', admin)).json();
    expect(none.items).toEqual([]);
  });

  it('refuses a bad cursor or limit with the field', async () => {
    const res = await call('GET', '/api/admin/companies?cursor=garbage', admin);
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.json())).toEqual(['cursor']);
    const limit = await call('GET', '/api/admin/companies?limit=0', admin);
    expect(limit.statusCode).toBe(400);
    expect(fieldsOf(limit.json())).toEqual(['limit']);
  });

  it('shows one company with its groups', async () => {
    const res = await call('GET', `/api/admin/companies/${supplierId}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().groups.map((g: { name: string }) => g.name)).toEqual(['Administrators', 'Inbox readers']);
  });

  it('creates a company with an Administrators group holding every permission but ETTN, and audits it', async () => {
    const res = await call('POST', '/api/admin/companies', admin, {
      name: ' Acme Foods ',
      vatId: 'PL1234563218',
      country: 'PL',
    });
    expect(res.statusCode).toBe(200);
    const company = res.json();
    expect(company).toMatchObject({
      name: 'Acme Foods',
      vatId: 'PL1234563218',
      taxId: null,
      country: 'PL',
      loginStatus: 'OK',
      toggles: [],
      userCount: 0,
    });
    expect(company.groups).toHaveLength(1);
    expect(company.groups[0].name).toBe('Administrators');
    expect(company.groups[0].permissions).toEqual(FEATURE_PERMISSIONS.filter((p) => p !== 'ETTN').sort());
    const audit = (await call('GET', '/api/admin/audit?event=admin.company_created', admin)).json();
    expect(audit.items[0]).toMatchObject({
      event: 'admin.company_created',
      companyId: company.id,
      actor: { email: ADMIN.login },
    });
  });

  it('refuses a bad company with the field', async () => {
    const res = await call('POST', '/api/admin/companies', admin, { name: '  ', country: 'XX' });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.json()).sort()).toEqual(['country', 'name']);
  });

  it('changes the profile basics and audits before and after', async () => {
    const res = await call('PATCH', `/api/admin/companies/${retailerId}`, admin, { taxId: '811907980', country: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Demo Retailer', taxId: '811907980', country: null });
    const empty = await call('PATCH', `/api/admin/companies/${retailerId}`, admin, {});
    expect(empty.statusCode).toBe(400);
    const audit = (await call('GET', '/api/admin/audit?event=admin.company_changed', admin)).json();
    expect(audit.items[0].details).toEqual({
      change: 'profile',
      before: { taxId: null, country: 'DE' },
      after: { taxId: '811907980', country: null },
    });
  });

  it('sets the status: BLOCKED refuses the login of its users with the restriction fields', async () => {
    const status = {
      loginStatus: 'BLOCKED',
      restrictionWaitTime: 30,
      restrictionWorkingTime: 0,
      restrictionMessage: 'Please pay invoice 12/2026',
    };
    const res = await call('PUT', `/api/admin/companies/${retailerId}/status`, admin, status);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(status);
    const refused = await t.app.inject({ method: 'POST', url: '/api/users/login', payload: BUYER });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      success: false,
      error: { code: 'auth.account_blocked' },
      vindicationInfoResponse: {
        vindicationInfo: {
          loginStatus: 'BLOCKED',
          restrictionWaitTime: 30,
          restrictionMessage: 'Please pay invoice 12/2026',
        },
      },
    });
    const ok = { loginStatus: 'OK', restrictionWaitTime: 0, restrictionWorkingTime: 0, restrictionMessage: null };
    expect((await call('PUT', `/api/admin/companies/${retailerId}/status`, admin, ok)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/login', payload: BUYER })).statusCode).toBe(200);
  });

  it('refuses OK_LIMITED without working time and negative or fractional minutes', async () => {
    const limited = {
      loginStatus: 'OK_LIMITED',
      restrictionWaitTime: 10,
      restrictionWorkingTime: 0,
      restrictionMessage: null,
    };
    const res = await call('PUT', `/api/admin/companies/${retailerId}/status`, admin, limited);
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.json())).toEqual(['restrictionWorkingTime']);
    const negative = await call('PUT', `/api/admin/companies/${retailerId}/status`, admin, {
      ...limited,
      restrictionWaitTime: -1,
      restrictionWorkingTime: 1.5,
    });
    expect(negative.statusCode).toBe(400);
    expect(fieldsOf(negative.json()).sort()).toEqual(['restrictionWaitTime', 'restrictionWorkingTime']);
    const status = await call('PUT', `/api/admin/companies/${retailerId}/status`, admin, {
      ...limited,
      loginStatus: 'SOMETIMES',
    });
    expect(fieldsOf(status.json())).toContain('loginStatus');
    const good = await call('PUT', `/api/admin/companies/${retailerId}/status`, admin, {
      ...limited,
      restrictionWorkingTime: 60,
      restrictionWorkingStart: null,
    });
    expect(good.statusCode).toBe(200);
    const ok = { loginStatus: 'OK', restrictionWaitTime: 0, restrictionWorkingTime: 0, restrictionMessage: null };
    await call('PUT', `/api/admin/companies/${retailerId}/status`, admin, ok);
  });

  it('replaces the toggles, which the users then get', async () => {
    const res = await call('PUT', `/api/admin/companies/${supplierId}/toggles`, admin, {
      toggles: ['KSEF', 'CHAT_AI', 'KSEF'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().toggles).toEqual(['CHAT_AI', 'KSEF']);
    const perms = (await call('GET', '/api/users/permissions', user)).json();
    expect(perms.toggles).toEqual(['CHAT_AI', 'KSEF']);
    const bad = await call('PUT', `/api/admin/companies/${supplierId}/toggles`, admin, { toggles: ['TURBO'] });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['toggles.0']);
    await call('PUT', `/api/admin/companies/${supplierId}/toggles`, admin, { toggles: [] });
  });

  it('sets the overdue-payment flag', async () => {
    const res = await call('PUT', `/api/admin/companies/${supplierId}/overdue-payment`, admin, {
      overduePayment: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().overduePayment).toBe(true);
    const bad = await call('PUT', `/api/admin/companies/${supplierId}/overdue-payment`, admin, {
      overduePayment: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['overduePayment']);
    await call('PUT', `/api/admin/companies/${supplierId}/overdue-payment`, admin, { overduePayment: false });
  });
});

describe('admin users', () => {
  it('lists users of every company by e-mail, filtered by company and search, page by page', async () => {
    const all = (await call('GET', '/api/admin/users', admin)).json();
    const emails = all.items.map((u: { email: string }) => u.email);
    expect(emails).toEqual([...emails].sort());
    expect(all.items.find((u: { email: string }) => u.email === ADMIN.login)).toMatchObject({
      companyId: null,
      roles: ['admin'],
      hasPassword: true,
    });

    const supplier = (await call('GET', `/api/admin/users?companyId=${supplierId}`, admin)).json();
    expect(supplier.items.map((u: { email: string }) => u.email)).toEqual([
      'clerk@demo.example.com',
      'user@demo.example.com',
    ]);
    const byName = (await call('GET', '/api/admin/users?search=bea%20buy', admin)).json();
    expect(byName.items.map((u: { email: string }) => u.email)).toEqual([BUYER.login]);

    const first = (await call('GET', '/api/admin/users?limit=2', admin)).json();
    expect(first.items).toHaveLength(2);
    const second = (await call('GET', `/api/admin/users?limit=2&cursor=${first.nextCursor}`, admin)).json();
    expect(second.items[0].email).toBe(emails[2]);
    const bad = await call('GET', '/api/admin/users?companyId=nope', admin);
    expect(fieldsOf(bad.json())).toEqual(['companyId']);
  });

  it('creates a user with an invitation whose link sets the password; the user then logs in', async () => {
    const company = (await call('POST', '/api/admin/companies', admin, { name: 'Invite Co' })).json();
    const res = await call('POST', '/api/admin/users', admin, {
      email: 'Newbie@Example.com',
      firstName: 'Nina',
      lastName: 'Newbie',
      companyId: company.id,
      roles: ['developer'],
      language: 'pl',
      groupIds: [company.groups[0].id],
      sendInvitation: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: 'Newbie@Example.com',
      companyName: 'Invite Co',
      roles: ['developer'],
      emailVerifiedAt: null,
      hasPassword: false,
    });

    const mails = (await call('GET', '/api/admin/emails?to=newbie', admin)).json();
    expect(mails.items).toHaveLength(1);
    expect(mails.items[0]).toMatchObject({ kind: 'invitation', to: 'Newbie@Example.com', language: 'pl' });
    const link = /http:\/\/portal\.test\/set-password\?token=([^\s]+)/.exec(mails.items[0].textBody);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link![1]!);
    const check = (
      await t.app.inject({ method: 'POST', url: '/api/users/checkActionToken', payload: { token } })
    ).json();
    expect(check).toMatchObject({ valid: true, purpose: 'invite', email: 'Newbie@Example.com' });
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/users/setPassword',
      payload: { token, password: 'Newbie#2026' },
    });
    expect(set.statusCode).toBe(200);
    const tokens = await login(t.app, { login: 'newbie@example.com', password: 'Newbie#2026' });
    const perms = (await call('GET', '/api/users/permissions', tokens.access_token)).json();
    expect(perms.permissions).toContain('REPORT_ISSUE');
    expect(perms.permissions).not.toContain('ETTN');
  });

  it('creates a user without invitation: no e-mail, verified and reset by the admin', async () => {
    const res = await call('POST', '/api/admin/users', admin, {
      email: 'quiet@example.com',
      firstName: 'Quinn',
      lastName: 'Quiet',
      companyId: supplierId,
      roles: [],
      sendInvitation: false,
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().id;
    expect((await call('GET', '/api/admin/emails?to=quiet', admin)).json().items).toEqual([]);

    const verified = await call('POST', `/api/admin/users/${id}/verify`, admin);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().emailVerifiedAt).not.toBeNull();

    const reset = await call('POST', `/api/admin/users/${id}/send-reset`, admin);
    expect(reset.statusCode).toBe(200);
    const mails = (await call('GET', '/api/admin/emails?to=quiet', admin)).json();
    expect(mails.items[0]).toMatchObject({ kind: 'reset_password', subject: 'Reset your password' });
    expect(mails.items[0].textBody).toContain('http://portal.test/set-password?token=');
    // A second one at once is fine for an admin (the public endpoint waits a minute).
    expect((await call('POST', `/api/admin/users/${id}/send-reset`, admin)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/emails?to=quiet', admin)).json().items).toHaveLength(2);
  });

  it('refuses bad users with the field', async () => {
    const base = {
      email: 'bad@example.com',
      firstName: 'B',
      lastName: 'B',
      companyId: supplierId,
      roles: [],
      sendInvitation: false,
    };
    const cases: [object, string][] = [
      [{ ...base, email: 'nope' }, 'email'],
      [{ ...base, roles: ['superuser'] }, 'roles.0'],
      [{ ...base, companyId: null }, 'companyId'],
      [{ ...base, companyId: 'x' }, 'companyId'],
      [{ ...base, language: 'xx' }, 'language'],
      [{ ...base, sendInvitation: undefined }, 'sendInvitation'],
      [{ ...base, firstName: '' }, 'firstName'],
    ];
    for (const [payload, field] of cases) {
      const res = await call('POST', '/api/admin/users', admin, payload);
      expect(res.statusCode, field).toBe(400);
      expect(fieldsOf(res.json()), field).toContain(field);
    }
    const unknownCompany = await call('POST', '/api/admin/users', admin, { ...base, companyId: UNKNOWN });
    expect(unknownCompany.statusCode).toBe(400);
    expect(fieldsOf(unknownCompany.json())).toEqual(['companyId']);
    const foreignGroup = (await call('GET', `/api/admin/companies/${retailerId}`, admin)).json().groups[0].id;
    const group = await call('POST', '/api/admin/users', admin, { ...base, groupIds: [foreignGroup] });
    expect(group.statusCode).toBe(400);
    expect(fieldsOf(group.json())).toEqual(['groupIds']);
    const taken = await call('POST', '/api/admin/users', admin, { ...base, email: 'USER@demo.example.com' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'users.email_taken',
      details: [{ field: 'email', code: 'emailTaken' }],
    });
    // A platform admin needs no company.
    const platformAdmin = await call('POST', '/api/admin/users', admin, {
      ...base,
      email: 'admin2@example.com',
      companyId: null,
      roles: ['admin'],
    });
    expect(platformAdmin.statusCode).toBe(200);
  });

  it('disables a user (ending their sessions) and enables them again', async () => {
    const tokens = await login(t.app, BUYER);
    const buyerId = (await call('GET', '/api/admin/users?search=buyer@', admin)).json().items[0].id;
    const res = await call('POST', `/api/admin/users/${buyerId}/disable`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().disabledAt).not.toBeNull();
    expect((await call('GET', '/api/users/getUserData', tokens.access_token)).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: tokens.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
    const refused = await t.app.inject({ method: 'POST', url: '/api/users/login', payload: BUYER });
    expect(refused.json().error.code).toBe('auth.account_disabled');
    const reset = await call('POST', `/api/admin/users/${buyerId}/send-reset`, admin);
    expect(reset.statusCode).toBe(409);

    const enabled = await call('POST', `/api/admin/users/${buyerId}/enable`, admin);
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().disabledAt).toBeNull();
    expect((await t.app.inject({ method: 'POST', url: '/api/users/login', payload: BUYER })).statusCode).toBe(200);
    const events = (await call('GET', `/api/admin/audit?event=admin.&userId=${buyerId}`, admin)).json();
    expect(events.items.map((e: { event: string }) => e.event)).toEqual(['admin.user_enabled', 'admin.user_disabled']);
  });

  it('replaces roles; an admin cannot disable or demote themselves', async () => {
    const res = await call('PUT', `/api/admin/users/${userId}/roles`, admin, {
      roles: ['developer', 'chat-ai', 'developer'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().roles).toEqual(['chat-ai', 'developer']);
    expect((await call('GET', '/api/users/getUserData', user)).json().roles.sort()).toEqual(['chat-ai', 'developer']);
    await call('PUT', `/api/admin/users/${userId}/roles`, admin, { roles: [] });

    const bad = await call('PUT', `/api/admin/users/${userId}/roles`, admin, { roles: ['root'] });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['roles.0']);

    const demote = await call('PUT', `/api/admin/users/${adminId}/roles`, admin, { roles: ['developer'] });
    expect(demote.statusCode).toBe(400);
    expect(demote.json().error.code).toBe('admin.cannot_change_self');
    const disable = await call('POST', `/api/admin/users/${adminId}/disable`, admin);
    expect(disable.statusCode).toBe(400);
    expect(disable.json().error.code).toBe('admin.cannot_change_self');
    // Keeping admin while adding another role is fine.
    expect(
      (await call('PUT', `/api/admin/users/${adminId}/roles`, admin, { roles: ['admin', 'developer'] })).statusCode,
    ).toBe(200);
    await call('PUT', `/api/admin/users/${adminId}/roles`, admin, { roles: ['admin'] });

    const audit = (await call('GET', `/api/admin/audit?event=admin.user_roles_changed&userId=${userId}`, admin)).json();
    expect(audit.items[1].details).toEqual({
      before: ['ETTN_CZ', 'chat-ai', 'ettn'],
      after: ['chat-ai', 'developer'],
    });
  });
});

describe('admin logs', () => {
  it('lists e-mails newest first with their bodies, page by page', async () => {
    const all = (await call('GET', '/api/admin/emails', admin)).json();
    expect(all.items.length).toBeGreaterThan(2);
    const times = all.items.map((m: { createdAt: string }) => m.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.items[0]).toHaveProperty('textBody');
    expect(all.items[0].status).toBe('stored');

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = (
        await call('GET', `/api/admin/emails?limit=2${cursor ? `&cursor=${cursor}` : ''}`, admin)
      ).json();
      ids.push(...page.items.map((m: { id: string }) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(ids).toEqual(all.items.map((m: { id: string }) => m.id));
    const bad = await call('GET', `/api/admin/emails?cursor=${Buffer.from('["x","y"]').toString('base64url')}`, admin);
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['cursor']);
  });

  it('lists the audit log newest first, by event or prefix', async () => {
    const logins = (await call('GET', '/api/admin/audit?event=auth.login_succeeded&limit=3', admin)).json();
    expect(logins.items).toHaveLength(3);
    expect(logins.items.every((e: { event: string }) => e.event === 'auth.login_succeeded')).toBe(true);
    const ids = logins.items.map((e: { id: string }) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const next = (
      await call('GET', `/api/admin/audit?event=auth.login_succeeded&limit=3&cursor=${logins.nextCursor}`, admin)
    ).json();
    expect(Number(next.items[0].id)).toBeLessThan(ids[2]!);

    const prefix = (await call('GET', '/api/admin/audit?event=admin.', admin)).json();
    expect(prefix.items.length).toBeGreaterThan(0);
    expect(prefix.items.every((e: { event: string }) => e.event.startsWith('admin.'))).toBe(true);
    const bad = await call('GET', '/api/admin/audit?event=DROP%20TABLE', admin);
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['event']);
  });
});
