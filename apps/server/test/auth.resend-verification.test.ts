import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { oneTimeTokens } from '../src/features/auth/auth.table.ts';
import { users } from '../src/features/users/users.table.ts';
import { createTestApp, type TestApp } from './helper.ts';

// Resend e-mail right after registering used to answer "sent" while the server skipped the send (one a minute).
// Now a resend that soon is a 429 saying how long to wait, and one after that really sends.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let lastIp = 0;
const nextIp = () => `10.77.${Math.floor(++lastIp / 250)}.${(lastIp % 250) + 1}`;
const newEmail = () => `resend-${randomUUID()}@example.com`;
const register = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: { firstName: 'Rhea', lastName: 'Resend', email, password: 'Str0ng#Pass', locale: 'en' },
    remoteAddress: nextIp(),
  });
const resend = (id: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/sendVerifyEmail', payload: { id }, remoteAddress: nextIp() });

/** How many verification links the user has been sent. */
async function linksOf(email: string): Promise<number> {
  const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
  const rows = await t.database.db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, user!.id), eq(oneTimeTokens.purpose, 'verify_email')));
  return rows.length;
}

describe('Resend e-mail after registering', () => {
  it('answers 429 with the seconds left right after registering, then sends once the minute has passed', async () => {
    const email = newEmail();
    const { id } = (await register(email)).json();
    expect(await linksOf(email)).toBe(1);

    const soon = await resend(id);
    expect(soon.statusCode).toBe(429);
    expect(soon.headers['retry-after']).toBe('60');
    expect(soon.json().error).toMatchObject({ code: 'auth.verification_resend_too_soon', data: { retryAfter: 60 } });
    expect(await linksOf(email)).toBe(1);

    t.clock.advance(25);
    const later = await resend(id);
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('35');
    expect(later.json().error.data).toEqual({ retryAfter: 35 });

    t.clock.advance(36);
    const sent = await resend(id);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ success: true });
    expect(await linksOf(email)).toBe(2);

    // And the minute starts again from that send.
    const again = await resend(id);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('60');
  });

  it('answers an e-mail that already has an account exactly as a new one, so the wait tells nothing', async () => {
    const email = newEmail();
    const first = (await register(email)).json();
    const repeated = (await register(email)).json();
    expect(repeated.id).not.toBe(first.id);

    const real = await resend(first.id);
    const fake = await resend(repeated.id);
    expect(fake.statusCode).toBe(real.statusCode);
    expect(fake.headers['retry-after']).toBe(real.headers['retry-after']);
    expect(fake.json().error).toEqual(real.json().error);

    t.clock.advance(61);
    expect((await resend(first.id)).statusCode).toBe(200);
    expect((await resend(repeated.id)).statusCode).toBe(200);
    expect(await linksOf(email)).toBe(2);
  });

  it('limits an id nobody registered the same way once it has been asked for', async () => {
    const id = randomUUID();
    expect((await resend(id)).statusCode).toBe(200);
    const soon = await resend(id);
    expect(soon.statusCode).toBe(429);
    expect(soon.json().error.code).toBe('auth.verification_resend_too_soon');
  });
});
