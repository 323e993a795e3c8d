import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEFAULT_USER_SETTINGS } from '@portal/contracts';
import { auditLog } from '../src/features/audit/audit.table.ts';
import { bearer, createTestApp, DEMO_USER, latestAudit, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const DEMO = { login: 'demo@demo.example.com', password: 'Demo#Demo2026' };

type Details = { field: string; code: string }[];
const fieldsOf = (body: { error?: { details?: Details } }) => (body.error?.details ?? []).map((d) => d.field);

const VALID_PROFILE = {
  name: 'Demo Supplier Sp. z o.o.',
  vatId: 'PL5260001246',
  taxId: '5260001246',
  street: 'ul. Prosta 1',
  postalCode: '00-838',
  city: 'Warszawa',
  country: 'PL',
  bankAccount: 'pl61 1090 1014 0000 0712 1981 2874',
  electronicAddress: '5901234000017',
  electronicAddressScheme: '0088',
  signerPost: 'Management board member',
  signerName: 'Uma User',
  signerCode: 'UU-01',
  companyPrefix: '5901234',
  legalForm: 'Sp. z o.o.',
  taxSystem: 'RF01',
  taxpayerKind: 'vat',
  taxpayerType: 'J12',
};

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
  admin = (await login(t.app, ADMIN)).access_token;
});
afterAll(() => t.close());

describe('POST /api/users/updateUserData', () => {
  const url = '/api/users/updateUserData';

  it('changes names and telephone of the caller only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(user),
      payload: { firstName: ' Umberta ', lastName: 'Userowa', telephone: '+48 600 100 200' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const me = (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(user) })).json();
    expect(me).toMatchObject({ firstName: 'Umberta', lastName: 'Userowa', telephone: '+48 600 100 200' });
    const other = (await t.app.inject({ url: '/api/users/getUserData', headers: bearer(buyer) })).json();
    expect(other).toMatchObject({ firstName: 'Bea', lastName: 'Buyer', telephone: null });
  });

  it('clears the telephone with an empty value and keeps it when absent', async () => {
    await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(user),
      payload: { firstName: 'Uma', lastName: 'User', telephone: '' },
    });
    expect((await t.app.inject({ url: '/api/users/getUserData', headers: bearer(user) })).json().telephone).toBeNull();
    await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(user),
      payload: { firstName: 'Uma', lastName: 'User', telephone: '123 456 789' },
    });
    await t.app.inject({ method: 'POST', url, headers: bearer(user), payload: { firstName: 'Uma', lastName: 'User' } });
    expect((await t.app.inject({ url: '/api/users/getUserData', headers: bearer(user) })).json().telephone).toBe(
      '123 456 789',
    );
  });

  it.each([
    [{ firstName: '', lastName: 'User' }, 'firstName'],
    [{ firstName: 'Uma' }, 'lastName'],
    [{ firstName: 'Uma', lastName: 'x'.repeat(101) }, 'lastName'],
    [{ firstName: 'Uma', lastName: 'User', telephone: 'call me' }, 'telephone'],
    [{ firstName: 'Uma', lastName: 'User', telephone: '1'.repeat(41) }, 'telephone'],
  ])('refuses %j with 400 on %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'POST', url, headers: bearer(user), payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation.failed');
    expect(fieldsOf(res.json())).toContain(field);
  });

  it('needs USER_PROFILE_MODIFY (403), a session (401); admins edit their own data', async () => {
    const payload = { firstName: 'Carl', lastName: 'Clerk' };
    expect((await t.app.inject({ method: 'POST', url, headers: bearer(clerk), payload })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url, payload })).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(admin),
      payload: { firstName: 'Ada', lastName: 'Administrator' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET and PUT /api/users/settings', () => {
  const url = '/api/users/settings';
  const settings = {
    fileEncoding: 'iso-8859-2',
    vatAlgorithm: 'lines',
    fileNamingFormat: 'PartnerName_DocType_DocDate_DocNumber',
  };

  it('starts with the defaults and stores the settings per user', async () => {
    expect((await t.app.inject({ url, headers: bearer(buyer) })).json()).toEqual(DEFAULT_USER_SETTINGS);
    const put = await t.app.inject({ method: 'PUT', url, headers: bearer(user), payload: settings });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(settings);
    expect((await t.app.inject({ url, headers: bearer(user) })).json()).toEqual(settings);
    // Another user (of another company) is untouched.
    expect((await t.app.inject({ url, headers: bearer(buyer) })).json()).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('accepts every value of the lists, including {token} and ibm852', async () => {
    for (const fileEncoding of [
      'utf-8',
      'unicode',
      'ascii',
      '{token}',
      'iso-8859-1',
      'iso-8859-4',
      'iso-8859-5',
      'iso-8859-9',
      'ibm852',
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url,
        headers: bearer(buyer),
        payload: { ...settings, fileEncoding },
      });
      expect(res.statusCode, fileEncoding).toBe(200);
    }
    for (const fileNamingFormat of [
      'DocType_PartnerName_DocNumber',
      'DocType_PartnerName_DocNumber_DeliveryPoint',
      'DocType_DocNumber',
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url,
        headers: bearer(buyer),
        payload: { ...settings, fileNamingFormat, vatAlgorithm: 'invoice-summary' },
      });
      expect(res.statusCode, fileNamingFormat).toBe(200);
    }
  });

  it.each([
    [{ ...settings, fileEncoding: 'latin1' }, 'fileEncoding'],
    [{ ...settings, vatAlgorithm: 'guess' }, 'vatAlgorithm'],
    [{ fileEncoding: 'utf-8', vatAlgorithm: 'lines' }, 'fileNamingFormat'],
    [{ ...settings, fileNamingFormat: 'DocNumber' }, 'fileNamingFormat'],
  ])('refuses %j with 400 on %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'PUT', url, headers: bearer(user), payload });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.json())).toContain(field);
  });

  it('needs the user profile permissions (403) and a session (401)', async () => {
    expect((await t.app.inject({ url, headers: bearer(clerk) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url, headers: bearer(clerk), payload: settings })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url, payload: settings })).statusCode).toBe(401);
  });
});

