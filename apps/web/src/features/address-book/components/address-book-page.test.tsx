import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADDRESS_BOOK_IMPORT_MAX_BYTES,
  FEATURE_PERMISSIONS,
  type AddressBookEntry,
  type FeaturePermission,
} from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const ALL: FeaturePermission[] = [...FEATURE_PERMISSIONS];
const GLN = '5901234123457';
const WRONG_GLN = '5901234123458';

function signedIn(roles: string[] = []): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp, roles }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

function entry(overrides: Partial<AddressBookEntry> = {}): AddressBookEntry {
  return {
    id: '44444444-4444-4444-8444-444444444444',
    name: 'Hurtownia Północ',
    displayedName: 'Północ',
    gln: GLN,
    personType: 'J',
    taxId: '526-104-08-28',
    residenceType: 'R',
    phone: null,
    street: 'ul. Portowa 12',
    postalCode: '80-001',
    city: 'Gdańsk',
    province: null,
    accountNumber: null,
    country: 'PL',
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

function routes(permissions: FeaturePermission[], extra: Record<string, MockHandler | MockReply> = {}) {
  return {
    'GET /api/users/permissions': { body: { permissions, toggles: [] } },
    'GET /api/address-book': { body: { items: [entry()], nextCursor: null, total: 1 } },
    ...extra,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('address book page', () => {
  it('sends a user without ADDRESS_BOOK_READ, and role demo whatever its permissions, to the start page', async () => {
    const reader = await renderApp({ path: '/address-book', session: signedIn(), routes: routes(['INBOX_READ']) });
    await waitFor(() => expect(currentHref(reader.router)).toBe('/documents/in'));
    reader.unmount();
    const demo = await renderApp({ path: '/address-book', session: signedIn(['demo']), routes: routes(ALL) });
    await waitFor(() => expect(currentHref(demo.router)).toBe('/documents/in'));
    expect(demo.api.calls.some((c) => c.path === '/api/address-book')).toBe(false);
  });

  it('lists entries read-only without ADDRESS_BOOK_MODIFY, export still offered', async () => {
    const app = await renderApp({ path: '/address-book', session: signedIn(), routes: routes(['ADDRESS_BOOK_READ']) });
    const row = await app.screen.findByTestId('entry-row-Hurtownia Północ');
    expect(within(row).getByText(GLN)).toBeTruthy();
    expect(within(row).getByText('Legal person (J)')).toBeTruthy();
    expect(within(row).getByText('Poland')).toBeTruthy();
    expect(app.screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(app.screen.queryByRole('button', { name: 'New entry' })).toBeNull();
    expect(app.screen.queryByRole('button', { name: 'Import CSV' })).toBeNull();
    expect(within(row).queryByRole('button', { name: /Edit/ })).toBeNull();
  });

  it('asks the server for the sort in the address', async () => {
    const asked: URLSearchParams[] = [];
    const app = await renderApp({
      path: '/address-book?sort=city&order=desc',
      session: signedIn(),
      routes: routes(['ADDRESS_BOOK_READ'], {
        'GET /api/address-book': ({ url }) => {
          asked.push(new URL(url, 'http://x').searchParams);
          return { body: { items: [entry()], nextCursor: null, total: 1 } };
        },
      }),
    });
    await app.screen.findByTestId('entry-row-Hurtownia Północ');
    expect(asked.map((q) => [q.get('sort'), q.get('order')])).toEqual([['city', 'desc']]);
    expect((app.screen.getByRole('combobox', { name: 'Sort by' }) as HTMLInputElement).value).toBe('City');
  });

  it('checks a new entry as the server does (required fields, GLN check digit), then saves it', async () => {
    const app = await renderApp({
      path: '/address-book',
      session: signedIn(),
      routes: routes(ALL, {
        'POST /api/address-book': ({ body }) => ({ status: 201, body: entry(body as Partial<AddressBookEntry>) }),
      }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'New entry' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'New address book entry' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(within(dialog).getByText('Choose a valid country')).toBeTruthy();
    await app.user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Lager Nord');
    await app.user.type(within(dialog).getByRole('textbox', { name: /^GLN/ }), WRONG_GLN);
    await app.user.click(within(dialog).getByRole('combobox', { name: /^Country/ }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Germany (DE)' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This GLN is incorrect (13 digits with a valid check digit)')).toBeTruthy();
    expect(app.api.calls.some((c) => c.method === 'POST')).toBe(false);
    await app.user.clear(within(dialog).getByRole('textbox', { name: /^GLN/ }));
    await app.user.type(within(dialog).getByRole('textbox', { name: /^GLN/ }), GLN);
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.method === 'POST' && c.path === '/api/address-book')?.body).toMatchObject({
        name: 'Lager Nord',
        gln: GLN,
        personType: 'J',
        country: 'DE',
        displayedName: null,
        residenceType: null,
      }),
    );
    expect(await app.screen.findByText('Lager Nord was saved.')).toBeTruthy();
  });

  it('shows the NIP rule for Poland, and the server refusing a GLN already in the book, on their fields', async () => {
    const app = await renderApp({
      path: '/address-book',
      session: signedIn(),
      routes: routes(ALL, {
        'PUT /api/address-book/44444444-4444-4444-8444-444444444444': {
          status: 409,
          body: {
            error: { code: 'address_book.gln_taken', message: 'x', details: [{ field: 'gln', code: 'glnTaken' }] },
            requestId: 'r',
          },
        },
      }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'Edit Hurtownia Północ' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Edit Hurtownia Północ' });
    const taxId = within(dialog).getByRole('textbox', { name: /^Tax ID/ });
    await app.user.clear(taxId);
    await app.user.type(taxId, '5261040829');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This NIP is incorrect (10 digits with a valid check digit)')).toBeTruthy();
    await app.user.clear(taxId);
    await app.user.type(taxId, '5261040828');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This GLN is already in the address book')).toBeTruthy();
  });

  it('deletes an entry after confirmation', async () => {
    const app = await renderApp({
      path: '/address-book',
      session: signedIn(),
      routes: routes(ALL, { 'DELETE /api/address-book/44444444-4444-4444-8444-444444444444': { status: 204 } }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'Delete Hurtownia Północ' }));
    const confirm = await app.screen.findByRole('dialog', { name: 'Delete entry' });
    expect(app.api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await app.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(app.api.calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(await app.screen.findByText('Hurtownia Północ was deleted.')).toBeTruthy();
  });

  it('previews an import with its problems and offers no import; a clean file is then imported whole', async () => {
    const preview = (name: string) => ({ line: 2, values: { name, personType: 'J', country: 'PL', gln: WRONG_GLN } });
    const imports: string[] = [];
    const app = await renderApp({
      path: '/address-book',
      session: signedIn(),
      routes: routes(ALL, {
        'POST /api/address-book/import': ({ url }) => {
          imports.push(url);
          const dryRun = url.includes('dryRun=true');
          if (imports.length === 1)
            return {
              body: {
                dryRun,
                rows: 1,
                created: 0,
                problems: [{ line: 2, field: 'gln', code: 'gln' }],
                preview: [preview('Bad Row')],
              },
            };
          return { body: { dryRun, rows: 1, created: dryRun ? 0 : 1, problems: [], preview: [preview('Good Row')] } };
        },
      }),
    });
    // File calls go through the global fetch (multipart bodies, downloads), not the JSON client.
    vi.stubGlobal('fetch', app.api.fetch);
    await app.user.click(await app.screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Import from CSV' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await app.user.upload(input, new File(['name,personType,country,gln\n'], 'book.csv', { type: 'text/csv' }));
    const problem = await within(dialog).findByTestId('import-problem-2');
    expect(within(problem).getByText('GLN')).toBeTruthy();
    expect(within(problem).getByText('This GLN is incorrect (13 digits with a valid check digit)')).toBeTruthy();
    expect(within(within(dialog).getByTestId('import-row-2')).getByText('1 problem')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /^Import \d/ })).toBeNull();

    await app.user.upload(input, new File(['name,personType,country\n'], 'fixed.csv', { type: 'text/csv' }));
    await app.user.click(await within(dialog).findByRole('button', { name: 'Import 1 entry' }));
    expect(await app.screen.findByText('1 entry was imported.')).toBeTruthy();
    expect(imports.map((u) => u.includes('dryRun=true'))).toEqual([true, true, false]);
  });

  it('refuses a file over the size limit before uploading it', async () => {
    const app = await renderApp({ path: '/address-book', session: signedIn(), routes: routes(ALL) });
    vi.stubGlobal('fetch', app.api.fetch);
    await app.user.click(await app.screen.findByRole('button', { name: 'Import CSV' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Import from CSV' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    const big = new File([new Uint8Array(ADDRESS_BOOK_IMPORT_MAX_BYTES + 1)], 'big.csv', { type: 'text/csv' });
    await app.user.upload(input, big);
    expect(await within(dialog).findByText('The file big.csv is too large')).toBeTruthy();
    expect(app.api.calls.some((c) => c.path === '/api/address-book/import')).toBe(false);
  });
});
