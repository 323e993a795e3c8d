import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { FEATURE_PERMISSIONS } from '@portal/contracts';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { legacyAccounts } from '../src/features/auth/auth.table.ts';
import { outboundEmails } from '../src/features/mail/mail.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';
import { linkIn, startSmtpReceiver } from './smtp.ts';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url } });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const PASSWORD = 'Str0ng#Pass';
const VERIFY_PREFIX = 'http://portal.test/api/users/verifyEmail?token=';
const EN_SUBJECT = /^Confirm your e-mail address$/;

// Registrations are limited per address and hour: each request comes from its own address.
let lastIp = 0;
const nextIp = () => `10.9.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

const newEmail = () => `reg-${randomUUID()}@example.com`;
const payloadFor = (email = newEmail(), extra: Record<string, unknown> = {}) => ({
  firstName: 'Rita',
  lastName: 'Register',
  email,
  password: PASSWORD,
  locale: 'en',
  ...extra,
});
const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/users/register', payload, remoteAddress: nextIp() });
const post = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: nextIp() });
const mailsTo = (email: string) => receiver.messages.filter((m) => m.to.includes(email.toLowerCase()));

/** The path of a link as the browser would request it from the server. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

async function verifyFromMail(email: string) {
  const mail = await receiver.waitFor(email, EN_SUBJECT);
  return t.app.inject({ url: pathOf(linkIn(mail, VERIFY_PREFIX)) });
}

function catalogSubject(lang: string): string | undefined {
  const file = new URL(`../../../packages/i18n/locales/${lang}/email.json`, import.meta.url);
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { verify?: { subject?: string } }).verify?.subject;
}

describe('registration and e-mail verification', () => {
  it('registers, e-mails a link, refuses login until the link is opened, then logs in', async () => {
    const email = newEmail();
    const res = await register(payloadFor(email));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const id: string = res.json().id;

    const mail = await receiver.waitFor(email);
    expect(mail.subject).toMatch(EN_SUBJECT);
    expect(mail.text).toContain('Hello Rita,');
    const link = linkIn(mail, VERIFY_PREFIX);
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));

    const early = await post('/api/users/login', { login: email, password: PASSWORD });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ success: false, error: { code: 'auth.email_not_verified', data: { id } } });

    const opened = await t.app.inject({ url: pathOf(link) });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/login?msgType=success&msgText=emailVerified');

    const ok = await post('/api/users/login', { login: email, password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().success).toBe(true);
    const me = await t.app.inject({
      url: '/api/users/getUserData',
      headers: bearer(ok.json().keycloakResponse.token.access_token),
    });
    expect(me.json()).toMatchObject({ id, email, firstName: 'Rita', lastName: 'Register', language: 'en' });

    // Opening the link again is harmless.
    const again = await t.app.inject({ url: pathOf(link) });
    expect(again.headers.location).toBe('/login?msgType=success&msgText=emailVerified');
  });

  it("writes the e-mail in the user's language", async () => {
    const email = newEmail();
    expect((await register(payloadFor(email, { locale: 'pl' }))).statusCode).toBe(200);
    const mail = await receiver.waitFor(email);
    // Polish once pl/email.json exists; until then the English text.
    expect(mail.subject).toBe(catalogSubject('pl') ?? catalogSubject('en'));
    await t.jobs.drain();
    const [stored] = await t.database.db.select().from(outboundEmails).where(eq(outboundEmails.toAddress, email));
    expect(stored).toMatchObject({ kind: 'verify_email', language: 'pl', status: 'sent' });
    const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(user!.language).toBe('pl');
  });

  it('refuses a link older than 24 hours and a garbage one', async () => {
    const email = newEmail();
    expect((await register(payloadFor(email))).statusCode).toBe(200);
    const link = linkIn(await receiver.waitFor(email), VERIFY_PREFIX);
    t.clock.advance(25 * 3600);
    const expired = await t.app.inject({ url: pathOf(link) });
    expect(expired.statusCode).toBe(302);
    expect(expired.headers.location).toBe('/login?msgType=error&msgText=actionExpired');
    const still = await post('/api/users/login', { login: email, password: PASSWORD });
    expect(still.json().error.code).toBe('auth.email_not_verified');

    for (const url of [
      '/api/users/verifyEmail?token=garbage',
      '/api/users/verifyEmail?token=',
      '/api/users/verifyEmail',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/login?msgType=error&msgText=actionError');
    }
  });
});

describe('registration rules (description, section 5)', () => {
  it('requires every field', async () => {
    const res = await register({});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation.failed');
    expect(res.json().error.details).toEqual(
      expect.arrayContaining(
        ['firstName', 'lastName', 'email', 'password'].map((field) => ({ field, code: 'required' })),
      ),
    );
    for (const field of ['firstName', 'lastName', 'email', 'password']) {
      const blank = await register(payloadFor(newEmail(), { [field]: field === 'password' ? '' : '   ' }));
      expect(blank.statusCode, field).toBe(400);
      // Only `required`: a blank e-mail or password is not also reported as malformed.
      expect(blank.json().error.details, field).toEqual([{ field, code: 'required' }]);
      const rest: Record<string, unknown> = payloadFor();
      delete rest[field];
      const missing = await register(rest);
      expect(missing.json().error.details, field).toEqual([{ field, code: 'required' }]);
    }
  });

  it('requires text, @, text, dot, text in the e-mail', async () => {
    for (const email of ['plain', 'a@b', 'a@.', '@example.com', 'a b@example.com', 'ab.example.com']) {
      const res = await register(payloadFor(email));
      expect(res.statusCode, email).toBe(400);
      expect(res.json().error.details, email).toEqual([{ field: 'email', code: 'email' }]);
    }
  });

  it.each([
    ['shorter than 8', 'Ab1#xyz'],
    ['no upper-case letter', 'abcd1#xyz'],
    ['no lower-case letter', 'ABCD1#XYZ'],
    ['no number', 'Abcd#xyzw'],
    ['no special character', 'Abcd1xyzw'],
    ['a special character not in the list', 'Abcd1xyz~'],
  ])('refuses a password with %s', async (_what, password) => {
    const res = await register(payloadFor(newEmail(), { password }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'password', code: 'passwordRules' }]);
  });

  it('accepts listed special characters that need escaping in JSON or a pattern', async () => {
    // Each registration costs a password hash, so only the characters most likely to be mishandled.
    for (const special of ['\\', '"', '|']) {
      const res = await register(payloadFor(newEmail(), { password: `Abcd1xyz${special}` }));
      expect(res.statusCode, special).toBe(200);
    }
  });

  it('refuses a language the portal does not speak', async () => {
    const res = await register(payloadFor(newEmail(), { locale: 'xx' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'locale', code: 'language' }]);
  });

  it('answers an already registered e-mail the same way and tells its owner by e-mail', async () => {
    const email = newEmail();
    const first = await register(payloadFor(email));
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
    const second = await register(payloadFor(email.toUpperCase(), { firstName: 'Other' }));
    const third = await register(payloadFor(email));
    for (const res of [second, third]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
    expect(second.json().id).not.toBe(first.json().id);
    expect(third.json().id).not.toBe(second.json().id);
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
    expect(after[0]!.n).toBe(before[0]!.n);

    const notice = await receiver.waitFor(email, /already have an account/);
    expect(notice.text).toContain('http://portal.test/password-reset');
    expect(notice.text).toContain('Hello Rita,');
    await t.jobs.drain();
    expect(
      mailsTo(email)
        .map((m) => m.subject)
        .sort(),
    ).toEqual(['Confirm your e-mail address', 'You already have an account', 'You already have an account']);
    // The account of the first registration is untouched.
    const [user] = await t.database.db.select().from(users).where(eq(users.id, first.json().id));
    expect(user!.firstName).toBe('Rita');
  });
});

describe('a double-submitted registration form', () => {
  it('creates one account and answers both requests with the registration result', async () => {
    const email = newEmail();
    const [a, b] = await Promise.all([register(payloadFor(email)), register(payloadFor(email))]);
    for (const res of [a, b]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
    const rows = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(rows).toHaveLength(1);
    expect([a.json().id, b.json().id]).toContain(rows[0]!.id);
  });
});

describe('registrations per address', () => {
  it('allows 20 an hour from one address, then answers 429 with Retry-After', async () => {
    const ip = '10.250.0.1';
    const fromOne = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/users/register', payload, remoteAddress: ip });
    // 19 earlier registrations from this address, as the service records them (each real one costs an e-mail,
    // and the test SMTP server waits 100 ms before its greeting); the 20th is a real one.
    await t.database.db.insert(auditLog).values(
      Array.from({ length: 19 }, (_, i) => ({
        at: t.clock.now(),
        event: 'auth.registered',
        login: `earlier-${i}@example.com`,
        ip,
      })),
    );
    const email = newEmail();
    // An attempt for an existing e-mail counts too, or it would be a free probe.
    expect((await register(payloadFor(email))).statusCode).toBe(200);
    expect((await fromOne(payloadFor(email))).statusCode).toBe(200);
    const over = await fromOne(payloadFor(newEmail()));
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('auth.too_many_registrations');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Other addresses are not affected, and after an hour this one may register again.
    expect((await register(payloadFor(newEmail()))).statusCode).toBe(200);
    t.clock.advance(3601);
    expect((await fromOne(payloadFor(newEmail()))).statusCode).toBe(200);
  });
});

describe('POST /api/users/sendVerifyEmail', () => {
  it('resends the link, but not twice within a minute', async () => {
    const email = newEmail();
    const { id } = (await register(payloadFor(email))).json();
    await receiver.waitFor(email);
    // Within the minute: refused with the seconds to wait (auth.resend-verification.test.ts), nothing sent.
    const soon = await post('/api/users/sendVerifyEmail', { id });
    expect(soon.statusCode).toBe(429);
    expect(soon.json().error.code).toBe('auth.verification_resend_too_soon');
    await t.jobs.drain();
    expect(mailsTo(email)).toHaveLength(1);

    t.clock.advance(61);
    expect((await post('/api/users/sendVerifyEmail', { id })).json()).toEqual({ success: true });
    await t.jobs.drain();
    expect(mailsTo(email)).toHaveLength(2);
    // The newest link works.
    const link = linkIn(mailsTo(email)[1]!, VERIFY_PREFIX);
    expect((await t.app.inject({ url: pathOf(link) })).headers.location).toBe(
      '/login?msgType=success&msgText=emailVerified',
    );

    // A verified user gets nothing more.
    t.clock.advance(61);
    expect((await post('/api/users/sendVerifyEmail', { id })).statusCode).toBe(200);
    await t.jobs.drain();
    expect(mailsTo(email)).toHaveLength(2);
  });

  it('answers 200 and sends nothing for an unknown or malformed id', async () => {
    const count = receiver.messages.length;
    for (const id of [randomUUID(), 'not-a-uuid', "1' or '1'='1"]) {
      const res = await post('/api/users/sendVerifyEmail', { id });
      expect(res.statusCode, id).toBe(200);
      expect(res.json()).toEqual({ success: true });
    }
    await t.jobs.drain();
    expect(receiver.messages.length).toBe(count);
    const missing = await post('/api/users/sendVerifyEmail', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].field).toBe('id');
  });
});

describe('a self-registered user', () => {
  it('gets a company of their own and every permission except ETTN', async () => {
    const email = newEmail();
    expect((await register(payloadFor(email, { firstName: 'Sol', lastName: 'Owner' }))).statusCode).toBe(200);
    expect((await verifyFromMail(email)).headers.location).toBe('/login?msgType=success&msgText=emailVerified');
    const tokens = await login(t.app, { login: email, password: PASSWORD });
    const me = (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(tokens.access_token) })).json();
    expect(me.companyName).toBe('Sol Owner');
    expect(me.companyId).toEqual(expect.any(String));
    const perms = (await t.app.inject({ url: '/api/users/permissions', headers: bearer(tokens.access_token) })).json();
    expect(perms.permissions.sort()).toEqual(FEATURE_PERMISSIONS.filter((p) => p !== 'ETTN').sort());
    expect(perms.toggles).toEqual([]);
  });
});

describe('accounts of the old EDI system', () => {
  const LEGACY = { login: 'DEMO01', password: 'Legacy#2026' };
  const legacyLogin = (creds: { login: string; password: string }) => post('/api/legacy/login', creds);

  it('refuses wrong legacy credentials with 401', async () => {
    for (const creds of [
      { ...LEGACY, password: 'Wrong#2026' },
      { login: 'NOSUCH', password: LEGACY.password },
    ]) {
      const res = await legacyLogin(creds);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'auth.invalid_credentials' } });
      expect(res.json().registrationToken).toBeUndefined();
    }
  });

  it('refuses an invalid or expired registration token with the field', async () => {
    const garbage = await register(payloadFor(newEmail(), { registrationToken: 'garbage' }));
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().error.details).toEqual([{ field: 'registrationToken', code: 'registrationInvalid' }]);

    const { registrationToken } = (await legacyLogin(LEGACY)).json();
    t.clock.advance(61 * 60);
    const email = newEmail();
    const expired = await register(payloadFor(email, { registrationToken }));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.code).toBe('validation.failed');
    expect(expired.json().error.details).toEqual([{ field: 'registrationToken', code: 'registrationExpired' }]);
    await t.jobs.drain();
    expect(mailsTo(email)).toHaveLength(0);
  });

  it('gives a registration token that moves the account into its company, once', async () => {
    const res = await legacyLogin({ ...LEGACY, login: 'demo01' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, registrationToken: expect.any(String) });
    const { registrationToken } = res.json();
    // A second legacy login before registering gives another token of the same account.
    const spare: string = (await legacyLogin(LEGACY)).json().registrationToken;

    const email = newEmail();
    const reg = await register(payloadFor(email, { registrationToken }));
    expect(reg.statusCode).toBe(200);
    expect((await verifyFromMail(email)).headers.location).toBe('/login?msgType=success&msgText=emailVerified');
    const tokens = await login(t.app, { login: email, password: PASSWORD });
    const me = (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(tokens.access_token) })).json();
    expect(me.companyName).toBe('Demo Supplier');
    const perms = (await t.app.inject({ url: '/api/users/permissions', headers: bearer(tokens.access_token) })).json();
    expect(perms.permissions).toHaveLength(24);

    const [account] = await t.database.db.select().from(legacyAccounts).where(eq(legacyAccounts.login, 'DEMO01'));
    expect(account!.userId).toBe(reg.json().id);
    expect(account!.migratedAt).not.toBeNull();

    const moved = await legacyLogin(LEGACY);
    expect(moved.statusCode).toBe(401);
    expect(moved.json()).toMatchObject({ success: false, error: { code: 'auth.legacy_already_migrated' } });

    // The spent token, and the spare one of the now moved account, create no further user in that company.
    for (const token of [registrationToken, spare]) {
      const other = newEmail();
      const again = await register(payloadFor(other, { registrationToken: token }));
      expect(again.statusCode).toBe(400);
      expect(again.json().error.details).toEqual([{ field: 'registrationToken', code: 'registrationInvalid' }]);
      expect(await t.database.db.select().from(users).where(eq(users.email, other))).toEqual([]);
    }
    const [still] = await t.database.db.select().from(legacyAccounts).where(eq(legacyAccounts.login, 'DEMO01'));
    expect(still!.userId).toBe(reg.json().id);
  });
});