describe('GET and PUT /api/company/profile', () => {
  const url = '/api/company/profile';

  it("returns the caller's own company only", async () => {
    const mine = await t.app.inject({ url, headers: bearer(user) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      name: 'Demo Supplier',
      vatId: 'PL5260001246',
      country: 'PL',
      taxSystem: null,
      bankAccount: null,
    });
    const theirs = await t.app.inject({ url, headers: bearer(buyer) });
    expect(theirs.json()).toMatchObject({ name: 'Demo Retailer', vatId: 'DE811907980', country: 'DE' });
    expect(theirs.json().id).not.toBe(mine.json().id);
  });

  it('stores every field, normalises an IBAN, and changes nothing of another company', async () => {
    const before = (await t.app.inject({ url, headers: bearer(buyer) })).json();
    const res = await t.app.inject({ method: 'PUT', url, headers: bearer(user), payload: VALID_PROFILE });
    expect(res.statusCode).toBe(200);
    const expected = { ...VALID_PROFILE, bankAccount: 'PL61109010140000071219812874' };
    expect(res.json()).toMatchObject(expected);
    expect((await t.app.inject({ url, headers: bearer(user) })).json()).toMatchObject(expected);
    expect((await t.app.inject({ url, headers: bearer(buyer) })).json()).toEqual(before);
  });

  it('clears optional fields sent empty or left out, and keeps a non-IBAN account number as typed', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(user),
      payload: { name: 'Demo Supplier', vatId: 'PL5260001246', country: 'PL', street: '', bankAccount: '1234-5678-90' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      street: null,
      city: null,
      taxSystem: null,
      electronicAddress: null,
      bankAccount: '1234-5678-90',
    });
  });

  it('never writes another company, whatever id the body names', async () => {
    const supplier = (await t.app.inject({ url, headers: bearer(user) })).json();
    const res = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(buyer),
      payload: { id: supplier.id, name: 'Hijacked' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).not.toBe(supplier.id);
    expect((await t.app.inject({ url, headers: bearer(user) })).json().name).toBe('Demo Supplier');
    await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(buyer),
      payload: { name: 'Demo Retailer', vatId: 'DE811907980', country: 'DE' },
    });
  });

  it.each([
    [{ ...VALID_PROFILE, name: '' }, 'name'],
    [{ ...VALID_PROFILE, name: undefined }, 'name'],
    [{ ...VALID_PROFILE, name: 'x'.repeat(201) }, 'name'],
    [{ ...VALID_PROFILE, vatId: 'PL<script>' }, 'vatId'],
    [{ ...VALID_PROFILE, taxId: '1'.repeat(33) }, 'taxId'],
    [{ ...VALID_PROFILE, street: 's'.repeat(201) }, 'street'],
    [{ ...VALID_PROFILE, postalCode: '0'.repeat(21) }, 'postalCode'],
    [{ ...VALID_PROFILE, city: 'c'.repeat(101) }, 'city'],
    [{ ...VALID_PROFILE, country: 'XX' }, 'country'],
    [{ ...VALID_PROFILE, country: 'Poland' }, 'country'],
    [{ ...VALID_PROFILE, bankAccount: 'PL61109010140000071219812875' }, 'bankAccount'],
    [{ ...VALID_PROFILE, electronicAddressScheme: '0001' }, 'electronicAddressScheme'],
    [{ ...VALID_PROFILE, electronicAddressScheme: '0205' }, 'electronicAddressScheme'],
    [{ ...VALID_PROFILE, electronicAddressScheme: '88' }, 'electronicAddressScheme'],
    [{ ...VALID_PROFILE, electronicAddressScheme: null }, 'electronicAddressScheme'],
    [{ ...VALID_PROFILE, electronicAddress: 'e'.repeat(201) }, 'electronicAddress'],
    [{ ...VALID_PROFILE, signerPost: 'p'.repeat(101) }, 'signerPost'],
    [{ ...VALID_PROFILE, signerName: 'n'.repeat(201) }, 'signerName'],
    [{ ...VALID_PROFILE, signerCode: 'c'.repeat(51) }, 'signerCode'],
    [{ ...VALID_PROFILE, companyPrefix: '5'.repeat(21) }, 'companyPrefix'],
    [{ ...VALID_PROFILE, legalForm: 'l'.repeat(101) }, 'legalForm'],
    [{ ...VALID_PROFILE, taxSystem: 'RF20' }, 'taxSystem'],
    [{ ...VALID_PROFILE, taxpayerKind: 'lump-sum' }, 'taxpayerKind'],
    [{ ...VALID_PROFILE, taxpayerType: 'X12' }, 'taxpayerType'],
  ])('refuses a bad profile with 400 (%#) on %s', async (payload, field) => {
    const res = await t.app.inject({ method: 'PUT', url, headers: bearer(user), payload });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.json())).toContain(field);
  });

  it('accepts the ends of the scheme range and every tax system', async () => {
    for (const electronicAddressScheme of ['0002', '0204']) {
      const res = await t.app.inject({
        method: 'PUT',
        url,
        headers: bearer(user),
        payload: { ...VALID_PROFILE, electronicAddressScheme },
      });
      expect(res.statusCode).toBe(200);
    }
    for (let i = 1; i <= 19; i++) {
      const taxSystem = `RF${String(i).padStart(2, '0')}`;
      const res = await t.app.inject({
        method: 'PUT',
        url,
        headers: bearer(user),
        payload: { ...VALID_PROFILE, taxSystem, taxpayerKind: 'flat-rate-tax', taxpayerType: 'F12' },
      });
      expect(res.statusCode, taxSystem).toBe(200);
    }
  });

  it('needs the company profile permissions (403), a company (404 for admins) and a session (401)', async () => {
    expect((await t.app.inject({ url, headers: bearer(clerk) })).statusCode).toBe(403);
    const clerkPut = await t.app.inject({ method: 'PUT', url, headers: bearer(clerk), payload: VALID_PROFILE });
    expect(clerkPut.statusCode).toBe(403);
    expect(clerkPut.json().error.code).toBe('auth.forbidden');
    expect((await t.app.inject({ url, headers: bearer(admin) })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: VALID_PROFILE })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url, payload: VALID_PROFILE })).statusCode).toBe(401);
  });
});

