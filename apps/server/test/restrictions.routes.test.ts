import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { isValidGln } from '@portal/contracts';
import { groupMembers, groups } from '../src/features/groups/groups.table.ts';
import { allowsDocument, effectiveRestrictions } from '../src/features/restrictions/restrictions.service.ts';
import { bearer, createTestApp, DEMO_USER, latestAudit, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const GLN_A = '5901234123457';
const GLN_B = '4000001000005';

type Details = { field: string; code: string }[];
const fieldsOf = (body: { error?: { details?: Details } }) => (body.error?.details ?? []).map((d) => d.field);
type Item = { id: string; name: string; email?: string };

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;
const ids = { user: '', clerk: '', buyer: '', supplierInbox: '', supplierAdmins: '', retailerAdmins: '' };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: bearer(token) } : {}),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });

const rule = (over: Record<string, unknown> = {}) => ({
  name: 'North depots',
  description: 'Orders and despatch advices of the northern depots',
  partners: ['partner-1', 'partner-1', GLN_B],
  deliveryPointGlns: [GLN_A],
  documentTypes: ['DESADV', 'ORDERS', 'ORDERS'],
  directions: ['in'],
  assignees: { userIds: [], groupIds: [] },
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
  const mine = (await call('GET', '/api/company-users', user)).json().items as Item[];
  ids.user = mine.find((u) => u.email === DEMO_USER.login)!.id;
  ids.clerk = mine.find((u) => u.email === CLERK.login)!.id;
  ids.buyer = ((await call('GET', '/api/company-users', buyer)).json().items as Item[])[0]!.id;
  const supplierGroups = (await call('GET', '/api/groups', user)).json().items as Item[];
  ids.supplierInbox = supplierGroups.find((g) => g.name === 'Inbox readers')!.id;
  ids.supplierAdmins = supplierGroups.find((g) => g.name === 'Administrators')!.id;
  ids.retailerAdmins = ((await call('GET', '/api/groups', buyer)).json().items as Item[])[0]!.id;
});
afterAll(() => t.close());

describe('GLN-13 check digit', () => {
  it('accepts valid GLNs and refuses wrong check digits and shapes', () => {
    for (const gln of [GLN_A, GLN_B, '8712345678906', '5900000000015']) expect(isValidGln(gln), gln).toBe(true);
    for (const gln of ['5901234123458', '590123412345', '59012341234570', '590123412345a', ''])
      expect(isValidGln(gln), gln).toBe(false);
  });
});

