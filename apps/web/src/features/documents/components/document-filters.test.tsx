import { waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { AddressBookEntry, CompanyLocation, Partner } from '@portal/contracts';
import { inputLabelled } from '../../../test/queries.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { documentsRoutes, signedIn } from '../documents-test-data.ts';
import { validateDocumentsSearch } from '../documents-search.ts';

const FRESH = '5901234000017';
const UNKNOWN_GLN = '4000000000099';
const WAREHOUSE = '4012345000030';
const STORE = '4012345000047';

function partner(gln: string, name: string): Partner {
  return {
    id: `00000000-0000-4000-8000-${gln.slice(1)}`,
    gln,
    name,
    linkedCompany: null,
    vatId: null,
    country: 'PL',
    contactName: null,
    contactEmail: null,
    contactPhone: null,
    status: 'active',
    testMode: false,
    docTypesIn: [],
    docTypesOut: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    lastExchangeAt: null,
  };
}

function location(gln: string, name: string): CompanyLocation {
  return {
    gln,
    kind: 'delivery_point',
    name,
    street: 'Main St 1',
    postalCode: '00-001',
    city: 'Warsaw',
    country: 'PL',
    code: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

function entry(gln: string | null, name: string): AddressBookEntry {
  return {
    id: `00000000-0000-4000-8000-${(gln ?? '0').padStart(12, '0').slice(-12)}`,
    name,
    displayedName: null,
    gln,
    personType: 'J',
    taxId: null,
    residenceType: null,
    phone: null,
    street: null,
    postalCode: null,
    city: 'Warsaw',
    province: null,
    accountNumber: null,
    country: 'PL',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A list endpoint as the server answers it: `search` matches the name or the GLN; every query is kept. */
function searched<T extends { gln: string | null; name: string }>(all: T[], queries: URLSearchParams[]) {
  return ({ url }: { url: string }) => {
    const query = new URL(url, 'http://x').searchParams;
    queries.push(query);
    const search = (query.get('search') ?? '').toLowerCase();
    const items = all.filter((item) => `${item.name} ${item.gln ?? ''}`.toLowerCase().includes(search));
    return { body: { items, nextCursor: null } };
  };
}

/** The search of the address as the page reads it (the router writes a GLN as a JSON string, `"4012…"`). */
const applied = (router: { state: { location: { search: Record<string, unknown> } } }) =>
  validateDocumentsSearch(router.state.location.search);

/** The partners chosen in the picker, as its pills (beside its text field) show them. */
const pills = (panel: HTMLElement) =>
  Array.from(inputLabelled(panel, 'Partners').parentElement?.querySelectorAll('.mantine-Pill-label') ?? []).map(
    (pill) => pill.textContent,
  );

async function openFilters(path: string, routes: Record<string, unknown> = {}) {
  const data = documentsRoutes();
  const app = await renderApp({
    path,
    session: signedIn(),
    routes: { ...data.routes, ...(routes as typeof data.routes) },
  });
  await app.screen.findByTestId('documents-table');
  if (!app.screen.queryByRole('search')) await app.user.click(app.screen.getByRole('button', { name: 'Filters' }));
  return { app, panel: app.screen.getByRole('search') };
}

describe('document filters', () => {
  it('writes only the end of a range that was picked: a search since a day needs no last day', async () => {
    const { app, panel } = await openFilters('/documents/in');
    const range = within(panel).getByRole('group', { name: 'Document date' });
    // The calendar opens on the current month: its 10th is always in it.
    const day = dayjs().date(10);
    await app.user.click(within(range).getByLabelText('From'));
    await app.user.click(within(panel).getByRole('button', { name: day.format('D MMMM YYYY') }));
    expect(within(range).getByTestId('filter-documentDateFrom').textContent).toContain(day.format('YYYY-MM-DD'));
    expect(within(range).getByTestId('filter-documentDateTo').textContent).not.toContain(day.format('YYYY-MM-DD'));
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(currentHref(app.router)).toBe(`/documents/in?documentDateFrom=${day.format('YYYY-MM-DD')}`),
    );
  });

  it('writes both ends of a range picked in the calendar, and clearing one end removes only it', async () => {
    const { app, panel } = await openFilters('/documents/in');
    const range = within(panel).getByRole('group', { name: 'Document date' });
    // The calendar opens on the current month: its 1st and 28th are always in it.
    const first = dayjs().date(1);
    const last = dayjs().date(28);
    await app.user.click(within(range).getByLabelText('From'));
    await app.user.click(within(panel).getByRole('button', { name: first.format('D MMMM YYYY') }));
    await app.user.click(within(range).getByLabelText('To'));
    await app.user.click(within(panel).getByRole('button', { name: last.format('D MMMM YYYY') }));
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(currentHref(app.router)).toContain(`documentDateFrom=${first.format('YYYY-MM-DD')}`));
    expect(currentHref(app.router)).toContain(`documentDateTo=${last.format('YYYY-MM-DD')}`);
    expect(currentHref(app.router)).not.toContain('processingDate');

    // A search until a day: the first day is cleared, the last one stays.
    await app.user.click(within(range).getByRole('button', { name: 'Clear Document date – From' }));
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(currentHref(app.router)).toBe(`/documents/in?documentDateTo=${last.format('YYYY-MM-DD')}`),
    );

    await app.user.click(within(range).getByRole('button', { name: 'Clear Document date – To' }));
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
  });

  it('offers no last day before the first one, nor a first day after the last, and is used from the keyboard', async () => {
    const from = dayjs().date(10);
    const { app, panel } = await openFilters(`/documents/in?expectedDeliveryDateFrom=${from.format('YYYY-MM-DD')}`);
    const range = within(panel).getByRole('group', { name: 'Expected delivery date' });
    expect(within(range).getByTestId('filter-expectedDeliveryDateFrom').textContent).toContain(
      from.format('YYYY-MM-DD'),
    );
    const to = within(range).getByLabelText('To');
    to.focus();
    await app.user.keyboard('{Enter}');
    const dayButton = (day: dayjs.Dayjs) =>
      within(panel).getByRole('button', { name: day.format('D MMMM YYYY') }) as HTMLButtonElement;
    expect(dayButton(from.subtract(1, 'day')).disabled).toBe(true);
    await app.user.click(dayButton(from.subtract(1, 'day')));
    expect(to.textContent).not.toContain(from.subtract(1, 'day').format('YYYY-MM-DD'));
    expect(dayButton(from).disabled).toBe(false);
    dayButton(from).focus();
    await app.user.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    const until = from.add(2, 'day');
    expect(to.textContent).toContain(until.format('YYYY-MM-DD'));

    await app.user.click(within(range).getByLabelText('From'));
    expect(dayButton(until.add(1, 'day')).disabled).toBe(true);
    expect(dayButton(until).disabled).toBe(false);
    await app.user.keyboard('{Escape}');

    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(currentHref(app.router)).toContain(`expectedDeliveryDateTo=${until.format('YYYY-MM-DD')}`),
    );
    expect(currentHref(app.router)).toContain(`expectedDeliveryDateFrom=${from.format('YYYY-MM-DD')}`);
  });

  it('searches the partners for what is typed and puts the chosen GLN in the search', async () => {
    const queries: URLSearchParams[] = [];
    const partners = [partner(FRESH, 'Fresh Foods'), partner('4012345000054', 'Dairy Farm')];
    const { app, panel } = await openFilters('/documents/in?partnerIds=4012345000016', {
      'GET /api/partners': searched(partners, queries),
    });
    // A partner of the address shows its GLN until a search finds it.
    expect(pills(panel)).toEqual(['4012345000016']);
    // Nothing is asked before the field is used.
    expect(queries).toHaveLength(0);

    const field = inputLabelled(panel, 'Partners');
    await app.user.type(field, 'fresh');
    // The server's answer for the typed text replaces the first suggestions.
    await waitFor(() => expect(queries.some((q) => q.get('search') === 'fresh')).toBe(true));
    await waitFor(() => expect(app.screen.queryByRole('option', { name: /Dairy Farm/ })).toBeNull());
    await app.user.click(app.screen.getByRole('option', { name: `Fresh Foods (${FRESH})` }));
    expect(queries.find((q) => q.get('search') === 'fresh')?.get('limit')).toBe('25');

    // A valid GLN that is no partner may be used as is.
    await app.user.type(field, UNKNOWN_GLN);
    await app.user.click(await app.screen.findByRole('option', { name: `Use GLN ${UNKNOWN_GLN}` }));

    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(applied(app.router).partnerIds).toEqual(['4012345000016', FRESH, UNKNOWN_GLN]));
    // The chosen partner keeps its name once the search is gone.
    expect(pills(panel)).toEqual(['4012345000016', `Fresh Foods (${FRESH})`, UNKNOWN_GLN]);
  });

  it('suggests delivery points from the company and the address book, and applies the chosen or typed GLN', async () => {
    const locationQueries: URLSearchParams[] = [];
    const bookQueries: URLSearchParams[] = [];
    const { app, panel } = await openFilters('/documents/in', {
      'GET /api/company/locations': searched(
        [location(WAREHOUSE, 'Central warehouse'), location(STORE, 'Store 7')],
        locationQueries,
      ),
      'GET /api/address-book': searched(
        [entry('4012345000054', 'Warehouse of a partner'), entry(null, 'Warehouse without GLN')],
        bookQueries,
      ),
    });
    const field = inputLabelled(panel, 'Delivery point') as HTMLInputElement;
    await app.user.type(field, 'warehouse');
    await waitFor(() => expect(app.screen.queryByRole('option', { name: /Store 7/ })).toBeNull());
    expect(locationQueries.some((q) => q.get('search') === 'warehouse')).toBe(true);
    expect(bookQueries.some((q) => q.get('search') === 'warehouse')).toBe(true);
    // The company's own come first; the address book entry without a GLN is no suggestion.
    expect(app.screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      `Central warehouse (${WAREHOUSE})`,
      'Warehouse of a partner (4012345000054)',
    ]);
    await app.user.click(app.screen.getByRole('option', { name: `Central warehouse (${WAREHOUSE})` }));
    expect(field.value).toBe(WAREHOUSE);
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(applied(app.router).deliveryPointGln).toBe(WAREHOUSE));

    // The address book's entries with a GLN are suggested too.
    await app.user.clear(field);
    await app.user.type(field, 'partner');
    expect(await app.screen.findByRole('option', { name: 'Warehouse of a partner (4012345000054)' })).toBeTruthy();

    // A GLN that nothing suggests is used as typed.
    await app.user.clear(field);
    await app.user.type(field, UNKNOWN_GLN);
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(applied(app.router).deliveryPointGln).toBe(UNKNOWN_GLN));
  });
});
