import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { companies } from '../src/features/companies/companies.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { createTestApp, type TestApp } from './helper.ts';
import { linkIn, startSmtpReceiver } from './smtp.ts';

// Issue 16, item 9: five wrong passwords from anywhere locked an account for its owner everywhere; twenty failures
// from one address blocked every login from it.

const PASSWORD = 'Owner#Pass2026';
const UNLOCK_PREFIX = 'http://portal.test/api/users/unlock?token=';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
let passwordHash: string;
let lastIp = 0;
const nextIp = () => `10.77.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url } });
  passwordHash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** A fresh verified user in a company of their own, so every test counts its own failures. */
async function addUser() {
  const [company] = await t.database.db
    .insert(companies)
    .values({ name: `Co ${randomUUID()}` })
    .returning();
  const email = `owner-${randomUUID()}@example.com`;
  await t.database.db.insert(users).values({
    email,
    companyId: company!.id,
    firstName: 'Olga',
    lastName: 'Owner',
    passwordHash,
    emailVerifiedAt: t.clock.now(),
  });
  return { login: email, password: PASSWORD };
}

const postLogin = (payload: { login: string; password: string }, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/login', payload, remoteAddress });
const wrong = (creds: { login: string }) => ({ login: creds.login, password: 'Guess#Wrong1' });

describe('failed logins count per account and address (item 9)', () => {
  it('five wrong passwords from one address leave the owner at another address alone', async () => {
    const owner = await addUser();
    const attacker = nextIp();
    for (let i = 0; i < 5; i++) expect((await postLogin(wrong(owner), attacker)).statusCode).toBe(401);
    const res = await postLogin(owner, nextIp());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().success).toBe(true);
  });

  it('slows the address down with a growing wait (429 and Retry-After), even for the right password', async () => {
    const owner = await addUser();
    const ip = nextIp();
    for (let i = 0; i < 5; i++) expect((await postLogin(wrong(owner), ip)).statusCode).toBe(401);
    const first = await postLogin(owner, ip);
    expect(first.statusCode).toBe(429);
    expect(first.json()).toMatchObject({ success: false, error: { code: 'auth.too_many_attempts' } });
    expect(first.headers['retry-after']).toBe('60');
    expect(first.json().error.data.retryAfter).toBe(60);

    t.clock.advance(60);
    expect((await postLogin(wrong(owner), ip)).statusCode).toBe(401);
    const second = await postLogin(owner, ip);
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('120');

    t.clock.advance(120);
    // The right password after the wait signs in and clears the pair's failures.
    expect((await postLogin(owner, ip)).statusCode).toBe(200);
    expect((await postLogin(wrong(owner), ip)).statusCode).toBe(401);
    expect((await postLogin(owner, ip)).statusCode).toBe(200);
  });

  it('twenty failures from one address do not block the accounts that sign in there, nor other addresses', async () => {
    const colleague = await addUser();
    const office = nextIp();
    expect((await postLogin(colleague, office)).statusCode).toBe(200);
    for (let i = 0; i < 20; i++) {
      const res = await postLogin({ login: `probe-${i}-${randomUUID()}@example.com`, password: 'Guess#Pass1' }, office);
      expect(res.statusCode).toBe(401);
    }
    expect((await postLogin(colleague, office)).statusCode).toBe(200);
    expect((await postLogin(await addUser(), office)).statusCode).toBe(200);
  });

  it('keeps a ceiling per address for credential stuffing that spares its known accounts and other addresses', async () => {
    const colleague = await addUser();
    const stranger = await addUser();
    const stuffer = nextIp();
    expect((await postLogin(colleague, stuffer)).statusCode).toBe(200);
    for (let i = 0; i < 50; i++) {
      const res = await postLogin(
        { login: `stuff-${i}-${randomUUID()}@example.com`, password: 'Guess#Pass1' },
        stuffer,
      );
      expect(res.statusCode).toBe(401);
    }
    const refused = await postLogin(stranger, stuffer);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('auth.too_many_attempts');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await postLogin(colleague, stuffer)).statusCode).toBe(200);
    expect((await postLogin(stranger, nextIp())).statusCode).toBe(200);
  });
});

describe('an account guessed at from many addresses locks, and its owner unlocks it by e-mail (item 9)', () => {
  it('locks after 20 failures from anywhere, e-mails an unlock link, and the link lets the owner in', async () => {
    const owner = await addUser();
    // Four addresses, five guesses each: none of them is slowed down, together they lock the account.
    for (let a = 0; a < 4; a++) {
      const ip = nextIp();
      for (let i = 0; i < 5; i++) expect((await postLogin(wrong(owner), ip)).statusCode).toBe(401);
    }
    const locked = await postLogin(owner, nextIp());
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ success: false, error: { code: 'auth.account_locked' } });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60 * 60);
    expect(locked.json().error.data.retryAfter).toBe(retryAfter);

    const mail = await receiver.waitFor(owner.login, /locked/);
    expect(mail.subject).toBe('Your account was locked');
    const link = linkIn(mail, UNLOCK_PREFIX);
    const url = new URL(link);
    const opened = await t.app.inject({ url: url.pathname + url.search, remoteAddress: nextIp() });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/login?msgType=success&msgText=accountUnlocked');
    expect((await postLogin(owner, nextIp())).statusCode).toBe(200);

    const again = await t.app.inject({ url: url.pathname + url.search });
    expect(again.headers.location).toBe('/login?msgType=error&msgText=actionError');
    await t.jobs.drain();
    expect(receiver.messages.filter((m) => m.to.includes(owner.login.toLowerCase()))).toHaveLength(1);
  });

  it('unlocks by itself when the failures leave the hour', async () => {
    const owner = await addUser();
    for (let a = 0; a < 4; a++) {
      const ip = nextIp();
      for (let i = 0; i < 5; i++) await postLogin(wrong(owner), ip);
    }
    const locked = await postLogin(owner, nextIp());
    expect(locked.statusCode).toBe(429);
    t.clock.advance(Number(locked.headers['retry-after']));
    expect((await postLogin(owner, nextIp())).statusCode).toBe(200);
  });

  it('answers an unknown login the same way, and e-mails nobody', async () => {
    const login = `nobody-${randomUUID()}@example.com`;
    for (let a = 0; a < 4; a++) {
      const ip = nextIp();
      for (let i = 0; i < 5; i++)
        expect((await postLogin({ login, password: 'Guess#Wrong1' }, ip)).statusCode).toBe(401);
    }
    const locked = await postLogin({ login, password: 'Guess#Wrong1' }, nextIp());
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('auth.account_locked');
    await t.jobs.drain();
    expect(receiver.messages.some((m) => m.to.includes(login))).toBe(false);
  });

  it('answers a garbage or expired unlock link with the login page’s error', async () => {
    const res = await t.app.inject({ url: '/api/users/unlock?token=not-a-token' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?msgType=error&msgText=actionError');
    const empty = await t.app.inject({ url: '/api/users/unlock' });
    expect(empty.headers.location).toBe('/login?msgType=error&msgText=actionError');
  });
});
