import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { users } from '../src/features/users/users.table.ts';
import { createTestApp, login, type TestApp } from './helper.ts';
import { linkIn, startSmtpReceiver } from './smtp.ts';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
let oldHash: string;
const OLD = 'Old#Pass2026';
const NEW = 'New#Pass2027';
const RESET_PREFIX = 'http://portal.test/set-password?token=';

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  t = await createTestApp({ env: { SMTP_URL: receiver.url } });
  oldHash = await hashPassword(OLD);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function addUser(options: { verified?: boolean; disabled?: boolean } = {}) {
  const email = `reset-${randomUUID()}@example.com`;
  const [row] = await t.database.db
    .insert(users)
    .values({
      email,
      firstName: 'Rene',
      lastName: 'Reset',
      passwordHash: oldHash,
      emailVerifiedAt: options.verified === false ? null : t.clock.now(),
      disabledAt: options.disabled ? t.clock.now() : null,
    })
    .returning();
  return { id: row!.id, email };
}

const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, payload });
const requestReset = (email: string) => post('/api/users/sendResetPasswordEmail', { email });
const check = (token: string) => post('/api/users/checkActionToken', { token });
const setPassword = (token: string, password: string) => post('/api/users/setPassword', { token, password });
const tryLogin = (login: string, password: string) => post('/api/users/login', { login, password });
const mailsTo = (email: string) => receiver.messages.filter((m) => m.to.includes(email.toLowerCase()));

/** Requests a reset and returns the token of the e-mailed `/set-password?token=` link. */
async function resetToken(email: string): Promise<string> {
  const res = await requestReset(email);
  expect(res.json()).toEqual({ success: true });
  const mail = await receiver.waitFor(email, /^Reset your password$/);
  const token = new URL(linkIn(mail, RESET_PREFIX)).searchParams.get('token');
  if (!token) throw new Error('no token in the reset link');
  return token;
}

describe('POST /api/users/sendResetPasswordEmail', () => {
  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const count = receiver.messages.length;
    const unknown = await requestReset(`nobody-${randomUUID()}@example.com`);
    const known = await requestReset((await addUser()).email);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ success: true });
    expect(known.json()).toEqual(unknown.json());
    await t.jobs.drain();
    expect(receiver.messages.length).toBe(count + 1);
  });

  it('sends nothing to a disabled user and not twice within a minute', async () => {
    const disabled = await addUser({ disabled: true });
    expect((await requestReset(disabled.email)).json()).toEqual({ success: true });
    await t.jobs.drain();
    expect(mailsTo(disabled.email)).toHaveLength(0);

    const u = await addUser();
    await resetToken(u.email);
    expect((await requestReset(u.email)).statusCode).toBe(200);
    await t.jobs.drain();
    expect(mailsTo(u.email)).toHaveLength(1);
    t.clock.advance(61);
    await requestReset(u.email);
    await t.jobs.drain();
    expect(mailsTo(u.email)).toHaveLength(2);
  });

  it('refuses a malformed e-mail with the field', async () => {
    const res = await requestReset('not-an-email');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([{ field: 'email', code: 'email' }]);
  });
});

describe('the e-mailed set-password link', () => {
  it('sets a new password once, with the same rules, and ends every session', async () => {
    const u = await addUser();
    const sessionA = await login(t.app, { login: u.email, password: OLD });
    const sessionB = await login(t.app, { login: u.email, password: OLD });
    // Addresses are matched regardless of case.
    const token = await resetToken(u.email.toUpperCase());
    await t.jobs.drain();
    const mail = mailsTo(u.email)[0]!;
    expect(mail.text).toContain('Hello Rene,');

    expect((await check(token)).json()).toEqual({ valid: true, purpose: 'reset', email: u.email });

    const weak = await setPassword(token, 'weakpass');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toMatchObject({
      code: 'validation.failed',
      details: [{ field: 'password', code: 'passwordRules' }],
    });
    // A refused password does not spend the link.
    expect((await check(token)).json().valid).toBe(true);

    const ok = await setPassword(token, NEW);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, purpose: 'reset' });

    expect((await tryLogin(u.email, OLD)).statusCode).toBe(401);
    expect((await tryLogin(u.email, NEW)).statusCode).toBe(200);
    for (const session of [sessionA, sessionB]) {
      const res = await post('/api/users/refreshToken', { refreshToken: session.refresh_token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, error: 'auth.token_invalid' });
    }

    const reused = await setPassword(token, 'Other#Pass2028');
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('auth.link_invalid');
    expect((await check(token)).json()).toEqual({ valid: false, reason: 'auth.link_invalid' });
    expect((await tryLogin(u.email, NEW)).statusCode).toBe(200);

    const [event] = await t.database.db.select().from(auditLog).where(eq(auditLog.event, 'auth.password_reset'));
    expect(event!.subjectUserId).toBe(u.id);
  });

  it('expires after an hour', async () => {
    const u = await addUser();
    const token = await resetToken(u.email);
    t.clock.advance(61 * 60);
    expect((await check(token)).json()).toEqual({ valid: false, reason: 'auth.link_expired' });
    const res = await setPassword(token, NEW);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('auth.link_expired');
    expect((await tryLogin(u.email, OLD)).statusCode).toBe(200);
  });

  it('is refused for a user disabled after it was sent', async () => {
    const u = await addUser();
    const token = await resetToken(u.email);
    await t.database.db.update(users).set({ disabledAt: t.clock.now() }).where(eq(users.id, u.id));
    expect((await check(token)).json()).toEqual({ valid: false, reason: 'auth.link_invalid' });
    const res = await setPassword(token, NEW);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('auth.link_invalid');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row!.passwordHash).toBe(oldHash);
  });

  it('refuses an unknown token', async () => {
    expect((await check('garbage')).json()).toEqual({ valid: false, reason: 'auth.link_invalid' });
    const res = await setPassword('garbage', NEW);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('auth.link_invalid');
  });

  it('proves the address of a user who never opened the verification link', async () => {
    const u = await addUser({ verified: false });
    expect((await tryLogin(u.email, OLD)).json().error.code).toBe('auth.email_not_verified');
    const token = await resetToken(u.email);
    expect((await setPassword(token, NEW)).statusCode).toBe(200);
    expect((await tryLogin(u.email, NEW)).statusCode).toBe(200);
  });
});
