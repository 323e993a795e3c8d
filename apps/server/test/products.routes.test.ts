import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTS_IMPORT_MAX_BYTES } from '@portal/contracts';
import type { CanonicalDocument } from '@portal/documents';
import { eq } from 'drizzle-orm';
import { products } from '../src/features/products/products.table.ts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const GTIN_13 = '5901234123457';
const GTIN_8 = '12345670';
const GTIN_12 = '095011010209';
const GTIN_14 = '10012345678902';
const NEW_GTIN_14 = '15901234123454';
/** In the demo seed's catalogue of Demo Supplier. */
const SEEDED_GTIN = '5901234123464';

let t: TestApp;
let user: string;
let clerk: string;
let buyer: string;

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

const product = (over: Record<string, unknown> = {}) => ({
  gtin: GTIN_13,
  supplierArticleNumber: 'SUP-1',
  buyerArticleNumber: 'BUY-1',
  description: 'Rye bread 500 g',
  unit: 'pce',
  price: '12,5',
  currency: 'pln',
  vatRate: '5',
  ...over,
});

async function importCsv(csv: string | Uint8Array, opts: { dryRun?: boolean; token?: string } = {}) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'products.csv');
  const request = new Request('http://x', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: `/api/products/import${opts.dryRun ? '?dryRun=true' : ''}`,
    headers: { 'content-type': request.headers.get('content-type')!, ...bearer(opts.token ?? buyer) },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}
const descriptions = async (token: string, query = '') =>
  ((await call('GET', `/api/products${query}`, token)).json().items as { description: string }[]).map(
    (p) => p.description,
  );
async function emptyCatalogue(token: string) {
  for (const item of (await call('GET', '/api/products?limit=100', token)).json().items as { id: string }[])
    await call('DELETE', `/api/products/${item.id}`, token);
}

beforeAll(async () => {
  t = await createTestApp();
  user = (await login(t.app)).access_token;
  clerk = (await login(t.app, CLERK)).access_token;
  buyer = (await login(t.app, BUYER)).access_token;
});
afterAll(() => t.close());

