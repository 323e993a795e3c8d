import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { FEATURE_PERMISSIONS } from '@portal/contracts';
import { companies } from '../src/features/companies/companies.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { bearer, createTestApp, DEMO_USER, login, type TestApp } from './helper.ts';
import { linkIn, startSmtpReceiver } from './smtp.ts';

// Issue 16, items 5 (privilege escalation) and 8 (an invitation tells one company about another's users).

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const CLERK = 'clerk@demo.example.com';
const INVITE_PREFIX = 'http://portal.test/set-password?token=';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
let owner: string;
const ids = { owner: '', clerk: '', admins: '', supplier: '' };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

/** Creates a group as the company's full administrator, invites a user into it and signs them in. */
async function memberOf(name: string, permissions: string[], email: string) {
  const group = await call('POST', '/api/groups', owner, { name, permissions });
  expect(group.statusCode, group.body).toBe(201);
  const invited = await call('POST', '/api/company-users/invite', owner, {
    email,
    firstName: 'Mal',
    lastName: 'Lory',
    groupIds: [group.json().id],
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const token = new URL(linkIn(await receiver.waitFor(email), INVITE_PREFIX)).searchParams.get('token')!;
  const password = 'Mallory#Pass2026';
  const set = await t.app.inject({ method: 'POST', url: '/api/users/setPassword', payload: { token, password } });
  expect(set.statusCode, set.body).toBe(200);
  return {
    id: invited.json().id as string,
    groupId: group.json().id as string,
    token: (await login(t.app, { login: email, password })).access_token,
  };
}

const permissionsOf = async (token: string) =>
  (await t.app.inject({ url: '/api/users/permissions', headers: bearer(token) })).json().permissions as string[];

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url } });
  owner = (await login(t.app)).access_token;
  const list = (await call('GET', '/api/company-users', owner)).json().items as { id: string; email: string }[];
  ids.owner = list.find((u) => u.email === DEMO_USER.login)!.id;
  ids.clerk = list.find((u) => u.email === CLERK)!.id;
  const groups = (await call('GET', '/api/groups', owner)).json().items as { id: string; name: string }[];
  ids.admins = groups.find((g) => g.name === 'Administrators')!.id;
  const [row] = await t.database.db
    .select({ companyId: users.companyId })
    .from(users)
    .where(eq(users.email, DEMO_USER.login));
  ids.supplier = row!.companyId!;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('nobody grants a permission they do not hold (item 5)', () => {
  it('refuses a user manager who puts themselves into Administrators, and keeps their two permissions', async () => {
    const mallory = await memberOf('User managers', ['USERS_READ', 'USERS_MODIFY'], 'mallory@demo.example.com');
    expect(await permissionsOf(mallory.token)).toEqual(['USERS_MODIFY', 'USERS_READ']);

    const res = await call('PATCH', `/api/company-users/${mallory.id}`, mallory.token, { groupIds: [ids.admins] });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('user_management.cannot_change_own_groups');
    expect(await permissionsOf(mallory.token)).toEqual(['USERS_MODIFY', 'USERS_READ']);

    // Another user into Administrators: a grant of 22 permissions she does not hold.
    const other = await call('PATCH', `/api/company-users/${ids.clerk}`, mallory.token, { groupIds: [ids.admins] });
    expect(other.statusCode, other.body).toBe(403);
    expect(other.json().error).toMatchObject({
      code: 'user_management.permission_not_held',
      details: [{ field: 'groupIds.0', code: 'permissionNotHeld' }],
    });
    const clerk = (await call('GET', `/api/company-users/${ids.clerk}`, owner)).json();
    expect(clerk.groups.map((g: { name: string }) => g.name)).toEqual(['Inbox readers']);

    // What she holds, she may give.
    const same = await call('PATCH', `/api/company-users/${ids.clerk}`, mallory.token, {
      groupIds: [clerk.groups[0].id, mallory.groupId],
    });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('refuses an invitation into Administrators by a user manager, creating nobody', async () => {
    const eve = await memberOf('Inviters', ['USERS_READ', 'USERS_MODIFY'], 'eve@demo.example.com');
    const res = await call('POST', '/api/company-users/invite', eve.token, {
      email: 'accomplice@example.com',
      firstName: 'Acc',
      lastName: 'Omplice',
      groupIds: [ids.admins],
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.code).toBe('user_management.permission_not_held');
    const list = (await call('GET', '/api/company-users?search=accomplice', owner)).json();
    expect(list.items).toEqual([]);
    await t.jobs.drain();
    expect(receiver.messages.some((m) => m.to.includes('accomplice@example.com'))).toBe(false);
  });

  it('refuses a group manager who gives a group, or themselves, more than they hold', async () => {
    const gina = await memberOf('Group managers', ['GROUPS_READ', 'GROUPS_MODIFY'], 'gina@demo.example.com');
    const created = await call('POST', '/api/groups', gina.token, { name: 'Everything', permissions: ['INBOX_READ'] });
    expect(created.statusCode).toBe(403);
    expect(created.json().error).toMatchObject({
      code: 'user_management.permission_not_held',
      details: [{ field: 'permissions.0', code: 'permissionNotHeld' }],
    });
    const widened = await call('PUT', `/api/groups/${gina.groupId}`, gina.token, {
      name: 'Group managers',
      permissions: ['GROUPS_READ', 'GROUPS_MODIFY', 'USERS_MODIFY'],
    });
    expect(widened.statusCode).toBe(403);
    const joined = await call('PUT', `/api/groups/${ids.admins}/members`, gina.token, {
      userIds: [ids.owner, gina.id],
    });
    expect(joined.statusCode).toBe(403);
    expect(joined.json().error.code).toBe('user_management.cannot_change_own_groups');
    const clerkIn = await call('PUT', `/api/groups/${ids.admins}/members`, gina.token, {
      userIds: [ids.owner, ids.clerk],
    });
    expect(clerkIn.statusCode).toBe(403);
    expect(clerkIn.json().error.code).toBe('user_management.permission_not_held');
    expect(await permissionsOf(gina.token)).toEqual(['GROUPS_MODIFY', 'GROUPS_READ']);
    const admins = (await call('GET', `/api/groups/${ids.admins}`, owner)).json();
    expect(admins.members.map((m: { id: string }) => m.id)).toEqual([ids.owner]);
    // Removing a permission is no grant.
    const narrowed = await call('PUT', `/api/groups/${gina.groupId}`, gina.token, {
      name: 'Group readers',
      permissions: ['GROUPS_READ'],
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
  });

  it('refuses even a full administrator who changes their own groups', async () => {
    const res = await call('PATCH', `/api/company-users/${ids.owner}`, owner, { groupIds: [] });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('user_management.cannot_change_own_groups');
    // Sending the same groups back with a name change is no change of membership.
    const same = await call('PATCH', `/api/company-users/${ids.owner}`, owner, {
      firstName: 'Uma',
      groupIds: [ids.admins],
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(await permissionsOf(owner)).toHaveLength(FEATURE_PERMISSIONS.length);
  });

  it('refuses the ETTN permission until the company is entitled to e-TTN', async () => {
    // The demo administrator holds all 24 permissions, ETTN included; without the company's e-TTN entitlement (the
    // demo seeds it for Demo Supplier: switched off here) it cannot grant it.
    await t.database.db.update(companies).set({ toggles: [] }).where(eq(companies.id, ids.supplier));
    const res = await call('POST', '/api/groups', owner, { name: 'Transport', permissions: ['INBOX_READ', 'ETTN'] });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'user_management.permission_not_entitled',
      details: [{ field: 'permissions.1', code: 'permissionNotEntitled' }],
    });
    const admin = (await login(t.app, ADMIN)).access_token;
    const toggled = await call('PUT', `/api/admin/companies/${ids.supplier}/toggles`, admin, { toggles: ['ETTN'] });
    expect(toggled.statusCode, toggled.body).toBe(200);
    const again = await call('POST', '/api/groups', owner, { name: 'Transport', permissions: ['INBOX_READ', 'ETTN'] });
    expect(again.statusCode, again.body).toBe(201);
    await t.database.db
      .update(companies)
      .set({ toggles: ['CHAT_AI', 'ETTN'] })
      .where(eq(companies.id, ids.supplier));
  });
});

describe('an invitation tells nothing about other companies (item 8)', () => {
  it("answers an address of another company like a new one and tells that address's owner by e-mail", async () => {
    const fresh = await call('POST', '/api/company-users/invite', owner, {
      email: 'brand-new@example.com',
      firstName: 'New',
      lastName: 'Person',
    });
    const taken = await call('POST', '/api/company-users/invite', owner, {
      email: 'BUYER@demo.example.com',
      firstName: 'New',
      lastName: 'Person',
    });
    expect(fresh.statusCode, fresh.body).toBe(201);
    expect(taken.statusCode, taken.body).toBe(201);
    expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    expect(taken.json()).toMatchObject({ status: 'invited', firstName: 'New', groups: [], restrictions: [] });

    // Nothing changed: the buyer is still in their own company and not listed here.
    const listed = (await call('GET', '/api/company-users?search=buyer', owner)).json();
    expect(listed.items).toEqual([]);
    expect(
      (await login(t.app, { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' })).access_token,
    ).toBeTruthy();
    const notice = await receiver.waitFor('buyer@demo.example.com', /invitation/i);
    expect(notice.subject).toBe('An invitation to Demo Supplier');
    expect(notice.text).toContain('already has an account');
    expect(notice.text).not.toContain('set-password');
  });

  it('still answers 409 for a user of the caller’s own company, who is on their list anyway', async () => {
    const res = await call('POST', '/api/company-users/invite', owner, {
      email: CLERK.toUpperCase(),
      firstName: 'A',
      lastName: 'B',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'users.email_taken',
      details: [{ field: 'email', code: 'emailTaken' }],
    });
  });
});
