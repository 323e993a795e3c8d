import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { bearer, createTestApp, DEMO_USER, latestAudit, login, type TestApp } from './helper.ts';
import { linkIn, startSmtpReceiver } from './smtp.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const INVITE_PREFIX = 'http://portal.test/set-password?token=';
const NEW_PASSWORD = 'Invited#Pass2026';

type Details = { field: string; code: string }[];
type Body = { error?: { code?: string; details?: Details } };
const fieldsOf = (body: Body) => (body.error?.details ?? []).map((d) => d.field);
type UserItem = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  status: string;
  groups: { id: string; name: string }[];
};
type GroupItem = { id: string; name: string; permissions: string[]; memberCount: number };

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
/** Access tokens, renewed by `signIn` whenever a test moves the clock. */
let user: string;
let clerk: string;
let buyer: string;
const ids = {
  user: '',
  clerk: '',
  buyer: '',
  supplierAdmins: '',
  supplierInbox: '',
  retailerAdmins: '',
};

async function signIn() {
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: bearer(token) } : {}),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url } });
  await signIn();
  const mine = (await call('GET', '/api/company-users', user)).json().items as UserItem[];
  ids.user = mine.find((u) => u.email === DEMO_USER.login)!.id;
  ids.clerk = mine.find((u) => u.email === CLERK.login)!.id;
  ids.buyer = ((await call('GET', '/api/company-users', buyer)).json().items as UserItem[])[0]!.id;
  const groups = (await call('GET', '/api/groups', user)).json().items as GroupItem[];
  ids.supplierAdmins = groups.find((g) => g.name === 'Administrators')!.id;
  ids.supplierInbox = groups.find((g) => g.name === 'Inbox readers')!.id;
  ids.retailerAdmins = ((await call('GET', '/api/groups', buyer)).json().items as GroupItem[])[0]!.id;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** Invites through the API and returns the new user's id and the token of the e-mailed link. */
async function invite(payload: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const res = await call('POST', '/api/company-users/invite', user, payload);
  expect(res.statusCode, res.body).toBe(201);
  const email = String(payload.email);
  const mail = await receiver.waitFor(email);
  const token = new URL(linkIn(mail, INVITE_PREFIX)).searchParams.get('token')!;
  return { id: res.json().id, token };
}

async function accept(token: string) {
  const res = await call('POST', '/api/users/setPassword', undefined, { token, password: NEW_PASSWORD });
  expect(res.statusCode, res.body).toBe(200);
}

describe('GET /api/company-users', () => {
  it("lists the users of the caller's company only, sorted by last name, with groups and status", async () => {
    const res = await call('GET', '/api/company-users', user);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((u: UserItem) => u.email)).toEqual(['clerk@demo.example.com', 'user@demo.example.com']);
    expect(body.nextCursor).toBeNull();
    expect(body.total).toBeUndefined();
    const uma = body.items[1];
    expect(uma).toMatchObject({
      firstName: 'Uma',
      lastName: 'User',
      status: 'active',
      language: 'en',
      telephone: null,
      groups: [{ id: ids.supplierAdmins, name: 'Administrators' }],
    });
    // The logins of beforeAll are in the audit log.
    expect(uma.lastLoginAt).toBe(t.clock.now().toISOString());
    expect(new Date(uma.createdAt).toString()).not.toBe('Invalid Date');
    const other = (await call('GET', '/api/company-users', buyer)).json();
    expect(other.items.map((u: UserItem) => u.email)).toEqual(['buyer@demo.example.com']);
  });

  it('searches names and e-mail, every word must match, case-insensitively', async () => {
    const emails = async (search: string) =>
      (
        (await call('GET', `/api/company-users?search=${encodeURIComponent(search)}`, user)).json().items as UserItem[]
      ).map((u) => u.email);
    expect(await emails('UMA')).toEqual(['user@demo.example.com']);
    expect(await emails('user uma')).toEqual(['user@demo.example.com']);
    expect(await emails('clerk@demo')).toEqual(['clerk@demo.example.com']);
    expect(await emails('demo.example')).toHaveLength(2);
    expect(await emails('%')).toEqual([]);
    expect(await emails('bea')).toEqual([]);
  });

  it('filters by status and group', async () => {
    const list = async (qs: string) =>
      ((await call('GET', `/api/company-users?${qs}`, user)).json().items as UserItem[]).map((u) => u.email);
    expect(await list('status=active')).toHaveLength(2);
    expect(await list('status=disabled')).toEqual([]);
    expect(await list(`groupId=${ids.supplierInbox}`)).toEqual(['clerk@demo.example.com']);
    expect(await list(`groupId=${ids.retailerAdmins}`)).toEqual([]);
  });

  it('pages with a cursor and counts on request', async () => {
    const first = (await call('GET', '/api/company-users?limit=1&includeTotal=true', user)).json();
    expect(first.items).toHaveLength(1);
    expect(first.total).toBe(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await call('GET', `/api/company-users?limit=1&cursor=${first.nextCursor}`, user)).json();
    expect(second.items).toHaveLength(1);
    expect(second.items[0].id).not.toBe(first.items[0].id);
    expect(second.nextCursor).toBeNull();
    expect(second.total).toBeUndefined();
  });

  it('answers bad query parameters with 400 naming the field', async () => {
    for (const [qs, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['cursor=!!', 'cursor'],
      [`cursor=${Buffer.from('["a"]').toString('base64url')}`, 'cursor'],
      ['includeTotal=yes', 'includeTotal'],
      ['status=gone', 'status'],
      ['groupId=42', 'groupId'],
      [`search=${'x'.repeat(201)}`, 'search'],
    ] as const) {
      const res = await call('GET', `/api/company-users?${qs}`, user);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.code).toBe('validation.failed');
      expect(fieldsOf(res.json()), qs).toContain(field);
    }
  });

  it('refuses a caller without USERS_READ (403) and an anonymous one (401)', async () => {
    expect((await call('GET', '/api/company-users', clerk)).statusCode).toBe(403);
    expect((await call('GET', '/api/company-users')).statusCode).toBe(401);
  });
});

