import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, latestAudit, login, type TestApp } from './helper.ts';

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
/** Free GLNs with correct check digits, and one with a wrong one. */
const GLN_NEW = '4012345000054';
const GLN_OTHER = '4012345000061';
const GLN_BAD = '4012345000055';

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;
let admin: string;
let retailerId = '';
let supplierId = '';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: bearer(token) } : {}),
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
const details = (res: { json(): { error?: { details?: { field: string; code: string }[] } } }) =>
  (res.json().error?.details ?? []).map((d) => `${d.field}:${d.code}`);
const glns = async (token: string, url = '/api/company/locations') =>
  ((await call('GET', url, token)).json().items as { gln: string }[]).map((l) => l.gln);

const point = (over: Record<string, unknown> = {}) => ({
  gln: GLN_NEW,
  kind: 'delivery_point',
  name: 'Store Munich',
  street: 'Kaufingerstraße 1',
  postalCode: '80331',
  city: 'München',
  country: 'DE',
  code: 'S-MUC',
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
  admin = (await login(t.app, ADMIN)).access_token;
  const companies = (await call('GET', '/api/admin/companies', admin)).json().items as { id: string; name: string }[];
  retailerId = companies.find((c) => c.name === 'Demo Retailer')!.id;
  supplierId = companies.find((c) => c.name === 'Demo Supplier')!.id;
});
afterAll(() => t.close());

describe('demo seed', () => {
  it("has the demo companies' GLNs and Demo Retailer's delivery points, exactly", async () => {
    const res = await call('GET', '/api/company/locations', buyer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({ gln: '4012345000016', kind: 'company', name: 'Demo Retailer' }),
      expect.objectContaining({ gln: '4012345000023', kind: 'delivery_point', name: 'Store Berlin', city: 'Berlin' }),
      expect.objectContaining({ gln: '4012345000030', kind: 'delivery_point', name: 'Store Hamburg' }),
      expect.objectContaining({ gln: '4012345000047', kind: 'delivery_point', name: 'Central warehouse' }),
    ]);
    expect(await glns(user)).toEqual(['5901234000017']);
    const all = (await call('GET', '/api/admin/companies', admin)).json().items as { id: string; name: string }[];
    const of = async (name: string) =>
      glns(admin, `/api/admin/companies/${all.find((c) => c.name === name)!.id}/locations`);
    expect(await of('Demo KSeF')).toEqual(['5901234000024']);
    expect(await of('Demo Sandbox')).toEqual(['5901234000031']);
  });

  it("has valid VAT identifiers, so a demo company's profile can be saved as it is", async () => {
    const { isValidVatId, COUNTRY_CODES } = await import('@portal/contracts');
    const all = (await call('GET', '/api/admin/companies', admin)).json().items as { name: string; vatId?: string }[];
    const withVat = all.filter((c) => c.vatId);
    expect(withVat.map((c) => c.name)).toEqual(expect.arrayContaining(['Demo Supplier', 'Demo Retailer', 'Demo KSeF']));
    for (const c of withVat)
      expect(
        isValidVatId(c.vatId!, (code) => (COUNTRY_CODES as readonly string[]).includes(code)),
        c.name,
      ).toBe(true);
  });

  it('finds the company of a GLN, its own or a delivery point, and nothing for a free one', async () => {
    const { createCompaniesService } = await import('../src/features/companies/companies.service.ts');
    const companies = createCompaniesService({ db: t.database.db, groups: { insert: () => Promise.resolve('') } });
    expect(await companies.findCompanyByGln('4012345000016')).toEqual({ id: retailerId, name: 'Demo Retailer' });
    expect(await companies.findCompanyByGln('4012345000047')).toEqual({ id: retailerId, name: 'Demo Retailer' });
    expect(await companies.findCompanyByGln('5901234000017')).toEqual({ id: supplierId, name: 'Demo Supplier' });
    expect(await companies.findCompanyByGln(GLN_NEW)).toBeNull();
  });
});

