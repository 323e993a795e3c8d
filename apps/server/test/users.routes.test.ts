import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { FEATURE_PERMISSIONS } from '@portal/contracts';
import { companies } from '../src/features/companies/companies.table.ts';
import { groupMembers, groups } from '../src/features/groups/groups.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DEMO = {
  admin: { login: 'admin@demo.example.com', password: 'Admin#Demo2026' },
  user: { login: 'user@demo.example.com', password: 'User#Demo2026' },
  clerk: { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' },
  buyer: { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' },
  demo: { login: 'demo@demo.example.com', password: 'Demo#Demo2026' },
  ksef: { login: 'ksef@demo.example.com', password: 'Ksef#Demo2026' },
};
const ALL = [...FEATURE_PERMISSIONS].sort();

const get = (url: string, token?: string) => t.app.inject({ url, ...(token ? { headers: bearer(token) } : {}) });
async function permissionsOf(creds: { login: string; password: string }) {
  const { access_token } = await login(t.app, creds);
  const res = await get('/api/users/permissions', access_token);
  expect(res.statusCode).toBe(200);
  const body = res.json() as { permissions: string[]; toggles: string[] };
  return { permissions: [...body.permissions].sort(), toggles: [...body.toggles].sort() };
}

describe('GET /api/users/permissions', () => {
  it('gives user@ every feature permission', async () => {
    expect(await permissionsOf(DEMO.user)).toEqual({ permissions: ALL, toggles: ['CHAT_AI', 'ETTN'] });
    expect(ALL).toHaveLength(24);
  });

  it('gives clerk@ only INBOX_READ', async () => {
    expect(await permissionsOf(DEMO.clerk)).toEqual({ permissions: ['INBOX_READ'], toggles: ['CHAT_AI', 'ETTN'] });
  });

  it('gives buyer@ the permissions of Demo Retailer', async () => {
    expect(await permissionsOf(DEMO.buyer)).toEqual({ permissions: ALL, toggles: ['CHAT_AI', 'ETTN'] });
  });

  it('gives admin@ no feature permission', async () => {
    expect(await permissionsOf(DEMO.admin)).toEqual({ permissions: [], toggles: [] });
  });

  it("gives ksef@ its company's KSeF toggles", async () => {
    expect(await permissionsOf(DEMO.ksef)).toEqual({ permissions: ALL, toggles: ['DEMO_KSEF', 'KSEF'] });
  });

  it("never counts a group of another company, in the permissions or in the token's groups", async () => {
    const [retailer] = await t.database.db.select().from(companies).where(eq(companies.name, 'Demo Retailer'));
    const [foreign] = await t.database.db
      .insert(groups)
      .values({ companyId: retailer!.id, name: 'Retail partners', permissions: ALL })
      .returning();
    for (const email of [DEMO.user.login, DEMO.clerk.login]) {
      const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
      await t.database.db.insert(groupMembers).values({ groupId: foreign!.id, userId: u!.id });
    }
    expect(await permissionsOf(DEMO.user)).toEqual({ permissions: ALL, toggles: ['CHAT_AI', 'ETTN'] });
    expect(await permissionsOf(DEMO.clerk)).toEqual({ permissions: ['INBOX_READ'], toggles: ['CHAT_AI', 'ETTN'] });
    expect(decodeJwt((await login(t.app, DEMO.clerk)).access_token).groups).toEqual(['Inbox readers']);
    expect(decodeJwt((await login(t.app, DEMO.user)).access_token).groups).toEqual(['Administrators']);
  });
});

describe('GET /api/users/getUserData', () => {
  it("returns the caller's data", async () => {
    const { access_token } = await login(t.app, DEMO.user);
    const res = await get('/api/users/getUserData', access_token);
    expect(res.statusCode).toBe(200);
    const [supplier] = await t.database.db.select().from(companies).where(eq(companies.name, 'Demo Supplier'));
    expect(res.json()).toEqual({
      id: decodeJwt(access_token).sub,
      email: 'user@demo.example.com',
      firstName: 'Uma',
      lastName: 'User',
      language: 'en',
      telephone: null,
      companyId: supplier!.id,
      companyName: 'Demo Supplier',
      roles: ['chat-ai', 'ettn', 'ETTN_CZ'],
    });
  });

  it('gives the admin its role and no company', async () => {
    const { access_token } = await login(t.app, DEMO.admin);
    expect((await get('/api/users/getUserData', access_token)).json()).toMatchObject({
      email: 'admin@demo.example.com',
      roles: ['admin'],
      companyId: null,
      companyName: null,
    });
  });
});

describe('POST /api/users/setLanguage', () => {
  it('stores a supported language and refuses others with the field', async () => {
    const { access_token } = await login(t.app, DEMO.demo);
    const set = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/users/setLanguage', headers: bearer(access_token), payload });
    const ok = await set({ language: 'ar' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    expect((await get('/api/users/getUserData', access_token)).json().language).toBe('ar');

    for (const language of ['xx', 'EN', '', 42]) {
      const bad = await set({ language });
      expect(bad.statusCode, String(language)).toBe(400);
      expect(bad.json().error).toMatchObject({
        code: 'validation.failed',
        details: [{ field: 'language', code: 'language' }],
      });
    }
    const missing = await set({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].field).toBe('language');
    expect((await get('/api/users/getUserData', access_token)).json().language).toBe('ar');

    // The stored language goes into the next token.
    expect(decodeJwt((await login(t.app, DEMO.demo)).access_token).locale).toBe('ar');
  });

  it('needs a signed-in caller', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/users/setLanguage', payload: { language: 'de' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('authentication of private routes', () => {
  const expectUnauthenticated = async (headers: Record<string, string>) => {
    for (const url of ['/api/users/permissions', '/api/users/getUserData']) {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(401);
      expect(res.json()).toEqual({
        error: { code: 'auth.unauthenticated', message: expect.any(String) },
        requestId: expect.any(String),
      });
    }
  };

  it('refuses no token, a garbage token and another scheme', async () => {
    await expectUnauthenticated({});
    await expectUnauthenticated({ authorization: 'Bearer garbage' });
    await expectUnauthenticated({ authorization: 'Bearer ' });
    const { access_token } = await login(t.app, DEMO.user);
    await expectUnauthenticated({ authorization: `Basic ${access_token}` });
    await expectUnauthenticated({ authorization: access_token });
  });

  it('refuses a token signed by another Ed25519 key with the same claims and key id', async () => {
    const { access_token } = await login(t.app, DEMO.user);
    const claims = decodeJwt(access_token);
    const kid = (await get('/api/.well-known/jwks.json')).json().keys[0].kid;
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const forged = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' })
      .sign(privateKey);
    await expectUnauthenticated(bearer(forged));
    // The same claims unsigned ("alg": "none") are refused too.
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    await expectUnauthenticated(bearer(`${header}.${access_token.split('.')[1]}.`));
  });

  it('refuses an expired token', async () => {
    const { access_token, expires_in } = await login(t.app, DEMO.user);
    t.clock.advance(expires_in - 1);
    expect((await get('/api/users/permissions', access_token)).statusCode).toBe(200);
    t.clock.advance(1);
    await expectUnauthenticated(bearer(access_token));
  });

  it('refuses the next call of a user disabled after login', async () => {
    const [clerk] = await t.database.db.select().from(users).where(eq(users.email, DEMO.clerk.login));
    const { access_token } = await login(t.app, DEMO.clerk);
    expect((await get('/api/users/permissions', access_token)).statusCode).toBe(200);
    await t.database.db.update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, clerk!.id));
    await expectUnauthenticated(bearer(access_token));
    await t.database.db
      .update(users)
      .set({ disabledAt: sql`null` })
      .where(eq(users.id, clerk!.id));
    expect((await get('/api/users/permissions', access_token)).statusCode).toBe(200);
  });
});
