import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_BOOK_IMPORT_MAX_BYTES, ADDRESS_BOOK_IMPORT_MAX_ROWS } from '@portal/contracts';
import { bearer, createTestApp, latestAudit, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const DEMO = { login: 'demo@demo.example.com', password: 'Demo#Demo2026' };
const GLN_A = '5901234123457';
const GLN_B = '4000001000005';
const GLN_C = '8712345678906';

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;
let demo: string;

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

const entry = (over: Record<string, unknown> = {}) => ({
  name: 'Hurtownia Północ Sp. z o.o.',
  displayedName: 'Hurtownia Północ',
  gln: GLN_A,
  personType: 'J',
  taxId: '526-104-08-28',
  residenceType: 'R',
  phone: '+48 22 123 45 67',
  street: 'ul. Portowa 12',
  postalCode: '80-001',
  city: 'Gdańsk',
  province: 'pomorskie',
  accountNumber: 'PL61 1090 1014 0000 0712 1981 2874',
  country: 'PL',
  ...over,
});

/** A multipart body with one CSV file, as a browser sends it. */
async function csvUpload(csv: string | Uint8Array, name = 'book.csv') {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), name);
  const request = new Request('http://x', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
async function importCsv(csv: string | Uint8Array, opts: { dryRun?: boolean; token?: string } = {}) {
  const body = await csvUpload(csv);
  return t.app.inject({
    method: 'POST',
    url: `/api/address-book/import${opts.dryRun ? '?dryRun=true' : ''}`,
    headers: { 'content-type': body.contentType, ...bearer(opts.token ?? user) },
    payload: body.payload,
  });
}
const names = async (token = user, query = '') =>
  ((await call('GET', `/api/address-book${query}`, token)).json().items as { name: string }[]).map((e) => e.name);

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
  demo = (await login(t.app, DEMO)).access_token;
});
afterAll(() => t.close());