describe('GLNs and delivery points on the profile', () => {
  it('adds a delivery point, lists it, replaces it (its GLN too) and deletes it', async () => {
    const res = await call('POST', '/api/company/locations', buyer, point({ gln: ` ${GLN_NEW} `, code: '' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ ...point(), code: null });
    expect(await glns(buyer)).toContain(GLN_NEW);

    const put = await call(
      'PUT',
      `/api/company/locations/${GLN_NEW}`,
      buyer,
      point({ gln: GLN_OTHER, name: 'Store M' }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ gln: GLN_OTHER, name: 'Store M', code: 'S-MUC' });
    expect(await glns(buyer)).not.toContain(GLN_NEW);

    expect((await call('DELETE', `/api/company/locations/${GLN_OTHER}`, buyer)).statusCode).toBe(204);
    expect(await glns(buyer)).not.toContain(GLN_OTHER);
    expect((await call('DELETE', `/api/company/locations/${GLN_OTHER}`, buyer)).statusCode).toBe(404);
  });

  it('adds a company GLN without an address', async () => {
    const res = await call('POST', '/api/company/locations', user, {
      gln: GLN_NEW,
      kind: 'company',
      name: 'Head office',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await glns(user)).toEqual(['4012345000054', '5901234000017']);
    expect((await call('DELETE', `/api/company/locations/${GLN_NEW}`, user)).statusCode).toBe(204);
  });

  it('refuses a wrong check digit, a missing address and other bad fields with 400 by field', async () => {
    const bad = await call('POST', '/api/company/locations', buyer, point({ gln: GLN_BAD }));
    expect(bad.statusCode).toBe(400);
    expect(details(bad)).toEqual(['gln:gln']);
    const noAddress = await call(
      'POST',
      '/api/company/locations',
      buyer,
      point({ street: '', city: null, country: 'XX' }),
    );
    expect(noAddress.statusCode).toBe(400);
    expect(details(noAddress).sort()).toEqual(['city:required', 'country:country', 'street:required']);
    const missing = await call('POST', '/api/company/locations', buyer, point({ street: '', city: null }));
    expect(details(missing).sort()).toEqual(['city:required', 'street:required']);
    const other = await call(
      'POST',
      '/api/company/locations',
      buyer,
      point({ gln: '', kind: 'shop', code: 'c'.repeat(36) }),
    );
    expect(details(other).sort()).toEqual(['code:tooLong', 'gln:required', 'kind:oneOf']);
    expect(await glns(buyer)).not.toContain(GLN_BAD);
  });

  it('refuses a GLN of another company (409) and one the company has (409), by field', async () => {
    const theirs = await call('POST', '/api/company/locations', buyer, point({ gln: '5901234000017' }));
    expect(theirs.statusCode).toBe(409);
    expect(theirs.json().error.code).toBe('companies.gln_taken');
    expect(details(theirs)).toEqual(['gln:glnOfAnotherCompany']);
    const ours = await call('POST', '/api/company/locations', buyer, point({ gln: '4012345000023' }));
    expect(ours.statusCode).toBe(409);
    expect(details(ours)).toEqual(['gln:glnAlreadyListed']);
    // Renaming a location onto another company's GLN is refused the same way.
    const moved = await call('PUT', '/api/company/locations/4012345000030', buyer, point({ gln: '5901234000024' }));
    expect(moved.statusCode).toBe(409);
    expect(details(moved)).toEqual(['gln:glnOfAnotherCompany']);
  });

  it("answers 404 for another company's GLN, and leaves it alone", async () => {
    expect(
      (await call('PUT', '/api/company/locations/5901234000017', buyer, point({ gln: '5901234000017' }))).statusCode,
    ).toBe(404);
    expect((await call('DELETE', '/api/company/locations/5901234000017', buyer)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/company/locations/not-a-gln', buyer)).statusCode).toBe(404);
    expect(await glns(user)).toEqual(['5901234000017']);
  });

  it('needs the company profile permissions', async () => {
    expect((await call('GET', '/api/company/locations', clerk)).statusCode).toBe(403);
    expect((await call('POST', '/api/company/locations', clerk, point())).statusCode).toBe(403);
    expect((await call('DELETE', '/api/company/locations/5901234000017', clerk)).statusCode).toBe(403);
    expect((await call('GET', '/api/company/locations')).statusCode).toBe(401);
    // An admin has no company of their own.
    expect((await call('GET', '/api/company/locations', admin)).statusCode).toBe(404);
  });

  it('pages by kind then GLN with a cursor, and filters by kind and search', async () => {
    const first = (await call('GET', '/api/company/locations?limit=2', buyer)).json();
    expect(first.items.map((l: { gln: string }) => l.gln)).toEqual(['4012345000016', '4012345000023']);
    const second = (await call('GET', `/api/company/locations?limit=2&cursor=${first.nextCursor}`, buyer)).json();
    expect(second.items.map((l: { gln: string }) => l.gln)).toEqual(['4012345000030', '4012345000047']);
    expect(second.nextCursor).toBeNull();
    expect(await glns(buyer, '/api/company/locations?kind=company')).toEqual(['4012345000016']);
    expect(await glns(buyer, '/api/company/locations?search=hamburg')).toEqual(['4012345000030']);
    expect((await call('GET', '/api/company/locations?cursor=bogus', buyer)).statusCode).toBe(400);
  });
});

describe('GLNs and delivery points in the admin area', () => {
  it("lists, adds, replaces and deletes a company's locations, and audits", async () => {
    const url = `/api/admin/companies/${supplierId}/locations`;
    expect(await glns(admin, url)).toEqual(['5901234000017']);
    const res = await call('POST', url, admin, point({ gln: GLN_NEW, country: 'PL', city: 'Gdańsk' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(await glns(user)).toContain(GLN_NEW);
    const audit = await latestAudit(t.database.db, 'admin.company_changed');
    expect(audit).toMatchObject({
      companyId: supplierId,
      details: { change: 'location', action: 'created', gln: GLN_NEW },
    });

    const put = await call('PUT', `${url}/${GLN_NEW}`, admin, point({ gln: GLN_NEW, name: 'Magazyn' }));
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().name).toBe('Magazyn');
    const taken = await call('POST', url, admin, point({ gln: '4012345000023' }));
    expect(taken.statusCode).toBe(409);
    expect(details(taken)).toEqual(['gln:glnOfAnotherCompany']);
    const bad = await call('POST', url, admin, point({ gln: GLN_BAD }));
    expect(bad.statusCode).toBe(400);
    expect(details(bad)).toEqual(['gln:gln']);
    expect((await call('DELETE', `${url}/${GLN_NEW}`, admin)).statusCode).toBe(204);
    expect(await glns(user)).toEqual(['5901234000017']);
  });

  it("answers 404 for a GLN of another company than the path's, and for an unknown company", async () => {
    const url = `/api/admin/companies/${supplierId}/locations`;
    expect((await call('DELETE', `${url}/4012345000023`, admin)).statusCode).toBe(404);
    expect((await call('PUT', `${url}/4012345000023`, admin, point({ gln: '4012345000023' }))).statusCode).toBe(404);
    const unknown = '/api/admin/companies/00000000-0000-4000-8000-000000000000/locations';
    expect((await call('GET', unknown, admin)).statusCode).toBe(404);
    expect((await call('POST', unknown, admin, point())).statusCode).toBe(404);
    expect(await glns(buyer)).toContain('4012345000023');
  });

  it('is for admins only', async () => {
    expect((await call('GET', `/api/admin/companies/${retailerId}/locations`, buyer)).statusCode).toBe(403);
    expect((await call('POST', `/api/admin/companies/${retailerId}/locations`, buyer, point())).statusCode).toBe(403);
  });
});

describe('identifiers of the company profile', () => {
  const url = '/api/company/profile';
  const profile = { name: 'Demo Supplier', country: 'PL', vatId: 'PL5260001246', taxId: '5260001246' };
  const put = (payload: Record<string, unknown>, token = user) =>
    t.app.inject({ method: 'PUT', url, headers: bearer(token), payload });

  it('accepts valid identifiers: NIP, EDRPOU, VAT identifier, a GLN electronic address', async () => {
    const ok = await put({ ...profile, electronicAddressScheme: '0088', electronicAddress: '5901234000017' });
    expect(ok.statusCode, ok.body).toBe(200);
    const ua = await put({ ...profile, vatId: 'UA123456789012', country: 'UA', taxId: '32855961' });
    expect(ua.statusCode, ua.body).toBe(200);
    expect(ua.json()).toMatchObject({ taxId: '32855961', country: 'UA' });
  });

  it.each([
    [{ vatId: 'PL5260001247' }, 'vatId:vatId'],
    [{ vatId: 'XX123456' }, 'vatId:vatId'],
    [{ vatId: '5260001246' }, 'vatId:vatId'],
    [{ taxId: '5260001247' }, 'taxId:nip'],
    [{ country: 'UA', vatId: null, taxId: '32855962' }, 'taxId:edrpou'],
    [{ electronicAddressScheme: '0088', electronicAddress: '5901234000018' }, 'electronicAddress:gln'],
    [{ electronicAddressScheme: '0092', electronicAddress: 'x' }, 'electronicAddressScheme:electronicAddressScheme'],
    [{ electronicAddress: 'x' }, 'electronicAddressScheme:required'],
  ])('refuses %o with 400 on %s', async (change, detail) => {
    const res = await put({ ...profile, ...change });
    expect(res.statusCode).toBe(400);
    expect(details(res)).toContain(detail);
  });
});
