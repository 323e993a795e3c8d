import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { API_KEYS_MAX_ACTIVE } from '@portal/contracts';
import { bearer, createTestApp, latestAudit, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

type Key = { id: string; name: string; prefix: string; secret?: string; revokedAt: string | null };
const create = async (token: string, name: string) => {
  const res = await call('POST', '/api/company/api-keys', token, { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Key & { secret: string };
};
const listOf = async (token: string, query = '') => {
  const res = await call('GET', `/api/company/api-keys${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
});
afterAll(() => t.close());

describe('company API keys', () => {
  it('shows a new key’s secret once; the list never does', async () => {
    const key = await create(user, '  ERP production  ');
    expect(key).toMatchObject({
      name: 'ERP production',
      createdBy: 'user@demo.example.com',
      lastUsedAt: null,
      revokedAt: null,
      revokedBy: null,
    });
    expect(key.secret).toMatch(/^edi_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.secret.slice(0, 12));

    const res = await listOf(user);
    expect(res.body).not.toContain(key.secret);
    expect(res.body).not.toContain(key.secret.slice(12));
    const listed = res.json().items.find((k: Key) => k.id === key.id);
    expect(listed).toEqual({ ...key, secret: undefined });
    expect(Object.keys(listed)).not.toContain('secret');

    // Stored as a hash: nothing in the table holds the secret.
    const rows = (await t.database.db.execute(sql`select * from company_api_keys where id = ${key.id}`)) as unknown as {
      rows: unknown[];
    };
    expect(JSON.stringify(rows.rows)).not.toContain(key.secret.slice(12));
    const audit = await latestAudit(t.database.db, 'api_keys.created');
    expect(audit?.details).toEqual({ keyId: key.id, name: 'ERP production', prefix: key.prefix });
  });

  it('revokes a key at once, records who, and a second revoke changes nothing', async () => {
    const key = await create(user, 'Old ERP');
    const res = await call('DELETE', `/api/company/api-keys/${key.id}`, user);
    expect(res.statusCode, res.body).toBe(200);
    const revoked = res.json();
    expect(revoked).toMatchObject({ id: key.id, revokedBy: 'user@demo.example.com' });
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect((await latestAudit(t.database.db, 'api_keys.revoked'))?.details).toMatchObject({ keyId: key.id });

    const again = await call('DELETE', `/api/company/api-keys/${key.id}`, user);
    expect(again.statusCode).toBe(200);
    expect(again.json().revokedAt).toBe(revoked.revokedAt);
    expect((await listOf(user)).json().items.find((k: Key) => k.id === key.id).revokedAt).toBe(revoked.revokedAt);
  });

  it('refuses a blank, too long or unstorable name with the field', async () => {
    for (const name of ['   ', 'x'.repeat(101), 'ERP\u0000']) {
      const res = await call('POST', '/api/company/api-keys', user, { name });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.details).toEqual([expect.objectContaining({ field: 'name' })]);
    }
    const res = await call('POST', '/api/company/api-keys', user, {});
    expect(res.statusCode).toBe(400);
  });

  it('needs COMPANY_PROFILE_MODIFY for every route (403)', async () => {
    const key = await create(user, 'Not for clerks');
    for (const [method, url] of [
      ['GET', '/api/company/api-keys'],
      ['POST', '/api/company/api-keys'],
      ['DELETE', `/api/company/api-keys/${key.id}`],
    ] as const) {
      const res = await call(method, url, clerk, method === 'POST' ? { name: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/company/api-keys' });
    expect(res.statusCode).toBe(401);
  });

  it('keeps each company to its own keys: another company’s key id is 404', async () => {
    const key = await create(user, 'Supplier only');
    const res = await call('DELETE', `/api/company/api-keys/${key.id}`, buyer);
    expect(res.statusCode).toBe(404);
    const buyers = (await listOf(buyer)).json().items as Key[];
    expect(buyers.map((k) => k.id)).not.toContain(key.id);
    expect((await listOf(user)).json().items.find((k: Key) => k.id === key.id).revokedAt).toBeNull();
    expect((await call('DELETE', '/api/company/api-keys/00000000-0000-4000-8000-000000000000', user)).statusCode).toBe(
      404,
    );
    const bad = await call('DELETE', '/api/company/api-keys/not-a-uuid', user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe('id');
  });

  it(`holds at most ${API_KEYS_MAX_ACTIVE} keys that are not revoked, and pages the list newest first`, async () => {
    // The retailer starts without keys here.
    const made: Key[] = [];
    for (let i = 0; i < API_KEYS_MAX_ACTIVE; i++) {
      t.clock.advance(1);
      made.push(await create(buyer, `Key ${i}`));
    }
    const over = await call('POST', '/api/company/api-keys', buyer, { name: 'One too many' });
    expect(over.statusCode).toBe(409);
    expect(over.json().error).toMatchObject({ code: 'api_keys.limit_reached', data: { max: API_KEYS_MAX_ACTIVE } });

    await call('DELETE', `/api/company/api-keys/${made[0]!.id}`, buyer);
    // Later than the last key: the same instant would leave the order to the random ids.
    t.clock.advance(1);
    const again = await create(buyer, 'After a revoke');

    const first = (await listOf(buyer, '?limit=15')).json();
    expect(first.items).toHaveLength(15);
    expect(first.items[0].id).toBe(again.id);
    const second = (await listOf(buyer, `?limit=15&cursor=${first.nextCursor}`)).json();
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((k: Key) => k.name)).toEqual([
      'After a revoke',
      ...made.map((k) => k.name).reverse(),
    ]);
    const forged = await call('GET', '/api/company/api-keys?cursor=abc', buyer);
    expect(forged.statusCode).toBe(400);
  });
});
