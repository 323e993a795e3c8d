import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../src/plugins/error-handler.ts';
import { bearer, createTestApp, latestAudit, login, type TestApp } from './helper.ts';

/**
 * The exact requests of issue 16, item 7 ("500 for ordinary bad input"), each a 400 naming the field now; and the
 * attacker's variations around them (repeated keys and parameters, `__proto__`, deep nesting, huge arrays).
 */

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const NUL = 'a\u0000b';
const LONE = 'a\uD800b';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const cursorOf = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

let t: TestApp;
let user: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  admin = (await login(t.app, ADMIN)).access_token;
});
afterAll(async () => {
  await t.close();
});

type Answer = { statusCode: number; json(): { error?: { code: string; details?: { field: string; code: string }[] } } };
const detailsOf = (res: Answer) => (res.json().error?.details ?? []).map((d) => `${d.field}:${d.code}`);

async function send(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token: string | null, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Expects the 400 of a refused field, with the field and its code, as the web app shows it. */
function expectRefused(res: Answer, field: string, code = 'characters') {
  expect(res.statusCode).toBe(400);
  expect(res.json().error?.code).toBe('validation.failed');
  expect(detailsOf(res)).toContain(`${field}:${code}`);
}

const REMINDER = {
  header: 'Payment overdue',
  body: 'Please pay the invoice.',
  contact: { text: 'Accounts', phone: '+48 22 000 00 00', mail: 'accounts@example.com' },
  footer: '',
  close: 'Close',
};

describe('a NUL byte in a string is a 400 naming the field (it was a 500)', () => {
  it('in the login and the legacy login', async () => {
    for (const url of ['/api/users/login', '/api/legacy/login']) {
      expectRefused(await send('POST', url, null, { login: `user${NUL}@demo.example.com`, password: 'x' }), 'login');
      expectRefused(await send('POST', url, null, { login: 'user@demo.example.com', password: NUL }), 'password');
    }
  });

  it('in every name: registration, profile, company, group, restriction, invitation', async () => {
    const register = { firstName: NUL, lastName: 'B', email: 'nul@example.com', password: 'Abcdef1!x' };
    expectRefused(await send('POST', '/api/users/register', null, register), 'firstName');
    expectRefused(
      await send('POST', '/api/users/updateUserData', user, { firstName: 'Uma', lastName: NUL }),
      'lastName',
    );
    expectRefused(await send('PUT', '/api/company/profile', user, { name: NUL }), 'name');
    expectRefused(await send('POST', '/api/admin/companies', admin, { name: NUL }), 'name');
    expectRefused(await send('PATCH', `/api/admin/companies/${UNKNOWN}`, admin, { name: NUL }), 'name');
    expectRefused(await send('POST', '/api/groups', user, { name: NUL, permissions: [] }), 'name');
    expectRefused(await send('POST', '/api/restrictions', user, { name: NUL }), 'name');
    expectRefused(await send('POST', '/api/restrictions', user, { name: 'R', partners: [NUL] }), 'partners.0');
    const invite = { email: 'new@demo.example.com', firstName: NUL, lastName: 'B' };
    expectRefused(await send('POST', '/api/company-users/invite', user, invite), 'firstName');
  });

  it('in the app config', async () => {
    const url = '/api/admin/app-config/PAYMENT_REMINDER/en';
    expectRefused(await send('PUT', url, admin, { ...REMINDER, header: NUL }), 'header');
    expectRefused(
      await send('PUT', url, admin, { ...REMINDER, contact: { ...REMINDER.contact, text: NUL } }),
      'contact.text',
    );
    // The stored reminder is untouched.
    const res = await send('GET', '/api/AppConfig?appConfigType=PAYMENT_REMINDER', user);
    const en = res.json() as { httpResponse: { body: { lang: string; content: { header: string } }[] } };
    expect(en.httpResponse.body.find((e) => e.lang === 'en')?.content.header).not.toContain('\u0000');
  });

  it('in an issue report', async () => {
    for (const field of ['subject', 'description']) {
      const form = new FormData();
      for (const [k, v] of Object.entries({ type: 'technical', priority: 'minor', subject: 'S', description: 'D' }))
        form.append(k, k === field ? NUL : v);
      const request = new Request('http://x', { method: 'POST', body: form });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/issue-reports',
        headers: { 'content-type': request.headers.get('content-type')!, ...bearer(user) },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      expectRefused(res, field);
    }
  });

  it.each([
    ['/api/admin/companies', 'search', 'admin'],
    ['/api/admin/users', 'search', 'admin'],
    ['/api/admin/emails', 'to', 'admin'],
    ['/api/admin/emails', 'kind', 'admin'],
    ['/api/company-users', 'search', 'user'],
    ['/api/groups', 'search', 'user'],
    ['/api/restrictions', 'search', 'user'],
  ] as const)('in the filter %s?%s', async (path, param, who) => {
    const res = await send('GET', `${path}?${param}=a%00b`, who === 'admin' ? admin : user);
    expectRefused(res, param);
  });
});

describe('a lone UTF-16 surrogate is a 400 naming the field (it was a 500 or a silent U+FFFD)', () => {
  it('in the company profile, which stays as it was', async () => {
    const before = (await send('GET', '/api/company/profile', user)).json() as Record<string, unknown>;
    for (const field of ['name', 'street', 'city', 'signerName', 'legalForm']) {
      expectRefused(await send('PUT', '/api/company/profile', user, { name: 'Demo', [field]: LONE }), field);
    }
    expect((await send('GET', '/api/company/profile', user)).json()).toEqual(before);
  });

  it('in every field of the app config', async () => {
    const url = '/api/admin/app-config/PAYMENT_REMINDER/de';
    for (const field of ['header', 'body', 'footer', 'close'] as const) {
      expectRefused(await send('PUT', url, admin, { ...REMINDER, [field]: LONE }), field);
    }
    const contact = { ...REMINDER.contact, text: '\uDC00' };
    expectRefused(await send('PUT', url, admin, { ...REMINDER, contact }), 'contact.text');
  });
});

describe('a forged cursor is a 400 on the field cursor (it was a 500)', () => {
  it.each(['/api/admin/emails', '/api/admin/issue-reports'])('an impossible date on %s', async (path) => {
    for (const date of ['2026-99-99 99:99:99', '2026-02-30 10:00:00+00', '2026-11-16 10:00:00+99']) {
      expectRefused(await send('GET', `${path}?cursor=${cursorOf([date, UNKNOWN])}`, admin), 'cursor', 'cursor');
    }
  });

  it.each([
    ['/api/admin/companies', ['a\u0000', UNKNOWN], 'admin'],
    ['/api/admin/users', ['a\u0000', UNKNOWN], 'admin'],
    ['/api/company-users', ['a\u0000', 'b', UNKNOWN], 'user'],
    ['/api/groups', ['a\u0000', UNKNOWN], 'user'],
    ['/api/restrictions', ['\uD800', UNKNOWN], 'user'],
  ] as const)('a NUL or lone surrogate inside the key on %s', async (path, key, who) => {
    expectRefused(
      await send('GET', `${path}?cursor=${cursorOf(key)}`, who === 'admin' ? admin : user),
      'cursor',
      'cursor',
    );
  });

  it('a NUL in the cursor parameter itself', async () => {
    expectRefused(await send('GET', '/api/admin/emails?cursor=WyJh%00', admin), 'cursor');
    expectRefused(await send('GET', '/api/groups?cursor=WyJh%00', user), 'cursor');
  });

  it('still takes the cursors the API hands out', async () => {
    // Two e-mails in the log, so the first page has a next one.
    for (const email of ['user@demo.example.com', 'admin@demo.example.com'])
      await send('POST', '/api/users/sendResetPasswordEmail', null, { email });
    for (const path of ['/api/admin/emails', '/api/admin/audit', '/api/admin/companies']) {
      const first = await send('GET', `${path}?limit=1`, admin);
      const next = first.json() as { nextCursor: string | null };
      expect(next.nextCursor, path).not.toBeNull();
      const second = await send('GET', `${path}?limit=1&cursor=${next.nextCursor!}`, admin);
      expect(second.statusCode).toBe(200);
    }
  });
});

describe('a malformed multipart body on /api/issue-reports is a 400 (it was a 500)', () => {
  const boundary = 'probe-boundary';
  const form = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="type"',
    '',
    'technical',
    `--${boundary}`,
    'Content-Disposition: form-data; name="subject"',
    '',
    'A subject',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  it.each([
    ['without a boundary', 'multipart/form-data', form],
    ['truncated', `multipart/form-data; boundary=${boundary}`, form.slice(0, 60)],
    [
      'without its closing boundary',
      `multipart/form-data; boundary=${boundary}`,
      form.replace(`--${boundary}--\r\n`, ''),
    ],
    ['with another boundary than announced', 'multipart/form-data; boundary=other', form],
    [
      'with a part named __proto__',
      `multipart/form-data; boundary=${boundary}`,
      form.replace('name="type"', 'name="__proto__"'),
    ],
  ])('%s', async (_, contentType, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/issue-reports',
      headers: { 'content-type': contentType, ...bearer(user) },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('request.malformed');
  });
});

describe("an attacker's variations are a 400 or harmless, never a 500", () => {
  it('a path that does not decode, or a path parameter over its length, answers in the API error body', async () => {
    for (const url of [`/api/admin/companies/%ED%A0%80`, '/api/groups/%E0%A4%A', '/api/%C0']) {
      const res = await send('GET', url, admin);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'request.malformed' }, requestId: expect.any(String) });
    }
    const long = await send('GET', `/api/groups/${'a'.repeat(5000)}`, user);
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ error: { code: 'request.too_large' }, requestId: expect.any(String) });
    // A NUL decodes, so it reaches the route and its schema.
    expectRefused(await send('GET', '/api/admin/companies/%00', admin), 'id', 'uuid');
  });

  it('a repeated query parameter is a 400 on that parameter', async () => {
    expectRefused(await send('GET', '/api/admin/users?search=a&search=b', admin), 'search', 'invalid_type');
    expectRefused(await send('GET', '/api/groups?cursor=a&cursor=b', user), 'cursor', 'invalid_type');
  });

  it('a repeated JSON key counts as its last value, so a NUL there is refused', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"login":"user@demo.example.com","password":"x","login":"a\\u0000"}',
    });
    expectRefused(res, 'login');
  });

  it('a __proto__ or constructor.prototype key is refused and pollutes nothing', async () => {
    for (const payload of [
      '{"__proto__":{"isAdmin":true},"name":"Polluted"}',
      '{"constructor":{"prototype":{"isAdmin":true}},"name":"Polluted"}',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/groups',
        headers: { 'content-type': 'application/json', ...bearer(user) },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('request.malformed');
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('deep nesting, huge arrays and very long strings are refused', async () => {
    const post = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/restrictions',
        headers: { 'content-type': 'application/json', ...bearer(user) },
        payload,
      });
    expectRefused(await post(`{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`), 'name', 'required');
    expectRefused(await post(`{"name":"R","partners":[${'"p",'.repeat(1000)}"p"]}`), 'partners', 'tooBig');
    expectRefused(await post(JSON.stringify({ name: 'x'.repeat(101) })), 'name', 'tooLong');
    const tooBig = await post(JSON.stringify({ name: 'R', partners: Array(200_000).fill('partner') }));
    expect(tooBig.statusCode).toBe(413);
  });
});

describe('text that reaches the database anyway', () => {
  it('is a 400, not a 500, when the database refuses its encoding', async () => {
    // A route without a schema, as a future one might be: the database's refusal is still the client's input.
    const app = Fastify();
    registerErrorHandler(app);
    app.post('/echo', async (request) => {
      await t.database.db.execute(sql`select ${(request.body as { value: string }).value}::text`);
      return { ok: true };
    });
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { value: NUL } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('request.malformed');
    expect((await app.inject({ method: 'POST', url: '/echo', payload: { value: 'fine' } })).statusCode).toBe(200);
    await app.close();
  });

  it('a user agent with control characters is kept in the audit log without them', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { 'user-agent': `probe\u0000agent\u0001${'x'.repeat(1000)}` },
      payload: { login: 'user@demo.example.com', password: 'User#Demo2026' },
    });
    expect(res.statusCode).toBe(200);
    const entry = await latestAudit(t.database.db, 'auth.login_succeeded');
    expect(entry?.userAgent).toMatch(/^probe\uFFFDagent\uFFFDx+$/);
    expect(entry?.userAgent?.length).toBe(300);
  });
});
