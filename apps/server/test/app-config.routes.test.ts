import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { LANGUAGES, PaymentReminderContentSchema } from '@portal/contracts';
import { appConfig } from '../src/features/app-config/app-config.table.ts';
import { seedAppConfig } from '../src/features/app-config/app-config.seed.ts';
import { companies } from '../src/features/companies/companies.table.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };

type Details = { field: string; code: string }[];
const fieldsOf = (body: { error?: { details?: Details } }) => (body.error?.details ?? []).map((d) => d.field);

const EDITED = {
  header: 'Przypomnienie',
  body: 'Prosimy o zapłatę zaległej faktury.',
  contact: { text: 'Kontakt:', phone: '+48 22 555 00 00', mail: 'faktury@example.com' },
  footer: '',
  close: 'OK',
};

let t: TestApp;
let user: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  admin = (await login(t.app, ADMIN)).access_token;
});
afterAll(() => t.close());

describe('GET /api/AppConfig?appConfigType=PAYMENT_REMINDER', () => {
  const url = '/api/AppConfig?appConfigType=PAYMENT_REMINDER';

  it('answers the built-in reminder of every language while the table is empty', async () => {
    expect(await t.database.db.select().from(appConfig)).toHaveLength(0);
    const res = await t.app.inject({ url, headers: bearer(user) });
    expect(res.statusCode).toBe(200);
    const body = res.json().httpResponse.body as { lang: string; content: unknown }[];
    expect(body.map((e) => e.lang)).toEqual([...LANGUAGES]);
    for (const entry of body) expect(PaymentReminderContentSchema.safeParse(entry.content).success).toBe(true);
    expect(body.find((e) => e.lang === 'en')!.content).toMatchObject({
      header: 'Payment reminder',
      close: 'Close',
      contact: { phone: expect.any(String), mail: expect.stringContaining('@') },
    });
    expect(body.find((e) => e.lang === 'pl')!.content).toMatchObject({
      header: 'Przypomnienie o płatności',
      close: 'Zamknij',
    });
    // Every language has its own text, not English.
    const headers = new Set(body.map((e) => (e.content as { header: string }).header));
    expect(headers.size).toBe(LANGUAGES.length);
  });

  it('refuses a missing or unknown type with 400 on appConfigType, and needs a session', async () => {
    const missing = await t.app.inject({ url: '/api/AppConfig', headers: bearer(user) });
    expect(missing.statusCode).toBe(400);
    expect(fieldsOf(missing.json())).toContain('appConfigType');
    const unknown = await t.app.inject({ url: '/api/AppConfig?appConfigType=BANNER', headers: bearer(user) });
    expect(unknown.statusCode).toBe(400);
    expect(fieldsOf(unknown.json())).toContain('appConfigType');
    expect((await t.app.inject({ url })).statusCode).toBe(401);
  });

  it('is readable by any signed-in user, also without feature permissions', async () => {
    const clerk = await login(t.app, CLERK);
    expect((await t.app.inject({ url, headers: bearer(clerk.access_token) })).statusCode).toBe(200);
  });
});

describe('PUT /api/admin/app-config/PAYMENT_REMINDER/:lang', () => {
  const url = '/api/admin/app-config/PAYMENT_REMINDER/pl';

  it("replaces one language's content; the others keep theirs", async () => {
    await seedAppConfig(t.database.db);
    const res = await t.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: EDITED });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ lang: 'pl', content: EDITED });
    const body = (
      await t.app.inject({ url: '/api/AppConfig?appConfigType=PAYMENT_REMINDER', headers: bearer(user) })
    ).json().httpResponse.body;
    expect(body.find((e: { lang: string }) => e.lang === 'pl').content).toEqual(EDITED);
    expect(body.find((e: { lang: string }) => e.lang === 'en').content.header).toBe('Payment reminder');
  });

  it('is not undone by seeding again', async () => {
    await seedAppConfig(t.database.db);
    const rows = await t.database.db.select().from(appConfig).where(eq(appConfig.lang, 'pl'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.content).toEqual(EDITED);
    expect(await t.database.db.select().from(appConfig)).toHaveLength(LANGUAGES.length);
  });

  it.each([
    [{ ...EDITED, header: '' }, 'header'],
    [{ ...EDITED, body: undefined }, 'body'],
    [{ ...EDITED, body: 'b'.repeat(4001) }, 'body'],
    [{ ...EDITED, contact: { ...EDITED.contact, mail: 'not-an-address' } }, 'contact.mail'],
    [{ ...EDITED, contact: { ...EDITED.contact, phone: 'call us' } }, 'contact.phone'],
    [{ ...EDITED, contact: { phone: '+48 1', mail: 'a@b.pl' } }, 'contact.text'],
    [{ ...EDITED, close: '' }, 'close'],
    [{ ...EDITED, footer: undefined }, 'footer'],
  ])('refuses bad content with 400 (%#) on %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'PUT', url, headers: bearer(admin), payload });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.json())).toContain(field);
  });

  it('refuses an unknown language or type with 400', async () => {
    const lang = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/app-config/PAYMENT_REMINDER/xx',
      headers: bearer(admin),
      payload: EDITED,
    });
    expect(lang.statusCode).toBe(400);
    expect(fieldsOf(lang.json())).toContain('lang');
    const type = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/app-config/BANNER/pl',
      headers: bearer(admin),
      payload: EDITED,
    });
    expect(type.statusCode).toBe(400);
    expect(fieldsOf(type.json())).toContain('type');
  });

  it('is for admins only (403, even with every feature permission) and needs a session (401)', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(user),
      payload: { ...EDITED, header: 'Hacked' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('auth.forbidden');
    expect((await t.app.inject({ method: 'PUT', url, payload: EDITED })).statusCode).toBe(401);
    const [row] = await t.database.db.select().from(appConfig).where(eq(appConfig.lang, 'pl'));
    expect(row!.content).toEqual(EDITED);
  });
});

describe('GET /api/users/paymentReminder', () => {
  const url = '/api/users/paymentReminder';

  beforeAll(async () => {
    await t.database.db.update(companies).set({ overduePayment: true }).where(eq(companies.name, 'Demo Supplier'));
  });

  /** Moves the server clock to a day of the month, signs in then (tokens follow the clock) and asks. */
  async function dueOn(day: number, creds?: { login: string; password: string }): Promise<boolean> {
    t.clock.set(new Date(Date.UTC(2026, 11, day, 10, 0, 0)));
    const { access_token } = await login(t.app, creds);
    const res = await t.app.inject({ url, headers: bearer(access_token) });
    expect(res.statusCode).toBe(200);
    return res.json().due as boolean;
  }

  it('is due from the 14th to the 24th of the month, inclusive, for a company with an overdue payment', async () => {
    expect(await dueOn(13)).toBe(false);
    expect(await dueOn(14)).toBe(true);
    expect(await dueOn(20)).toBe(true);
    expect(await dueOn(24)).toBe(true);
    expect(await dueOn(25)).toBe(false);
  });

  it('applies to every user of that company, and to no other company or admin', async () => {
    expect(await dueOn(14, CLERK)).toBe(true);
    expect(await dueOn(14, BUYER)).toBe(false);
    expect(await dueOn(14, ADMIN)).toBe(false);
  });

  it('is not due once the flag is cleared, and needs a session', async () => {
    await t.database.db.update(companies).set({ overduePayment: false }).where(eq(companies.name, 'Demo Supplier'));
    expect(await dueOn(14)).toBe(false);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
  });
});