describe('products', () => {
  let id = '';

  it("lists the demo seed's catalogue of Demo Supplier", async () => {
    const res = await call('GET', `/api/products?search=${SEEDED_GTIN}`, user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toMatchObject([{ gtin: SEEDED_GTIN, price: '1.29', currency: 'PLN', vatRate: '8' }]);
  });

  it('creates a product, normalised: unit and currency upper case, a decimal comma, the price exact', async () => {
    const res = await call('POST', '/api/products', user, product());
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
    expect(res.json()).toMatchObject({ gtin: GTIN_13, unit: 'PCE', currency: 'PLN', price: '12.50', vatRate: '5' });
    expect((await call('GET', `/api/products/${id}`, user)).json()).toMatchObject({ description: 'Rye bread 500 g' });
  });

  it('keeps four decimals exactly, and defaults unit and currency', async () => {
    const res = await call('POST', '/api/products', user, {
      description: 'Screw M4',
      price: '0.0125',
      vatRate: 'ZW',
      gtin: '',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ gtin: null, unit: 'PCE', currency: 'PLN', price: '0.0125', vatRate: 'zw' });
  });

  it('accepts GTIN-8, GTIN-12 and GTIN-14 with their check digits', async () => {
    for (const gtin of [GTIN_8, GTIN_12, GTIN_14]) {
      const res = await call('POST', '/api/products', buyer, product({ gtin, description: `Item ${gtin}` }));
      expect(res.statusCode, res.body).toBe(201);
    }
    await emptyCatalogue(buyer);
  });

  it('refuses each wrong field with 400 and its own code, saving nothing', async () => {
    const res = await call(
      'POST',
      '/api/products',
      user,
      product({
        gtin: '5901234123458',
        description: ' ',
        unit: 'PIECE',
        price: '-1',
        currency: 'ZŁOTY',
        vatRate: '101',
        supplierArticleNumber: 'x'.repeat(36),
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(details(res).sort()).toEqual(
      [
        'gtin:gtin',
        'description:required',
        'unit:unit',
        'price:price',
        'currency:currency',
        'vatRate:vatRate',
        'supplierArticleNumber:tooLong',
      ].sort(),
    );
    for (const gtin of ['1234567', '123456789012345', '1234567a']) {
      expect(details(await call('POST', '/api/products', user, product({ gtin })))).toEqual(['gtin:gtin']);
    }
    expect(details(await call('POST', '/api/products', user, product({ price: '1.23456' })))).toEqual(['price:price']);
    expect(details(await call('POST', '/api/products', user, product({ description: 'x'.repeat(351) })))).toEqual([
      'description:tooLong',
    ]);
  });

  it('refuses a GTIN already in the catalogue (409 on the field), also when editing another product', async () => {
    const dup = await call('POST', '/api/products', user, product({ description: 'Copy' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('products.gtin_taken');
    expect(details(dup)).toEqual(['gtin:gtinTaken']);
    const seeded = (await call('GET', `/api/products?search=${SEEDED_GTIN}`, user)).json().items[0];
    const edit = await call('PUT', `/api/products/${seeded.id}`, user, product());
    expect(edit.statusCode).toBe(409);
  });

  it('updates a product, keeping its own GTIN', async () => {
    const res = await call('PUT', `/api/products/${id}`, user, product({ price: '13', buyerArticleNumber: '' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ price: '13.00', buyerArticleNumber: null, gtin: GTIN_13 });
  });

  it('keeps every company to its own catalogue: another company gets 404 for the id and sees none of it', async () => {
    expect((await call('GET', `/api/products/${id}`, buyer)).statusCode).toBe(404);
    expect((await call('PUT', `/api/products/${id}`, buyer, product())).statusCode).toBe(404);
    expect((await call('DELETE', `/api/products/${id}`, buyer)).statusCode).toBe(404);
    expect(await descriptions(buyer)).toEqual([]);
    expect((await call('GET', `/api/products/${id}`, user)).statusCode).toBe(200);
    // The same GTIN is free in another company's catalogue.
    const theirs = await call('POST', '/api/products', buyer, product());
    expect(theirs.statusCode).toBe(201);
    await call('DELETE', `/api/products/${theirs.json().id}`, buyer);
  });

  it('needs authentication, OUTBOX_CREATE to see and OUTBOX_MODIFY to change', async () => {
    expect((await call('GET', '/api/products')).statusCode).toBe(401);
    expect((await call('GET', `/api/products/${id}`)).statusCode).toBe(401);
    expect((await call('GET', '/api/products', clerk)).statusCode).toBe(403);
    expect((await call('GET', '/api/products/export', clerk)).statusCode).toBe(403);
    expect((await call('GET', `/api/products/${id}`, clerk)).statusCode).toBe(403);
    expect((await call('POST', '/api/products', clerk, product({ gtin: null }))).statusCode).toBe(403);
    expect((await call('PUT', `/api/products/${id}`, clerk, product())).statusCode).toBe(403);
    expect((await call('DELETE', `/api/products/${id}`, clerk)).statusCode).toBe(403);
    expect((await importCsv('description\nx\n', { token: clerk })).statusCode).toBe(403);
  });

  it('refuses a bad id, sort or cursor with 400 on the field', async () => {
    expect(details(await call('GET', '/api/products/not-a-uuid', user))).toEqual(['id:uuid']);
    expect(details(await call('GET', '/api/products?sort=price', user))).toEqual(['sort:oneOf']);
    expect((await call('GET', '/api/products?cursor=forged', user)).statusCode).toBe(400);
  });

  it('deletes a product; a second delete is a 404', async () => {
    expect((await call('DELETE', `/api/products/${id}`, user)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/products/${id}`, user)).statusCode).toBe(404);
  });
});

describe('products list', () => {
  beforeAll(async () => {
    for (const [gtin, sup, description] of [
      [GTIN_8, 'A-300', 'banana chips'],
      [GTIN_12, 'A-100', 'Apple juice'],
      [GTIN_13, 'B-200', 'Cherry jam'],
      [GTIN_14, 'C-400', 'apple vinegar'],
      [null, 'D-500', 'Delivery'],
    ] as const) {
      const res = await call(
        'POST',
        '/api/products',
        buyer,
        product({ gtin, supplierArticleNumber: sup, buyerArticleNumber: `BY-${sup}`, description }),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it('pages by description, case-insensitive, with a total on request', async () => {
    const first = (await call('GET', '/api/products?limit=2&includeTotal=true', buyer)).json();
    expect(first.total).toBe(5);
    expect(first.items.map((p: { description: string }) => p.description)).toEqual(['Apple juice', 'apple vinegar']);
    const second = (await call('GET', `/api/products?limit=2&cursor=${first.nextCursor}`, buyer)).json();
    expect(second.items.map((p: { description: string }) => p.description)).toEqual(['banana chips', 'Cherry jam']);
    const third = (await call('GET', `/api/products?limit=2&cursor=${second.nextCursor}`, buyer)).json();
    expect(third.items.map((p: { description: string }) => p.description)).toEqual(['Delivery']);
    expect(third.nextCursor).toBeNull();
    // A cursor of one order is not a position in another.
    expect(details(await call('GET', `/api/products?sort=gtin&cursor=${first.nextCursor}`, buyer))).toEqual([
      'cursor:cursor',
    ]);
  });

  it('searches GTIN, both article numbers and the description', async () => {
    expect(await descriptions(buyer, `?search=${GTIN_14}`)).toEqual(['apple vinegar']);
    expect(await descriptions(buyer, '?search=a-100')).toEqual(['Apple juice']);
    expect(await descriptions(buyer, '?search=BY-B-200')).toEqual(['Cherry jam']);
    expect(await descriptions(buyer, '?search=apple')).toEqual(['Apple juice', 'apple vinegar']);
    expect(await descriptions(buyer, '?search=apple%20vin')).toEqual(['apple vinegar']);
  });

  it('sorts by supplier article number descending', async () => {
    expect(await descriptions(buyer, '?sort=supplierArticleNumber&order=desc')).toEqual([
      'Delivery',
      'apple vinegar',
      'Cherry jam',
      'banana chips',
      'Apple juice',
    ]);
  });

  it('exports the catalogue as CSV that imports back unchanged into an emptied catalogue', async () => {
    const res = await call('GET', '/api/products/export', buyer);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('gtin,supplierArticleNumber,buyerArticleNumber,description,unit,price,currency,vatRate');
    expect(lines).toContain(`${GTIN_12},A-100,BY-A-100,Apple juice,PCE,12.50,PLN,5`);
    const before = (await call('GET', '/api/products?limit=100', buyer)).json().items;
    await emptyCatalogue(buyer);
    const back = await importCsv(res.body);
    expect(back.json(), back.body).toMatchObject({ created: 5, problems: [] });
    const after = (await call('GET', '/api/products?limit=100', buyer)).json().items;
    const strip = (items: Record<string, unknown>[]) =>
      items.map(({ id: _id, createdAt: _c, updatedAt: _u, ...rest }) => rest);
    expect(strip(after)).toEqual(strip(before));
    await emptyCatalogue(buyer);
  });
});

describe('products CSV import', () => {
  const BAD = [
    'description;gtin;price;unit;vatRate',
    'Good one;5901234123471;1,99;kgm;23',
    ';5901234123458;abc;PIECE;7.777',
    'Twice;5901234123471;2;PCE;np',
  ].join('\n');

  it('previews a file with bad rows: every problem by line and field, nothing saved', async () => {
    const res = await importCsv(BAD, { dryRun: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ dryRun: true, rows: 3, created: 0 });
    expect(
      body.problems.map((p: { line: number; field: string; code: string }) => `${p.line}:${p.field}:${p.code}`),
    ).toEqual([
      '3:gtin:gtin',
      '3:description:required',
      '3:unit:unit',
      '3:price:price',
      '3:vatRate:vatRate',
      '4:gtin:gtinDuplicateInFile',
    ]);
    expect(body.preview[0]).toEqual({
      line: 2,
      values: { description: 'Good one', gtin: '5901234123471', price: '1,99', unit: 'kgm', vatRate: '23' },
    });
    expect(await descriptions(buyer)).toEqual([]);
  });

  it('refuses the same file without a dry run, all or nothing, with the rows in the details', async () => {
    const res = await importCsv(BAD);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('products.import_invalid');
    expect(details(res)).toContain('rows.3.gtin:gtin');
    expect(await descriptions(buyer)).toEqual([]);
  });

  it('imports a clean file in one go, then names a GTIN already in the catalogue', async () => {
    const csv = 'Description,GTIN,price,unit\nGood one,5901234123471,1.99,KGM\nOther,,2,PCE\n';
    const res = await importCsv(csv);
    expect(res.json(), res.body).toMatchObject({ dryRun: false, rows: 2, created: 2, problems: [] });
    expect((await call('GET', '/api/products?search=5901234123471', buyer)).json().items[0]).toMatchObject({
      unit: 'KGM',
      price: '1.99',
      currency: 'PLN',
    });
    const again = await importCsv(csv, { dryRun: true });
    expect(again.json().problems).toEqual([{ line: 2, field: 'gtin', code: 'gtinTaken' }]);
    await emptyCatalogue(buyer);
  });

  it('names the problems of the file itself: columns, encoding, emptiness', async () => {
    const problems = async (csv: string | Uint8Array) =>
      (await importCsv(csv, { dryRun: true })).json().problems.map((p: { code: string }) => p.code);
    expect(await problems('gtin,colour\n5901234123471,red\n')).toEqual(['csvUnknownColumn', 'csvMissingColumn']);
    expect(await problems('description,description\na,b\n')).toEqual(['csvDuplicateColumn']);
    expect(await problems(new Uint8Array([0x64, 0x0a, 0xff, 0xfe]))).toEqual(['csvEncoding']);
    expect(await problems('description\n')).toEqual(['csvEmpty']);
  });

  it('refuses a file over the size limit and a form without a file, with 400 on the field', async () => {
    const big = await importCsv(`description\n${'x'.repeat(PRODUCTS_IMPORT_MAX_BYTES)}\n`, { dryRun: true });
    expect(big.statusCode).toBe(400);
    expect(details(big)).toEqual(['file:fileTooLarge']);
    const form = new FormData();
    form.append('note', 'no file');
    const request = new Request('http://x', { method: 'POST', body: form });
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/products/import',
      headers: { 'content-type': request.headers.get('content-type')!, ...bearer(buyer) },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(none.statusCode).toBe(400);
    expect(details(none)).toEqual(['file:required']);
  });
});

describe('filling products from a received price catalogue', () => {
  const catalogue = (lines: CanonicalDocument['lines']): CanonicalDocument => ({
    kind: 'price_catalogue',
    header: { number: 'PC-1', dates: [], texts: [] },
    references: [],
    parties: [],
    currency: 'EUR',
    paymentTerms: [],
    lines,
    allowances: [],
    taxes: [],
    totals: [],
    packages: [],
    errors: [],
  });

  it("updates the company's product of the GTIN and adds new ones, in that company only", async () => {
    const supplier = (await call('GET', `/api/products?search=${SEEDED_GTIN}`, user)).json().items[0];
    const body = catalogue([
      {
        lineNumber: '1',
        gtin: SEEDED_GTIN,
        description: 'Mineral water 0.5 l, still (new label)',
        quantities: [],
        prices: [{ qualifier: 'AAA', value: '1.3900' }],
        amounts: [],
      },
      {
        lineNumber: '2',
        gtin: NEW_GTIN_14,
        supplierArticleNumber: 'NEW-14',
        description: 'New case',
        quantities: [{ qualifier: '59', value: '24', unit: 'CT' }],
        prices: [{ qualifier: 'AAA', value: '30' }],
        amounts: [],
        taxes: [{ qualifier: '7', type: 'VAT', category: 'E', amounts: [] }],
      },
      {
        lineNumber: '3',
        gtin: '5901234123458',
        description: 'Bad check digit',
        quantities: [],
        prices: [],
        amounts: [],
      },
    ]);
    const [row] = await t.app.services.db.select().from(products).where(eq(products.id, supplier.id));
    const companyId = row!.companyId;
    const result = await t.app.services.products.fillFromPriceCatalogue(companyId, body);
    expect(result).toEqual({ created: 1, updated: 1, skipped: [{ lineNumber: '3', reason: 'gtinInvalid' }] });
    expect((await call('GET', `/api/products/${supplier.id}`, user)).json()).toMatchObject({
      description: 'Mineral water 0.5 l, still (new label)',
      price: '1.39',
      currency: 'EUR',
      supplierArticleNumber: 'DS-1001',
      vatRate: '8',
    });
    expect((await call('GET', `/api/products?search=NEW-14`, user)).json().items[0]).toMatchObject({
      gtin: NEW_GTIN_14,
      unit: 'CT',
      price: '30.00',
      currency: 'EUR',
      vatRate: 'zw',
    });
    expect(await descriptions(buyer)).toEqual([]);
  });
});