describe('POST /api/users/changePassword', () => {
  const url = '/api/users/changePassword';
  const NEW_PASSWORD = 'Fresh#Pass2027';

  // Its own database: the password of the demo user changes here.
  let p: TestApp;
  beforeAll(async () => {
    p = await createTestApp();
  });
  afterAll(() => p.close());

  it('refuses a weak new password with 400 on newPassword', async () => {
    const { access_token } = await login(p.app);
    for (const newPassword of ['short#1A', 'nouppercase#1', 'NOLOWERCASE#1', 'NoDigits#here', 'NoSpecial123']) {
      const res = await p.app.inject({
        method: 'POST',
        url,
        headers: bearer(access_token),
        payload: { currentPassword: DEMO_USER.password, newPassword },
      });
      if (newPassword === 'short#1A') {
        // Eight characters exactly is allowed.
        expect(res.statusCode).toBe(200);
        await p.app.inject({
          method: 'POST',
          url,
          headers: bearer(access_token),
          payload: { currentPassword: newPassword, newPassword: DEMO_USER.password },
        });
        continue;
      }
      expect(res.statusCode, newPassword).toBe(400);
      expect(res.json().error.details).toEqual([{ field: 'newPassword', code: 'passwordRules' }]);
    }
  });

  it('refuses missing fields with 400 on each', async () => {
    const { access_token } = await login(p.app);
    const a = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(access_token),
      payload: { newPassword: NEW_PASSWORD },
    });
    expect(a.statusCode).toBe(400);
    expect(fieldsOf(a.json())).toContain('currentPassword');
    const b = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(access_token),
      payload: { currentPassword: DEMO_USER.password },
    });
    expect(b.statusCode).toBe(400);
    expect(fieldsOf(b.json())).toContain('newPassword');
  });

  it('refuses a new password equal to the current one', async () => {
    const { access_token } = await login(p.app);
    const res = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(access_token),
      payload: { currentPassword: DEMO_USER.password, newPassword: DEMO_USER.password },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'GENERAL_ERROR',
      error: {
        code: 'auth.password_same_as_current',
        details: [{ field: 'newPassword', code: 'passwordSameAsCurrent' }],
      },
    });
  });

  it('answers a wrong current password with CURRENT_PASSWORD_INCORRECT', async () => {
    const { access_token } = await login(p.app);
    const res = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(access_token),
      payload: { currentPassword: 'Wrong#Pass2026', newPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'CURRENT_PASSWORD_INCORRECT',
      error: { code: 'auth.current_password_incorrect' },
    });
    // Nothing changed.
    await login(p.app);
  });

  it('needs a session (401); the shared demo account may not change its password (403)', async () => {
    expect(
      (
        await p.app.inject({
          method: 'POST',
          url,
          payload: { currentPassword: DEMO_USER.password, newPassword: NEW_PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
    const demo = await login(p.app, DEMO);
    const res = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(demo.access_token),
      payload: { currentPassword: DEMO.password, newPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
  });

  it('lets a read-only clerk change their own password (no feature permission needed)', async () => {
    const session = await login(p.app, CLERK);
    const res = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(session.access_token),
      payload: { currentPassword: CLERK.password, newPassword: NEW_PASSWORD, refreshToken: session.refresh_token },
    });
    expect(res.statusCode).toBe(200);
    await login(p.app, { login: CLERK.login, password: NEW_PASSWORD });
  });

  it('changes the password, keeps the calling session, ends the others and writes the audit log', async () => {
    const current = await login(p.app);
    const other = await login(p.app);
    const res = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(current.access_token),
      payload: { currentPassword: DEMO_USER.password, newPassword: NEW_PASSWORD, refreshToken: current.refresh_token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Operation successful' });

    const refused = await p.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: other.refresh_token },
    });
    expect(refused.statusCode).toBe(401);
    const kept = await p.app.inject({
      method: 'POST',
      url: '/api/users/refreshToken',
      payload: { refreshToken: current.refresh_token },
    });
    expect(kept.statusCode).toBe(200);

    const old = await p.app.inject({ method: 'POST', url: '/api/users/login', payload: DEMO_USER });
    expect(old.statusCode).toBe(401);
    await login(p.app, { login: DEMO_USER.login, password: NEW_PASSWORD });

    const event = await latestAudit(p.database.db, 'auth.password_changed', eq(auditLog.login, DEMO_USER.login));
    expect(event).toMatchObject({ actorUserId: event!.subjectUserId, details: { keptCurrentSession: true } });
  });

  it("keeps the session of the access token when no refresh token is named, and ignores another user's token", async () => {
    const current = await login(p.app, { login: DEMO_USER.login, password: NEW_PASSWORD });
    const other = await login(p.app, { login: DEMO_USER.login, password: NEW_PASSWORD });
    const foreign = await login(p.app, BUYER);
    const res = await p.app.inject({
      method: 'POST',
      url,
      headers: bearer(current.access_token),
      payload: { currentPassword: NEW_PASSWORD, newPassword: DEMO_USER.password, refreshToken: foreign.refresh_token },
    });
    expect(res.statusCode).toBe(200);
    const refresh = async (refreshToken: string) =>
      (await p.app.inject({ method: 'POST', url: '/api/users/refreshToken', payload: { refreshToken } })).statusCode;
    // The access token's own session goes on; the user's other session ends, and its access token with it.
    expect(await refresh(current.refresh_token)).toBe(200);
    expect(await refresh(other.refresh_token)).toBe(401);
    expect(
      (await p.app.inject({ url: '/api/users/permissions', headers: bearer(other.access_token) })).statusCode,
    ).toBe(401);
    // The other user's session is not touched.
    expect(
      (
        await p.app.inject({
          method: 'POST',
          url: '/api/users/refreshToken',
          payload: { refreshToken: foreign.refresh_token },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('answers 429 after five wrong current passwords within 15 minutes, and again after the window', async () => {
    const session = await login(p.app, BUYER);
    const wrong = { currentPassword: 'Wrong#Pass2026', newPassword: NEW_PASSWORD };
    for (let i = 0; i < 5; i++) {
      const res = await p.app.inject({ method: 'POST', url, headers: bearer(session.access_token), payload: wrong });
      expect(res.statusCode).toBe(400);
    }
    const right = { currentPassword: BUYER.password, newPassword: NEW_PASSWORD };
    const blocked = await p.app.inject({ method: 'POST', url, headers: bearer(session.access_token), payload: right });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('auth.too_many_password_attempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    p.clock.advance(15 * 60 + 1);
    const later = await login(p.app, BUYER);
    const ok = await p.app.inject({ method: 'POST', url, headers: bearer(later.access_token), payload: right });
    expect(ok.statusCode).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents the profile, company and app config endpoints', async () => {
    const paths = Object.keys((await t.app.inject({ url: '/api/docs/json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/users/updateUserData',
        '/api/users/settings',
        '/api/users/changePassword',
        '/api/company/profile',
        '/api/AppConfig',
        '/api/users/paymentReminder',
        '/api/admin/app-config/{type}/{lang}',
      ]),
    );
  });
});