describe('GET /api/company-users/:id', () => {
  it('returns a user of the company with its restrictions', async () => {
    const res = await call('GET', `/api/company-users/${ids.clerk}`, user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: ids.clerk,
      email: 'clerk@demo.example.com',
      restrictions: [],
      groups: [{ name: 'Inbox readers' }],
    });
  });

  it("answers 404 for another company's user or an unknown id, 400 for a malformed id", async () => {
    expect((await call('GET', `/api/company-users/${ids.buyer}`, user)).statusCode).toBe(404);
    expect((await call('GET', `/api/company-users/${ids.user}`, buyer)).statusCode).toBe(404);
    expect((await call('GET', `/api/company-users/${randomUUID()}`, user)).json().error.code).toBe(
      'resource.not_found',
    );
    const bad = await call('GET', '/api/company-users/not-a-uuid', user);
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['id']);
  });

  it('refuses without permission and without a session', async () => {
    expect((await call('GET', `/api/company-users/${ids.clerk}`, clerk)).statusCode).toBe(403);
    expect((await call('GET', `/api/company-users/${ids.clerk}`)).statusCode).toBe(401);
  });
});

describe('POST /api/company-users/invite, end to end', () => {
  it('invites, e-mails the link, and the invitee sets a password, signs in and holds the permissions of the groups', async () => {
    const email = 'ines.invited@example.com';
    const res = await call('POST', '/api/company-users/invite', user, {
      email,
      firstName: 'Ines',
      lastName: 'Invited',
      language: 'pl',
      groupIds: [ids.supplierInbox, ids.supplierInbox],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      email,
      firstName: 'Ines',
      language: 'pl',
      status: 'invited',
      lastLoginAt: null,
      groups: [{ id: ids.supplierInbox, name: 'Inbox readers' }],
    });

    // The e-mail, in the invitee's language, names the inviter and the company.
    const mail = await receiver.waitFor(email, /^Zaproszenie do Open EDI Portal$/);
    expect(mail.text).toContain('Uma User');
    expect(mail.text).toContain('Demo Supplier');
    const token = new URL(linkIn(mail, INVITE_PREFIX)).searchParams.get('token')!;

    // Before accepting, there is no password to sign in with.
    expect(
      (await call('POST', '/api/users/login', undefined, { login: email, password: NEW_PASSWORD })).statusCode,
    ).toBe(401);

    const check = await call('POST', '/api/users/checkActionToken', undefined, { token });
    expect(check.json()).toEqual({ valid: true, purpose: 'invite', email });
    await accept(token);

    const session = await login(t.app, { login: email, password: NEW_PASSWORD });
    const permissions = (await call('GET', '/api/users/permissions', session.access_token)).json();
    expect(permissions.permissions).toEqual(['INBOX_READ']);
    const me = (await call('GET', `/api/company-users/${created.id}`, user)).json();
    expect(me.status).toBe('active');

    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.event, 'users.invited'), eq(auditLog.subjectUserId, created.id)));
    expect(entry).toMatchObject({ actorUserId: ids.user, details: { groupIds: [ids.supplierInbox] } });
  });

  it("uses the inviter's language when none is given and joins no group", async () => {
    const { id } = await invite({ email: 'nolang@example.com', firstName: 'No', lastName: 'Lang' });
    const row = (await call('GET', `/api/company-users/${id}`, user)).json();
    expect(row).toMatchObject({ language: 'en', groups: [], status: 'invited' });
    await t.jobs.drain();
    expect(receiver.messages.find((m) => m.to.includes('nolang@example.com'))?.subject).toBe(
      'You are invited to Open EDI Portal',
    );
  });

  // An address of another company is answered like a new one (security-privileges.test.ts, issue 16 item 8).
  it("answers 409 on the e-mail field for an address of a user of the caller's company, in any case", async () => {
    for (const email of ['USER@demo.example.com', 'Clerk@demo.example.com', 'nolang@example.com']) {
      const res = await call('POST', '/api/company-users/invite', user, { email, firstName: 'A', lastName: 'B' });
      expect(res.statusCode, email).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'users.email_taken',
        details: [{ field: 'email', code: 'emailTaken' }],
      });
    }
  });

  it("refuses groups of another company (400 on the group's index), creating nothing", async () => {
    const res = await call('POST', '/api/company-users/invite', user, {
      email: 'cross@example.com',
      firstName: 'Cross',
      lastName: 'Company',
      groupIds: [ids.supplierInbox, ids.retailerAdmins],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'groupIds.1', code: 'notFound' }]);
    const again = await call('POST', '/api/company-users/invite', buyer, {
      email: 'cross@example.com',
      firstName: 'C',
      lastName: 'C',
    });
    expect(again.statusCode).toBe(201);
  });

  it('answers bad input with 400 naming each field', async () => {
    for (const [payload, field] of [
      [{ email: 'nope', firstName: 'A', lastName: 'B' }, 'email'],
      [{ firstName: 'A', lastName: 'B' }, 'email'],
      [{ email: 'a@example.com', firstName: ' ', lastName: 'B' }, 'firstName'],
      [{ email: 'a@example.com', firstName: 'A', lastName: 'x'.repeat(101) }, 'lastName'],
      [{ email: 'a@example.com', firstName: 'A', lastName: 'B', language: 'xx' }, 'language'],
      [{ email: 'a@example.com', firstName: 'A', lastName: 'B', groupIds: ['x'] }, 'groupIds.0'],
      [{ email: 'a@example.com', firstName: 'A', lastName: 'B', groupIds: 'x' }, 'groupIds'],
    ] as const) {
      const res = await call('POST', '/api/company-users/invite', user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fieldsOf(res.json()), JSON.stringify(payload)).toContain(field);
    }
  });

  it('refuses without USERS_MODIFY and without a session', async () => {
    const payload = { email: 'x@example.com', firstName: 'A', lastName: 'B' };
    expect((await call('POST', '/api/company-users/invite', clerk, payload)).statusCode).toBe(403);
    expect((await call('POST', '/api/company-users/invite', undefined, payload)).statusCode).toBe(401);
  });
});