describe('restrictions CRUD', () => {
  let north = '';

  it('creates a restriction with its assignees, lists normalised (each once, canonical order)', async () => {
    const res = await call(
      'POST',
      '/api/restrictions',
      user,
      rule({ assignees: { userIds: [ids.clerk, ids.clerk], groupIds: [ids.supplierInbox] } }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    north = body.id;
    expect(body).toMatchObject({
      name: 'North depots',
      partners: ['partner-1', GLN_B],
      deliveryPointGlns: [GLN_A],
      documentTypes: ['ORDERS', 'DESADV'],
      directions: ['in'],
      assignees: {
        users: [{ id: ids.clerk, email: 'clerk@demo.example.com', firstName: 'Carl', lastName: 'Clerk' }],
        groups: [{ id: ids.supplierInbox, name: 'Inbox readers' }],
      },
    });
    const entry = await latestAudit(t.database.db, 'restrictions.changed');
    expect(entry?.details).toMatchObject({
      change: 'created',
      restrictionId: north,
      before: null,
      after: { userIds: [ids.clerk] },
    });
    // The user's detail shows the direct assignment.
    expect((await call('GET', `/api/company-users/${ids.clerk}`, user)).json().restrictions).toEqual([
      { id: north, name: 'North depots' },
    ]);
  });

  it('defaults every list to empty (no narrowing)', async () => {
    const res = await call('POST', '/api/restrictions', user, { name: 'Open' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      description: null,
      partners: [],
      deliveryPointGlns: [],
      documentTypes: [],
      directions: [],
      assignees: { users: [], groups: [] },
    });
  });

  it('lists, searches, filters by assignee and pages', async () => {
    const all = (await call('GET', '/api/restrictions?includeTotal=true', user)).json();
    expect(all.items.map((r: Item) => r.name)).toEqual(['North depots', 'Open']);
    expect(all.total).toBe(2);
    const names = async (qs: string) =>
      ((await call('GET', `/api/restrictions?${qs}`, user)).json().items as Item[]).map((r) => r.name);
    expect(await names('search=NORTHERN')).toEqual(['North depots']);
    expect(await names(`userId=${ids.clerk}`)).toEqual(['North depots']);
    expect(await names(`groupId=${ids.supplierInbox}`)).toEqual(['North depots']);
    expect(await names(`userId=${ids.user}`)).toEqual([]);
    const first = (await call('GET', '/api/restrictions?limit=1', user)).json();
    expect(first.items.map((r: Item) => r.name)).toEqual(['North depots']);
    const second = (await call('GET', `/api/restrictions?limit=1&cursor=${first.nextCursor}`, user)).json();
    expect(second.items.map((r: Item) => r.name)).toEqual(['Open']);
    expect(second.nextCursor).toBeNull();
    expect((await call('GET', '/api/restrictions', buyer)).json().items).toEqual([]);
  });

  it('gets one; 404 for another company or an unknown id', async () => {
    expect((await call('GET', `/api/restrictions/${north}`, user)).json().name).toBe('North depots');
    expect((await call('GET', `/api/restrictions/${north}`, buyer)).statusCode).toBe(404);
    expect((await call('GET', `/api/restrictions/${randomUUID()}`, user)).statusCode).toBe(404);
  });

  it('replaces a restriction and its assignees', async () => {
    const res = await call(
      'PUT',
      `/api/restrictions/${north}`,
      user,
      rule({
        name: 'North',
        description: null,
        directions: ['out', 'in'],
        assignees: { userIds: [], groupIds: [ids.supplierAdmins] },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'North',
      description: null,
      directions: ['in', 'out'],
      assignees: { users: [], groups: [{ id: ids.supplierAdmins }] },
    });
  });

  it('keeps names unique per company whatever the case (409 on name)', async () => {
    const dup = await call('POST', '/api/restrictions', user, rule({ name: 'OPEN' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({
      code: 'restrictions.name_taken',
      details: [{ field: 'name', code: 'nameTaken' }],
    });
    expect((await call('PUT', `/api/restrictions/${north}`, user, rule({ name: 'open' }))).statusCode).toBe(409);
    expect((await call('POST', '/api/restrictions', buyer, rule({ name: 'Open' }))).statusCode).toBe(201);
  });

  it('answers bad input with 400 naming the field', async () => {
    for (const [payload, field] of [
      [rule({ name: '' }), 'name'],
      [rule({ name: undefined }), 'name'],
      [rule({ description: 'x'.repeat(1001) }), 'description'],
      [rule({ partners: [''] }), 'partners.0'],
      [rule({ deliveryPointGlns: [GLN_A, '5901234123458'] }), 'deliveryPointGlns.1'],
      [rule({ deliveryPointGlns: ['12345'] }), 'deliveryPointGlns.0'],
      [rule({ documentTypes: ['ORDERS', 'MEMO'] }), 'documentTypes.1'],
      [rule({ directions: ['sideways'] }), 'directions.0'],
      [rule({ assignees: { userIds: ['me'] } }), 'assignees.userIds.0'],
      [rule({ assignees: { userIds: [ids.buyer] } }), 'assignees.userIds.0'],
      [rule({ assignees: { groupIds: [ids.supplierInbox, ids.retailerAdmins] } }), 'assignees.groupIds.1'],
    ] as const) {
      const res = await call('POST', '/api/restrictions', user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fieldsOf(res.json()), JSON.stringify(payload)).toContain(field);
    }
    const gln = await call('PUT', `/api/restrictions/${north}`, user, rule({ deliveryPointGlns: ['5901234123450'] }));
    expect(gln.json().error.details).toEqual([{ field: 'deliveryPointGlns.0', code: 'gln' }]);
    for (const [qs, field] of [
      ['limit=0', 'limit'],
      ['cursor=%2A', 'cursor'],
      [`cursor=${Buffer.from('[1,2]').toString('base64url')}`, 'cursor'],
      ['userId=me', 'userId'],
    ] as const) {
      const res = await call('GET', `/api/restrictions?${qs}`, user);
      expect(res.statusCode, qs).toBe(400);
      expect(fieldsOf(res.json())).toContain(field);
    }
    expect(fieldsOf((await call('GET', '/api/restrictions/x', user)).json())).toEqual(['id']);
  });

  it("answers 404 for another company's restriction on change and delete", async () => {
    expect((await call('PUT', `/api/restrictions/${north}`, buyer, rule({ name: 'Mine now' }))).statusCode).toBe(404);
    expect((await call('DELETE', `/api/restrictions/${north}`, buyer)).statusCode).toBe(404);
    expect((await call('GET', `/api/restrictions/${north}`, user)).json().name).toBe('North');
  });

  it('refuses without the permissions (403) and without a session (401)', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/restrictions', undefined],
      ['GET', `/api/restrictions/${north}`, undefined],
      ['POST', '/api/restrictions', rule({ name: 'Clerk rule' })],
      ['PUT', `/api/restrictions/${north}`, rule()],
      ['DELETE', `/api/restrictions/${north}`, undefined],
    ] as const) {
      expect((await call(method, url, clerk, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('deletes (204), recording what was there', async () => {
    const res = await call('DELETE', `/api/restrictions/${north}`, user);
    expect(res.statusCode).toBe(204);
    expect((await call('GET', `/api/restrictions/${north}`, user)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/restrictions/${north}`, user)).statusCode).toBe(404);
    const entry = await latestAudit(t.database.db, 'restrictions.changed');
    expect(entry?.details).toMatchObject({
      change: 'deleted',
      restrictionId: north,
      before: { name: 'North' },
      after: null,
    });
  });
});

describe('effectiveRestrictions and allowsDocument', () => {
  it('unites the rules assigned to the user directly and through groups, each once, of their company only', async () => {
    const direct = (
      await call(
        'POST',
        '/api/restrictions',
        user,
        rule({ name: 'B direct', assignees: { userIds: [ids.clerk], groupIds: [] } }),
      )
    ).json().id;
    const viaGroup = (
      await call(
        'POST',
        '/api/restrictions',
        user,
        rule({
          name: 'A via group',
          documentTypes: ['INVOIC'],
          directions: [],
          partners: [],
          deliveryPointGlns: [],
          assignees: { userIds: [], groupIds: [ids.supplierInbox] },
        }),
      )
    ).json().id;
    const both = (
      await call(
        'POST',
        '/api/restrictions',
        user,
        rule({ name: 'C both', assignees: { userIds: [ids.clerk], groupIds: [ids.supplierInbox] } }),
      )
    ).json().id;
    await call(
      'POST',
      '/api/restrictions',
      user,
      rule({ name: 'D someone else', assignees: { userIds: [ids.user], groupIds: [] } }),
    );

    const clerkRules = await effectiveRestrictions(t.database.db, ids.clerk);
    expect(clerkRules.map((r) => r.id)).toEqual([viaGroup, direct, both]);
    expect(clerkRules[0]).toEqual({
      id: viaGroup,
      name: 'A via group',
      partners: [],
      deliveryPointGlns: [],
      documentTypes: ['INVOIC'],
      directions: [],
    });
    expect((await effectiveRestrictions(t.database.db, ids.user)).map((r) => r.name)).toEqual(['D someone else']);
    expect(await effectiveRestrictions(t.database.db, ids.buyer)).toEqual([]);
    expect(await effectiveRestrictions(t.database.db, randomUUID())).toEqual([]);
  });

  it("ignores memberships in another company's group", async () => {
    // A stray row linking the clerk to the retailer's group must not bring the retailer's rules along.
    const retailerRule = (
      await call(
        'POST',
        '/api/restrictions',
        buyer,
        rule({ name: 'Retailer only', assignees: { userIds: [], groupIds: [ids.retailerAdmins] } }),
      )
    ).json();
    expect(retailerRule.assignees.groups).toHaveLength(1);
    await t.database.db.insert(groupMembers).values({ groupId: ids.retailerAdmins, userId: ids.clerk });
    try {
      expect((await effectiveRestrictions(t.database.db, ids.clerk)).map((r) => r.name)).not.toContain('Retailer only');
    } finally {
      await t.database.db.delete(groupMembers).where(eq(groupMembers.userId, ids.clerk)).execute();
      await t.database.db.insert(groupMembers).values({ groupId: ids.supplierInbox, userId: ids.clerk });
    }
    const [inbox] = await t.database.db.select().from(groups).where(eq(groups.id, ids.supplierInbox));
    expect(inbox?.name).toBe('Inbox readers');
  });

  it('lets a document through only when every rule allows it; an empty list leaves its axis open', () => {
    const rules = [
      {
        id: '1',
        name: 'types',
        partners: [],
        deliveryPointGlns: [],
        documentTypes: ['ORDERS', 'DESADV'] as const,
        directions: [],
      },
      {
        id: '2',
        name: 'depot',
        partners: ['p1'],
        deliveryPointGlns: [GLN_A],
        documentTypes: [],
        directions: ['in'] as const,
      },
    ].map((r) => ({ ...r, documentTypes: [...r.documentTypes], directions: [...r.directions] }));
    const doc = { partner: 'p1', deliveryPointGln: GLN_A, documentType: 'ORDERS', direction: 'in' as const };
    expect(allowsDocument([], { ...doc, documentType: 'INVOIC' })).toBe(true);
    expect(allowsDocument(rules, doc)).toBe(true);
    expect(allowsDocument(rules, { ...doc, documentType: 'INVOIC' })).toBe(false);
    expect(allowsDocument(rules, { ...doc, direction: 'out' })).toBe(false);
    expect(allowsDocument(rules, { ...doc, partner: 'p2' })).toBe(false);
    expect(allowsDocument(rules, { ...doc, deliveryPointGln: undefined })).toBe(false);
    expect(allowsDocument([rules[0]!], { ...doc, deliveryPointGln: undefined, partner: undefined })).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('documents the restriction endpoints', async () => {
    const paths = Object.keys((await call('GET', '/api/docs/json')).json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/restrictions', '/api/restrictions/{id}']));
  });
});