describe('address book entries', () => {
  let id = '';

  it('creates an entry with every field of the description, normalised, and audits it', async () => {
    const res = await call('POST', '/api/address-book', user, entry());
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    id = body.id;
    expect(body).toMatchObject({ ...entry(), gln: GLN_A, country: 'PL' });
    const audit = await latestAudit(t.database.db, 'address_book.changed');
    expect(audit?.details).toMatchObject({ change: 'created', entryId: id, gln: GLN_A });
  });

  it('reads it back, alone and in the list', async () => {
    expect((await call('GET', `/api/address-book/${id}`, user)).json()).toMatchObject({ name: entry().name });
    expect(await names()).toContain(entry().name);
  });

  it('refuses each wrong field with its own code, and saves nothing', async () => {
    const res = await call(
      'POST',
      '/api/address-book',
      user,
      entry({
        name: '  ',
        gln: '5901234123458',
        personType: 'X',
        taxId: '5261040829',
        residenceType: 'Z',
        phone: 'call me',
        accountNumber: 'PL61 1090 1014 0000 0712 1981 2875',
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(details(res).sort()).toEqual(
      [
        'name:required',
        'gln:gln',
        'personType:oneOf',
        'residenceType:oneOf',
        'phone:telephone',
        'accountNumber:iban',
      ].sort(),
    );
    const unknownCountry = await call('POST', '/api/address-book', user, entry({ gln: GLN_B, country: 'XX' }));
    expect(details(unknownCountry)).toEqual(['country:country']);
    const badNip = await call('POST', '/api/address-book', user, entry({ gln: GLN_B, taxId: '5261040829' }));
    expect(details(badNip)).toEqual(['taxId:nip']);
    expect(await names()).toHaveLength(1);
  });

  it('checks a tax ID as a NIP only for Poland', async () => {
    const res = await call(
      'POST',
      '/api/address-book',
      user,
      entry({ name: 'Lager Nord GmbH', gln: GLN_B, taxId: 'DE123456789', country: 'de', accountNumber: null }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ country: 'DE', accountNumber: null });
  });

  it('refuses a GLN already in the book (409 on the field), also when editing another entry', async () => {
    const dup = await call('POST', '/api/address-book', user, entry({ name: 'Copy' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('address_book.gln_taken');
    expect(details(dup)).toEqual(['gln:glnTaken']);
    const other = (await call('GET', '/api/address-book?search=lager', user)).json().items[0].id as string;
    const edit = await call('PUT', `/api/address-book/${other}`, user, entry({ name: 'Lager Nord GmbH' }));
    expect(edit.statusCode).toBe(409);
  });

  it('updates an entry, keeping its own GLN', async () => {
    const res = await call('PUT', `/api/address-book/${id}`, user, entry({ city: 'Gdynia', displayedName: '' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ city: 'Gdynia', displayedName: null, gln: GLN_A });
  });

  it('keeps every company to its own book: another company gets 404 for the id and sees none of it', async () => {
    expect((await call('GET', `/api/address-book/${id}`, buyer)).statusCode).toBe(404);
    expect((await call('PUT', `/api/address-book/${id}`, buyer, entry())).statusCode).toBe(404);
    expect((await call('DELETE', `/api/address-book/${id}`, buyer)).statusCode).toBe(404);
    expect(await names(buyer)).toEqual([]);
    // The same GLN is free in another company's book.
    expect((await call('POST', '/api/address-book', buyer, entry())).statusCode).toBe(201);
    expect((await call('GET', `/api/address-book/${id}`, user)).json().city).toBe('Gdynia');
  });

  it('needs ADDRESS_BOOK_READ to see and ADDRESS_BOOK_MODIFY to change', async () => {
    expect((await call('GET', '/api/address-book', clerk)).statusCode).toBe(403);
    expect((await call('POST', '/api/address-book', clerk, entry({ gln: GLN_C }))).statusCode).toBe(403);
    expect((await call('GET', '/api/address-book')).statusCode).toBe(401);
  });

  it('is refused to role demo, on every route', async () => {
    expect((await call('GET', '/api/address-book', demo)).statusCode).toBe(403);
    expect((await call('GET', '/api/address-book/export', demo)).statusCode).toBe(403);
    expect((await importCsv('name,personType,country\nX,J,PL\n', { token: demo })).statusCode).toBe(403);
  });

  it('deletes an entry; a second delete is a 404', async () => {
    expect((await call('DELETE', `/api/address-book/${id}`, user)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/address-book/${id}`, user)).statusCode).toBe(404);
    expect((await call('GET', `/api/address-book/${id}`, user)).statusCode).toBe(404);
    expect((await latestAudit(t.database.db, 'address_book.changed'))?.details).toMatchObject({ change: 'deleted' });
  });
});

describe('address book list', () => {
  let token = '';
  beforeAll(async () => {
    // A company of its own: the buyer's book, emptied, then five entries.
    token = buyer;
    for (const item of (await call('GET', '/api/address-book?limit=100', token)).json().items as { id: string }[])
      await call('DELETE', `/api/address-book/${item.id}`, token);
    const rows: [string, string | null, string][] = [
      ['delta', 'Warszawa', 'PL'],
      ['Alpha', 'Berlin', 'DE'],
      ['charlie', null, 'PL'],
      ['Bravo', 'Amsterdam', 'NL'],
      ['echo', 'Berlin', 'DE'],
    ];
    for (const [name, city, country] of rows) {
      const res = await call('POST', '/api/address-book', token, {
        name,
        personType: 'J',
        city,
        country,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('pages by name, case-insensitive, with a total on request', async () => {
    const first = (await call('GET', '/api/address-book?limit=2&includeTotal=true', token)).json();
    expect(first.items.map((e: { name: string }) => e.name)).toEqual(['Alpha', 'Bravo']);
    expect(first.total).toBe(5);
    const second = (await call('GET', `/api/address-book?limit=2&cursor=${first.nextCursor}`, token)).json();
    expect(second.items.map((e: { name: string }) => e.name)).toEqual(['charlie', 'delta']);
    const third = (await call('GET', `/api/address-book?limit=2&cursor=${second.nextCursor}`, token)).json();
    expect(third.items.map((e: { name: string }) => e.name)).toEqual(['echo']);
    expect(third.nextCursor).toBeNull();
  });

  it('sorts by city descending across pages, empty cities last', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { name: string }[]; nextCursor: string | null } = (
        await call('GET', `/api/address-book?sort=city&order=desc&limit=2${cursor ? `&cursor=${cursor}` : ''}`, token)
      ).json();
      seen.push(...page.items.map((e) => e.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.slice(0, 1)).toEqual(['delta']);
    expect(seen.slice(1, 3).sort()).toEqual(['Alpha', 'echo']);
    expect(seen.slice(3)).toEqual(['Bravo', 'charlie']);
  });

  it('searches and filters', async () => {
    expect(await names(token, '?search=berlin')).toEqual(['Alpha', 'echo']);
    expect(await names(token, '?country=pl')).toEqual(['charlie', 'delta']);
  });

  it('refuses a cursor of another sort order, and bad sort values, with 400 on the field', async () => {
    const byName = (await call('GET', '/api/address-book?limit=1', token)).json().nextCursor as string;
    const res = await call('GET', `/api/address-book?sort=city&cursor=${byName}`, token);
    expect(res.statusCode).toBe(400);
    expect(details(res)).toEqual(['cursor:cursor']);
    expect(details(await call('GET', '/api/address-book?sort=password', token))).toEqual(['sort:oneOf']);
  });
});

describe('address book CSV import and export', () => {
  const header = 'name;displayedName;gln;personType;taxId;country;phone;accountNumber';
  const good = 'Sklep Jeden;Jeden;' + GLN_C + ';J;5261040828;PL;+48 22 000 00 00;';
  const bad = 'Sklep Dwa;Dwa;5901234123458;J;;PL;;';

  it('previews a file with a bad row: every problem by line and field, nothing saved', async () => {
    const before = await names(user, '?limit=100');
    const res = await importCsv(`${header}\n${good}\n${bad}\n`, { dryRun: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ dryRun: true, rows: 2, created: 0 });
    expect(body.problems).toEqual([{ line: 3, field: 'gln', code: 'gln' }]);
    expect(body.preview[1]).toEqual({
      line: 3,
      values: expect.objectContaining({ name: 'Sklep Dwa', gln: '5901234123458' }),
    });
    expect(await names(user, '?limit=100')).toEqual(before);
  });

  it('refuses the same file without a dry run, all or nothing', async () => {
    const before = await names(user, '?limit=100');
    const res = await importCsv(`${header}\n${good}\n${bad}\n`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('address_book.import_invalid');
    expect(details(res)).toEqual(['rows.3.gln:gln']);
    expect(await names(user, '?limit=100')).toEqual(before);
  });

  it('imports the corrected file in one go', async () => {
    const fixed = bad.replace('5901234123458', '5901234123457');
    const res = await importCsv(`\uFEFF${header}\r\n${good}\r\n${fixed}\r\n`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ dryRun: false, rows: 2, created: 2, problems: [] });
    expect(await names(user, '?search=sklep')).toEqual(['Sklep Dwa', 'Sklep Jeden']);
    expect((await latestAudit(t.database.db, 'address_book.changed'))?.details).toMatchObject({
      change: 'imported',
      count: 2,
    });
  });

  it('finds GLNs already in the book and repeated within the file', async () => {
    const res = await importCsv(`name,gln,personType,country\nA,${GLN_C},J,PL\nB,${GLN_B},J,DE\nC,${GLN_B},J,DE\n`, {
      dryRun: true,
    });
    expect(res.json().problems).toEqual([{ line: 4, field: 'gln', code: 'glnDuplicateInFile', params: { line: 3 } }]);
    const taken = await importCsv(`name,gln,personType,country\nA,${GLN_C},J,PL\n`, { dryRun: true });
    expect(taken.json().problems).toEqual([{ line: 2, field: 'gln', code: 'glnTaken' }]);
  });

  it('names the problems of the file itself: columns, encoding, size, rows', async () => {
    const problemsOf = async (csv: string | Uint8Array) =>
      ((await importCsv(csv, { dryRun: true })).json().problems as { code: string; params?: object }[]).map(
        (p) => p.code,
      );
    expect(await problemsOf('name,colour,personType\nA,red,J\n')).toEqual(['csvUnknownColumn', 'csvMissingColumn']);
    expect(await problemsOf('name,personType,country\n')).toEqual(['csvEmpty']);
    expect(await problemsOf(new Uint8Array([0x6e, 0x61, 0xff, 0xfe, 0x0a]))).toEqual(['csvEncoding']);
    expect(await problemsOf('name,personType,country\nA\u0000,J,PL\n')).toEqual(['csvEncoding']);
    expect(await problemsOf('name,personType,country\n"A,J,PL\n')).toEqual(['csvUnreadable']);
    const many = 'name,personType,country\n' + 'A,J,PL\n'.repeat(ADDRESS_BOOK_IMPORT_MAX_ROWS + 1);
    expect(await problemsOf(many)).toEqual(['csvTooManyRows']);
  });

  it('refuses a file over the size limit and a form without a file, with 400 on the field', async () => {
    const big = await importCsv('x'.repeat(ADDRESS_BOOK_IMPORT_MAX_BYTES + 1), { dryRun: true });
    expect(big.statusCode).toBe(400);
    expect(details(big)).toEqual(['file:fileTooLarge']);
    const form = new FormData();
    form.append('note', 'no file');
    const request = new Request('http://x', { method: 'POST', body: form });
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/address-book/import',
      headers: { 'content-type': request.headers.get('content-type')!, ...bearer(user) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(none.statusCode).toBe(400);
    expect(details(none)).toEqual(['file:required']);
  });

  it('exports the book as CSV that imports back into another book unchanged, formulas defused', async () => {
    await call('POST', '/api/address-book', user, {
      name: '=HYPERLINK("http://evil")',
      personType: 'F',
      phone: '+48 600 000 000',
      country: 'PL',
    });
    const res = await call('GET', '/api/address-book/export', user);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="address-book.csv"');
    expect(res.body.startsWith('\uFEFFname,displayedName,gln,personType,')).toBe(true);
    expect(res.body).toContain(`'=HYPERLINK(""http://evil"")`);
    expect(res.body).toContain("'+48 600 000 000");

    // Into the buyer's emptied book: the same entries come back, the guard quotes removed.
    for (const item of (await call('GET', '/api/address-book?limit=100', buyer)).json().items as { id: string }[])
      await call('DELETE', `/api/address-book/${item.id}`, buyer);
    const back = await importCsv(res.body, { token: buyer });
    expect(back.statusCode, back.body).toBe(200);
    const strip = (items: Record<string, unknown>[]) =>
      items.map(({ id: _id, createdAt: _c, updatedAt: _u, ...rest }) => rest);
    const mine = (await call('GET', '/api/address-book?limit=100', user)).json().items;
    const theirs = (await call('GET', '/api/address-book?limit=100', buyer)).json().items;
    expect(strip(theirs)).toEqual(strip(mine));
    expect(theirs.map((e: { name: string }) => e.name)).toContain('=HYPERLINK("http://evil")');
  });
});