describe('POST /api/company-users/:id/resend-invitation', () => {
  it('sends a new link at most once a minute; the earlier link stops working', async () => {
    const email = 'resend@example.com';
    const { id, token: first } = await invite({ email, firstName: 'Re', lastName: 'Send' });
    const early = await call('POST', `/api/company-users/${id}/resend-invitation`, user);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('60');
    expect(early.json().error).toMatchObject({
      code: 'user_management.invitation_resend_too_soon',
      data: { retryAfter: 60 },
    });

    t.clock.advance(61);
    await signIn();
    const res = await call('POST', `/api/company-users/${id}/resend-invitation`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('invited');
    await expect.poll(() => receiver.messages.filter((m) => m.to.includes(email)).length).toBe(2);
    const second = new URL(
      linkIn(receiver.messages.filter((m) => m.to.includes(email))[1]!, INVITE_PREFIX),
    ).searchParams.get('token')!;
    expect(second).not.toBe(first);
    expect((await call('POST', '/api/users/checkActionToken', undefined, { token: first })).json().valid).toBe(false);
    expect((await call('POST', '/api/users/checkActionToken', undefined, { token: second })).json()).toMatchObject({
      valid: true,
      purpose: 'invite',
    });
  });

  it('answers 409 for a user who already accepted, 404 across companies, 403 and 401', async () => {
    const active = await call('POST', `/api/company-users/${ids.clerk}/resend-invitation`, user);
    expect(active.statusCode).toBe(409);
    expect(active.json().error.code).toBe('user_management.not_invited');
    expect((await call('POST', `/api/company-users/${ids.buyer}/resend-invitation`, user)).statusCode).toBe(404);
    expect((await call('POST', '/api/company-users/zzz/resend-invitation', user)).statusCode).toBe(400);
    expect((await call('POST', `/api/company-users/${ids.clerk}/resend-invitation`, clerk)).statusCode).toBe(403);
    expect((await call('POST', `/api/company-users/${ids.clerk}/resend-invitation`)).statusCode).toBe(401);
  });
});

describe('PATCH /api/company-users/:id', () => {
  it('changes names and telephone, and replaces groups with an audit entry of before and after', async () => {
    const res = await call('PATCH', `/api/company-users/${ids.clerk}`, user, {
      firstName: ' Carlos ',
      telephone: '+48 600 100 200',
      groupIds: [ids.supplierInbox, ids.supplierAdmins],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Carlos',
      lastName: 'Clerk',
      telephone: '+48 600 100 200',
      groups: [
        { id: ids.supplierAdmins, name: 'Administrators' },
        { id: ids.supplierInbox, name: 'Inbox readers' },
      ],
    });
    // The clerk's permissions follow at once.
    expect((await call('GET', '/api/users/permissions', clerk)).json().permissions).toContain('USERS_MODIFY');
    const entry = await latestAudit(t.database.db, 'admin.permissions_changed', eq(auditLog.subjectUserId, ids.clerk));
    expect(entry?.details).toMatchObject({
      change: 'user_groups',
      before: { groups: [{ name: 'Inbox readers' }] },
      after: { groups: [{ name: 'Administrators' }, { name: 'Inbox readers' }] },
    });

    const back = await call('PATCH', `/api/company-users/${ids.clerk}`, user, {
      firstName: 'Carl',
      telephone: '',
      groupIds: [ids.supplierInbox],
    });
    expect(back.json()).toMatchObject({ firstName: 'Carl', telephone: null, groups: [{ name: 'Inbox readers' }] });
    expect((await call('GET', '/api/users/permissions', clerk)).json().permissions).toEqual(['INBOX_READ']);
  });

  it('refuses a change of one’s own groups, which could also leave nobody to manage users and groups', async () => {
    const res = await call('PATCH', `/api/company-users/${ids.user}`, user, {
      firstName: 'Changed',
      groupIds: [ids.supplierInbox],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('user_management.cannot_change_own_groups');
    // Nothing of the refused change was kept.
    expect((await call('GET', `/api/company-users/${ids.user}`, user)).json()).toMatchObject({
      firstName: 'Uma',
      groups: [{ name: 'Administrators' }],
    });
  });

  it('answers bad input with 400 naming the field', async () => {
    for (const [payload, field] of [
      [{ firstName: '' }, 'firstName'],
      [{ telephone: 'call me' }, 'telephone'],
      [{ groupIds: [ids.retailerAdmins] }, 'groupIds.0'],
      [{ groupIds: ['1'] }, 'groupIds.0'],
    ] as const) {
      const res = await call('PATCH', `/api/company-users/${ids.clerk}`, user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fieldsOf(res.json())).toContain(field);
    }
  });

  it('answers 404 across companies, 403 without USERS_MODIFY, 401 without a session', async () => {
    expect((await call('PATCH', `/api/company-users/${ids.buyer}`, user, { firstName: 'X' })).statusCode).toBe(404);
    expect((await call('PATCH', `/api/company-users/${ids.user}`, buyer, { firstName: 'X' })).statusCode).toBe(404);
    expect((await call('PATCH', `/api/company-users/${ids.clerk}`, clerk, { firstName: 'X' })).statusCode).toBe(403);
    expect((await call('PATCH', `/api/company-users/${ids.clerk}`, undefined, { firstName: 'X' })).statusCode).toBe(
      401,
    );
  });
});

describe('POST /api/company-users/:id/deactivate and /activate', () => {
  it('disables a user: no login, no refresh, no access; activation lets them in again', async () => {
    const email = 'dora.deactivated@example.com';
    const { id, token } = await invite({
      email,
      firstName: 'Dora',
      lastName: 'Deactivated',
      groupIds: [ids.supplierInbox],
    });
    await accept(token);
    const session = await login(t.app, { login: email, password: NEW_PASSWORD });

    const res = await call('POST', `/api/company-users/${id}/deactivate`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('disabled');
    expect(
      (await call('GET', '/api/company-users?status=disabled', user)).json().items.map((u: UserItem) => u.id),
    ).toEqual([id]);

    const refused = await call('POST', '/api/users/login', undefined, { login: email, password: NEW_PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('auth.account_disabled');
    const refresh = await call('POST', '/api/users/refreshToken', undefined, { refreshToken: session.refresh_token });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json()).toEqual({ success: false, error: 'auth.token_invalid' });
    expect((await call('GET', '/api/users/permissions', session.access_token)).statusCode).toBe(401);
    // Deactivating twice changes nothing.
    expect((await call('POST', `/api/company-users/${id}/deactivate`, user)).json().status).toBe('disabled');

    const back = await call('POST', `/api/company-users/${id}/activate`, user);
    expect(back.json().status).toBe('active');
    await login(t.app, { login: email, password: NEW_PASSWORD });
    const events = await t.database.db
      .select({ event: auditLog.event })
      .from(auditLog)
      .where(eq(auditLog.subjectUserId, id));
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['users.deactivated', 'users.activated']));
  });

  it('refuses to deactivate oneself', async () => {
    const res = await call('POST', `/api/company-users/${ids.user}/deactivate`, user);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('user_management.cannot_deactivate_self');
  });

  it('refuses to deactivate the last user who can manage users and groups', async () => {
    // A user manager without GROUPS_MODIFY tries to deactivate the only full manager.
    const group = await call('POST', '/api/groups', user, {
      name: 'User managers',
      permissions: ['USERS_READ', 'USERS_MODIFY'],
    });
    const email = 'uma.manager@example.com';
    const { token } = await invite({ email, firstName: 'Mia', lastName: 'Manager', groupIds: [group.json().id] });
    await accept(token);
    const manager = (await login(t.app, { login: email, password: NEW_PASSWORD })).access_token;
    const res = await call('POST', `/api/company-users/${ids.user}/deactivate`, manager);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('user_management.would_lock_out');
    expect((await call('GET', `/api/company-users/${ids.user}`, user)).json().status).toBe('active');
    await call('DELETE', `/api/groups/${group.json().id}`, user);
  });

  it('answers 404 across companies, 400 for a bad id, 403 and 401', async () => {
    for (const action of ['deactivate', 'activate']) {
      expect((await call('POST', `/api/company-users/${ids.buyer}/${action}`, user)).statusCode).toBe(404);
      expect((await call('POST', `/api/company-users/${ids.clerk}/${action}`, buyer)).statusCode).toBe(404);
      expect((await call('POST', `/api/company-users/1/${action}`, user)).statusCode).toBe(400);
      expect((await call('POST', `/api/company-users/${ids.user}/${action}`, clerk)).statusCode).toBe(403);
      expect((await call('POST', `/api/company-users/${ids.user}/${action}`)).statusCode).toBe(401);
    }
  });
});

describe('GET /api/groups and /api/groups/:id', () => {
  it("lists the company's groups with member counts, searchable and paged", async () => {
    const res = await call('GET', '/api/groups?includeTotal=true', user);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const admins = body.items.find((g: GroupItem) => g.name === 'Administrators');
    expect(admins).toMatchObject({ id: ids.supplierAdmins, memberCount: 1 });
    expect(admins.permissions).toContain('GROUPS_MODIFY');
    expect(body.items.map((g: GroupItem) => g.id)).not.toContain(ids.retailerAdmins);
    expect(body.total).toBe(body.items.length);
    expect((await call('GET', '/api/groups?search=INBOX', user)).json().items.map((g: GroupItem) => g.name)).toEqual([
      'Inbox readers',
    ]);

    const first = (await call('GET', '/api/groups?limit=1', user)).json();
    expect(first.items[0].name).toBe('Administrators');
    const second = (await call('GET', `/api/groups?limit=1&cursor=${first.nextCursor}`, user)).json();
    expect(second.items[0].name).toBe(body.items[1].name);
  });

  it('returns one group with its members; 404 across companies', async () => {
    const res = await call('GET', `/api/groups/${ids.supplierInbox}`, user);
    expect(res.statusCode).toBe(200);
    expect(res.json().members.map((m: { email: string }) => m.email)).toContain('clerk@demo.example.com');
    expect((await call('GET', `/api/groups/${ids.retailerAdmins}`, user)).statusCode).toBe(404);
    expect((await call('GET', `/api/groups/${ids.supplierAdmins}`, buyer)).statusCode).toBe(404);
  });

  it('answers bad input with 400, refuses without GROUPS_READ and without a session', async () => {
    const bad = await call('GET', '/api/groups?limit=-1', user);
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad.json())).toEqual(['limit']);
    expect(fieldsOf((await call('GET', '/api/groups/abc', user)).json())).toEqual(['id']);
    expect((await call('GET', '/api/groups', clerk)).statusCode).toBe(403);
    expect((await call('GET', `/api/groups/${ids.supplierInbox}`, clerk)).statusCode).toBe(403);
    expect((await call('GET', '/api/groups')).statusCode).toBe(401);
  });
});

describe('POST, PUT, DELETE /api/groups', () => {
  let orderDesk = '';

  it('creates a group with known permissions once each, in the canonical order', async () => {
    const res = await call('POST', '/api/groups', user, {
      name: ' Order desk ',
      permissions: ['OUTBOX_READ', 'INBOX_READ', 'OUTBOX_READ'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Order desk',
      permissions: ['INBOX_READ', 'OUTBOX_READ'],
      memberCount: 0,
      members: [],
    });
    orderDesk = res.json().id;
    const entry = await latestAudit(t.database.db, 'admin.permissions_changed');
    expect(entry?.details).toMatchObject({
      change: 'group_created',
      groupId: orderDesk,
      before: null,
      after: { name: 'Order desk' },
    });
  });

  it('keeps names unique in a company whatever the case (409 on name), not across companies', async () => {
    const res = await call('POST', '/api/groups', user, { name: 'ORDER DESK', permissions: [] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'groups.name_taken',
      details: [{ field: 'name', code: 'nameTaken' }],
    });
    expect((await call('POST', '/api/groups', buyer, { name: 'Order desk', permissions: [] })).statusCode).toBe(201);
    const rename = await call('PUT', `/api/groups/${orderDesk}`, user, { name: 'inbox READERS', permissions: [] });
    expect(rename.statusCode).toBe(409);
  });

  it('renames and replaces permissions, recording before and after', async () => {
    const res = await call('PUT', `/api/groups/${orderDesk}`, user, {
      name: 'Order Desk',
      permissions: ['OUTBOX_SEND'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Order Desk', permissions: ['OUTBOX_SEND'] });
    const entry = await latestAudit(t.database.db, 'admin.permissions_changed');
    expect(entry?.details).toMatchObject({
      change: 'group_updated',
      before: { name: 'Order desk', permissions: ['INBOX_READ', 'OUTBOX_READ'] },
      after: { name: 'Order Desk', permissions: ['OUTBOX_SEND'] },
    });
  });

  it('replaces the members with users of the company only', async () => {
    const res = await call('PUT', `/api/groups/${orderDesk}/members`, user, { userIds: [ids.clerk, ids.clerk] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ memberCount: 1, members: [{ id: ids.clerk, status: 'active' }] });
    expect((await call('GET', '/api/users/permissions', clerk)).json().permissions).toEqual([
      'INBOX_READ',
      'OUTBOX_SEND',
    ]);
    const foreign = await call('PUT', `/api/groups/${orderDesk}/members`, user, { userIds: [ids.clerk, ids.buyer] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.details).toEqual([{ field: 'userIds.1', code: 'notFound' }]);
    expect((await call('GET', `/api/groups/${orderDesk}`, user)).json().memberCount).toBe(1);
  });

  it('refuses every change that would lock the company out', async () => {
    const admins = `/api/groups/${ids.supplierAdmins}`;
    for (const [method, url, payload] of [
      ['PUT', admins, { name: 'Administrators', permissions: ['USERS_MODIFY', 'USERS_READ'] }],
      ['PUT', `${admins}/members`, { userIds: [] }],
      ['PUT', `${admins}/members`, { userIds: [ids.clerk] }],
      ['DELETE', admins, undefined],
    ] as const) {
      // Clerk is active but holds only what the other groups give; the Administrators group is the key.
      const res = await call(method, url, user, payload);
      if (url.endsWith('/members')) {
        // Leaving the group oneself is a change of one's own groups: refused before it could lock anyone out.
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().error.code).toBe('user_management.cannot_change_own_groups');
        continue;
      }
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(res.json().error.code).toBe('user_management.would_lock_out');
    }
    const after = (await call('GET', admins, user)).json();
    expect(after.permissions).toContain('GROUPS_MODIFY');
    expect(after.members.map((m: { id: string }) => m.id)).toEqual([ids.user]);
  });

  it('deletes a group (204), after which it is gone', async () => {
    const res = await call('DELETE', `/api/groups/${orderDesk}`, user);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await call('GET', `/api/groups/${orderDesk}`, user)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/groups/${orderDesk}`, user)).statusCode).toBe(404);
    expect((await call('GET', '/api/users/permissions', clerk)).json().permissions).toEqual(['INBOX_READ']);
  });

  it('answers bad input with 400 naming the field', async () => {
    for (const [method, url, payload, field] of [
      ['POST', '/api/groups', { permissions: [] }, 'name'],
      ['POST', '/api/groups', { name: '', permissions: [] }, 'name'],
      ['POST', '/api/groups', { name: 'x'.repeat(101), permissions: [] }, 'name'],
      ['POST', '/api/groups', { name: 'A' }, 'permissions'],
      ['POST', '/api/groups', { name: 'A', permissions: ['INBOX_READ', 'FLY'] }, 'permissions.1'],
      ['PUT', `/api/groups/${ids.supplierInbox}`, { name: 'A', permissions: 'INBOX_READ' }, 'permissions'],
      ['PUT', '/api/groups/nope', { name: 'A', permissions: [] }, 'id'],
      ['PUT', `/api/groups/${ids.supplierInbox}/members`, { userIds: ['u'] }, 'userIds.0'],
      ['PUT', `/api/groups/${ids.supplierInbox}/members`, {}, 'userIds'],
    ] as const) {
      const res = await call(method, url, user, payload);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(fieldsOf(res.json())).toContain(field);
    }
  });

  it("answers 404 for another company's group, 403 without GROUPS_MODIFY, 401 without a session", async () => {
    const body = { name: 'Taken over', permissions: [] };
    expect((await call('PUT', `/api/groups/${ids.retailerAdmins}`, user, body)).statusCode).toBe(404);
    expect((await call('PUT', `/api/groups/${ids.supplierAdmins}`, buyer, body)).statusCode).toBe(404);
    expect((await call('PUT', `/api/groups/${ids.retailerAdmins}/members`, user, { userIds: [] })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `/api/groups/${ids.retailerAdmins}`, user)).statusCode).toBe(404);
    for (const [method, url] of [
      ['POST', '/api/groups'],
      ['PUT', `/api/groups/${ids.supplierInbox}`],
      ['PUT', `/api/groups/${ids.supplierInbox}/members`],
      ['DELETE', `/api/groups/${ids.supplierInbox}`],
    ] as const) {
      expect(
        (await call(method, url, clerk, method === 'DELETE' ? undefined : body)).statusCode,
        `${method} ${url}`,
      ).toBe(403);
      expect(
        (await call(method, url, undefined, method === 'DELETE' ? undefined : body)).statusCode,
        `${method} ${url}`,
      ).toBe(401);
    }
    // Nothing changed for the retailer.
    expect((await call('GET', `/api/groups/${ids.retailerAdmins}`, buyer)).json().name).toBe('Administrators');
  });
});

describe('OpenAPI', () => {
  it('documents the user-management endpoints', async () => {
    const doc = (await call('GET', '/api/docs/json')).json();
    for (const path of [
      '/api/company-users',
      '/api/company-users/{id}',
      '/api/company-users/invite',
      '/api/groups',
      '/api/groups/{id}/members',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
