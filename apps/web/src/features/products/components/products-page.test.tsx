import { waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FEATURE_PERMISSIONS, type FeaturePermission, type Product } from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import { applyDocumentLanguage } from '../../../i18n/i18n.ts';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const ALL: FeaturePermission[] = [...FEATURE_PERMISSIONS];
const GTIN = '5901234123457';
const WRONG_GTIN = '5901234123458';
const ID = '55555555-5555-4555-8555-555555555555';

function signedIn(roles: string[] = []): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp, roles }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

function product(overrides: Partial<Product> = {}): Product {
  return {
    id: ID,
    gtin: GTIN,
    supplierArticleNumber: 'SUP-1',
    buyerArticleNumber: null,
    description: 'Rye bread 500 g',
    unit: 'PCE',
    price: '12.50',
    currency: 'PLN',
    vatRate: 'zw',
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

function routes(permissions: FeaturePermission[], extra: Record<string, MockHandler | MockReply> = {}) {
  return {
    'GET /api/users/permissions': { body: { permissions, toggles: [] } },
    'GET /api/products': { body: { items: [product()], nextCursor: null, total: 1 } },
    ...extra,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('products page', () => {
  it('sends a user without OUTBOX_CREATE to the start page', async () => {
    const app = await renderApp({ path: '/products', session: signedIn(), routes: routes(['INBOX_READ']) });
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
    expect(app.api.calls.some((c) => c.path === '/api/products')).toBe(false);
  });

  it('lists products read-only without OUTBOX_MODIFY: price with its currency, the VAT category by name', async () => {
    const app = await renderApp({ path: '/products', session: signedIn(), routes: routes(['OUTBOX_CREATE']) });
    const row = await app.screen.findByTestId('product-row-Rye bread 500 g');
    expect(within(row).getByText(GTIN)).toBeTruthy();
    expect(within(row).getByText('SUP-1')).toBeTruthy();
    expect(within(row).getByText(/12\.50/)).toBeTruthy();
    expect(within(row).getByText('Exempt (zw)')).toBeTruthy();
    expect(app.screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(app.screen.queryByRole('button', { name: 'New product' })).toBeNull();
    expect(app.screen.queryByRole('button', { name: 'Import CSV' })).toBeNull();
    expect(within(row).queryByRole('button', { name: /Edit/ })).toBeNull();
  });

  it('asks the server for the search and the sort in the address', async () => {
    const asked: URLSearchParams[] = [];
    const app = await renderApp({
      path: '/products?search=bread&sort=gtin&order=desc',
      session: signedIn(),
      routes: routes(['OUTBOX_CREATE'], {
        'GET /api/products': ({ url }) => {
          asked.push(new URL(url, 'http://x').searchParams);
          return { body: { items: [product()], nextCursor: null, total: 1 } };
        },
      }),
    });
    await app.screen.findByTestId('product-row-Rye bread 500 g');
    expect(asked.map((q) => [q.get('search'), q.get('sort'), q.get('order')])).toEqual([['bread', 'gtin', 'desc']]);
  });

  it('checks a new product as the server does (description required, GTIN check digit, price), then saves it', async () => {
    const app = await renderApp({
      path: '/products',
      session: signedIn(),
      routes: routes(ALL, {
        'POST /api/products': ({ body }) => ({ status: 201, body: product(body as Partial<Product>) }),
      }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'New product' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'New product' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    await app.user.type(within(dialog).getByRole('textbox', { name: /^Description/ }), 'Wheat flour');
    await app.user.type(within(dialog).getByRole('textbox', { name: /^GTIN/ }), WRONG_GTIN);
    await app.user.type(within(dialog).getByRole('textbox', { name: /^Net price/ }), '1.23456');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('This GTIN is incorrect (8, 12, 13 or 14 digits with a valid check digit)'),
    ).toBeTruthy();
    expect(within(dialog).getByText('Use a price of at least 0 with up to 4 decimals, e.g. 12.50')).toBeTruthy();
    expect(app.api.calls.some((c) => c.method === 'POST')).toBe(false);
    const gtin = within(dialog).getByRole('textbox', { name: /^GTIN/ });
    await app.user.clear(gtin);
    await app.user.type(gtin, GTIN);
    const price = within(dialog).getByRole('textbox', { name: /^Net price/ });
    await app.user.clear(price);
    await app.user.type(price, '2,35');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.method === 'POST' && c.path === '/api/products')?.body).toEqual({
        gtin: GTIN,
        supplierArticleNumber: null,
        buyerArticleNumber: null,
        description: 'Wheat flour',
        unit: 'PCE',
        price: '2.35',
        currency: 'PLN',
        vatRate: null,
      }),
    );
    expect(await app.screen.findByText('Wheat flour was saved.')).toBeTruthy();
  });

  it('shows the server refusing a GTIN already in the catalogue on its field', async () => {
    const app = await renderApp({
      path: '/products',
      session: signedIn(),
      routes: routes(ALL, {
        [`PUT /api/products/${ID}`]: {
          status: 409,
          body: {
            error: { code: 'products.gtin_taken', message: 'x', details: [{ field: 'gtin', code: 'gtinTaken' }] },
            requestId: 'r',
          },
        },
      }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'Edit Rye bread 500 g' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Edit Rye bread 500 g' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This GTIN is already in your products')).toBeTruthy();
  });

  it('deletes a product after confirmation', async () => {
    const app = await renderApp({
      path: '/products',
      session: signedIn(),
      routes: routes(ALL, { [`DELETE /api/products/${ID}`]: { status: 204 } }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'Delete Rye bread 500 g' }));
    const confirm = await app.screen.findByRole('dialog', { name: 'Delete product' });
    expect(app.api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await app.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.api.calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(await app.screen.findByText('Rye bread 500 g was deleted.')).toBeTruthy();
  });

  it('previews an import with its problems by row and field and offers no import; a clean file is imported whole', async () => {
    const imports: string[] = [];
    const app = await renderApp({
      path: '/products',
      session: signedIn(),
      routes: routes(ALL, {
        'POST /api/products/import': ({ url }) => {
          imports.push(url);
          const dryRun = url.includes('dryRun=true');
          if (imports.length === 1)
            return {
              body: {
                dryRun,
                rows: 2,
                created: 0,
                problems: [
                  { line: 3, field: 'gtin', code: 'gtin' },
                  { line: 3, field: 'vatRate', code: 'vatRate' },
                  { line: 4, field: 'gtin', code: 'gtinDuplicateInFile', params: { line: 2 } },
                ],
                preview: [
                  { line: 2, values: { description: 'Good', gtin: GTIN } },
                  { line: 3, values: { description: 'Bad', gtin: WRONG_GTIN, vatRate: '101' } },
                  { line: 4, values: { description: 'Twice', gtin: GTIN } },
                ],
              },
            };
          return {
            body: {
              dryRun,
              rows: 2,
              created: dryRun ? 0 : 2,
              problems: [],
              preview: [
                { line: 2, values: { description: 'Good' } },
                { line: 3, values: { description: 'Fixed' } },
              ],
            },
          };
        },
      }),
    });
    // File calls go through the global fetch (multipart bodies, downloads), not the JSON client.
    vi.stubGlobal('fetch', app.api.fetch);
    await app.user.click(await app.screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Import products from CSV' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await app.user.upload(input, new File(['description,gtin\n'], 'products.csv', { type: 'text/csv' }));
    const gtinProblem = await within(dialog).findByTestId('import-problem-3-gtin');
    expect(within(gtinProblem).getByText('GTIN')).toBeTruthy();
    expect(
      within(gtinProblem).getByText('This GTIN is incorrect (8, 12, 13 or 14 digits with a valid check digit)'),
    ).toBeTruthy();
    const vatProblem = within(dialog).getByTestId('import-problem-3-vatRate');
    expect(within(vatProblem).getByText('VAT rate')).toBeTruthy();
    expect(within(vatProblem).getByText('Use a rate from 0 to 100 with up to 2 decimals, or zw or np')).toBeTruthy();
    expect(
      within(within(dialog).getByTestId('import-problem-4-gtin')).getByText('This GTIN already appears in line 2'),
    ).toBeTruthy();
    expect(within(within(dialog).getByTestId('import-row-3')).getByText('2 problems')).toBeTruthy();
    expect(within(within(dialog).getByTestId('import-row-2')).getByText('OK')).toBeTruthy();
    expect(within(dialog).getByRole('alert').textContent).toContain('3 problems found');
    expect(within(dialog).queryByRole('button', { name: /^Import \d/ })).toBeNull();

    await app.user.upload(input, new File(['description\n'], 'fixed.csv', { type: 'text/csv' }));
    await app.user.click(await within(dialog).findByRole('button', { name: 'Import 2 products' }));
    expect(await app.screen.findByText('2 products were imported.')).toBeTruthy();
    expect(imports.map((u) => u.includes('dryRun=true'))).toEqual([true, true, false]);
  });

  it('reads right to left in Arabic, with the codes and numbers kept left to right', async () => {
    await i18next.changeLanguage('ar');
    applyDocumentLanguage('ar');
    try {
      const app = await renderApp({ path: '/products', session: signedIn(), routes: routes(['OUTBOX_CREATE']) });
      const row = await app.screen.findByTestId('product-row-Rye bread 500 g');
      expect(document.documentElement.getAttribute('dir')).toBe('rtl');
      expect(await app.screen.findByRole('heading', { name: 'المنتجات', level: 1 })).toBeTruthy();
      expect(within(row).getByText(GTIN).getAttribute('dir')).toBe('ltr');
      expect(within(row).getByText('معفى (zw)')).toBeTruthy();
    } finally {
      await i18next.changeLanguage('en');
      applyDocumentLanguage('en');
    }
  });
});
