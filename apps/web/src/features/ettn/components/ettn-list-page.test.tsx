import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { NOTE_ID, NOTE_ID_2, ettnItem, ettnRoutes, ettnSession, refusal } from '../ettn-test-data.ts';
import { validateEttnSearch } from '../ettn-search.ts';

describe('e-TTN lists', () => {
  it('shows the e-TTN menu and its pages only with the role ettn', async () => {
    const without = await renderApp({ path: '/ettn', session: ettnSession([]), routes: ettnRoutes() });
    // The guard leads away from /ettn, and the navigation has no e-TTN entry.
    await waitFor(() => expect(currentHref(without.router)).not.toContain('/ettn'));
    expect(without.screen.queryByTestId('nav-ettn')).toBeNull();
    expect(without.api.calls.some((c) => c.path.startsWith('/api/ettns'))).toBe(false);
    without.unmount();

    const app = await renderApp({ path: '/documents/in', session: ettnSession(), routes: ettnRoutes() });
    await app.user.click(await app.screen.findByTestId('nav-ettn'));
    await app.user.click(app.screen.getByTestId('nav-ettnRegistered'));
    await waitFor(() => expect(currentHref(app.router)).toBe('/ettn'));
    expect(await app.screen.findByRole('heading', { level: 1, name: 'Registered e-TTNs' })).toBeTruthy();
  });

  it('shows a row with status, parties, vehicle, route and who must act', async () => {
    const app = await renderApp({ path: '/ettn', session: ettnSession(), routes: ettnRoutes() });
    const row = await app.screen.findByTestId('ettn-row-TTN-0001');
    expect(within(row).getByText('Planned')).toBeTruthy();
    expect(within(row).getByText('Demo Supplier')).toBeTruthy();
    expect(within(row).getByText('Demo Retailer')).toBeTruthy();
    expect(within(row).getByText('Demo Transport')).toBeTruthy();
    expect(within(row).getByText('AA1234BB')).toBeTruthy();
    expect(within(row).getByText('Kyiv → Lviv')).toBeTruthy();
    expect(within(row).getByText('Pick-up signature')).toBeTruthy();
    expect(within(row).getByText('Must act: Carrier')).toBeTruthy();
    // The user's company is the carrier: its turn.
    expect(within(row).getByTestId('ettn-your-turn')).toBeTruthy();
    const headers = Array.from(app.screen.getByTestId('ettn-table').querySelectorAll('thead th')).map((th) =>
      th.textContent?.trim(),
    );
    expect(headers).toEqual([
      'Number',
      'Status',
      'Date',
      'Consignor',
      'Consignee',
      'Carrier',
      'Vehicle',
      'Route',
      'Current step',
    ]);
  });

  it('sends the filters of the address to the server and writes applied filters into the address', async () => {
    const urls: URL[] = [];
    const app = await renderApp({
      path: '/ettn?status=PLANNED&dateFrom=2026-11-01&bogus=1',
      session: ettnSession(),
      routes: ettnRoutes({
        'GET /api/ettns': ({ url }) => {
          urls.push(new URL(url, 'http://x'));
          return { body: { items: [ettnItem()], nextCursor: null } };
        },
      }),
    });
    await app.screen.findByTestId('ettn-row-TTN-0001');
    expect(urls[0]?.searchParams.get('status')).toBe('PLANNED');
    expect(urls[0]?.searchParams.get('dateFrom')).toBe('2026-11-01');
    expect(urls[0]?.searchParams.get('bogus')).toBeNull();

    const panel = app.screen.getByRole('search');
    await app.user.type(within(panel).getByLabelText('Number, party name or EDRPOU'), 'Demo');
    await app.user.type(within(panel).getByLabelText('Date to'), '2026-11-30');
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(currentHref(app.router)).toContain('search=Demo'));
    expect(currentHref(app.router)).toContain('dateTo=2026-11-30');
    expect(currentHref(app.router)).toContain('status=PLANNED');
    await waitFor(() =>
      expect(
        urls.some(
          (u) =>
            u.searchParams.get('search') === 'Demo' &&
            u.searchParams.get('dateTo') === '2026-11-30' &&
            u.searchParams.get('status') === 'PLANNED',
        ),
      ).toBe(true),
    );

    await app.user.click(within(panel).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/ettn'));
  });

  it('loads the next page with the cursor on "Load more"', async () => {
    const cursors: (string | null)[] = [];
    const app = await renderApp({
      path: '/ettn',
      session: ettnSession(),
      routes: ettnRoutes({
        'GET /api/ettns': ({ url }) => {
          const cursor = new URL(url, 'http://x').searchParams.get('cursor');
          cursors.push(cursor);
          return cursor
            ? { body: { items: [ettnItem({ id: NOTE_ID_2, number: 'TTN-0002', status: 'SIGNED' })], nextCursor: null } }
            : { body: { items: [ettnItem()], nextCursor: 'c-2' } };
        },
      }),
    });
    await app.screen.findByTestId('ettn-row-TTN-0001');
    await app.user.click(app.screen.getByRole('button', { name: /load more/i }));
    const second = await app.screen.findByTestId('ettn-row-TTN-0002');
    expect(within(second).getByText('Signed')).toBeTruthy();
    expect(cursors).toEqual([null, 'c-2']);
    expect(app.screen.queryByRole('button', { name: /load more/i })).toBeNull();
  });

  it('says when the pending list is empty, and the refusal of the list by its e-TTN code', async () => {
    const empty = await renderApp({ path: '/ettn/pending', session: ettnSession(), routes: ettnRoutes() });
    expect(await empty.screen.findByText('No pending e-TTNs: every upload has been signed and sent.')).toBeTruthy();
    empty.unmount();

    const failed = await renderApp({
      path: '/ettn',
      session: ettnSession(),
      routes: ettnRoutes({ 'GET /api/ettns': refusal('ettn.19', 403) }),
    });
    expect(await failed.screen.findByText('Access token no longer valid')).toBeTruthy();
  });

  it('opens a note over the list and goes back to the filtered list on close', async () => {
    const app = await renderApp({ path: '/ettn?status=PLANNED', session: ettnSession(), routes: ettnRoutes() });
    await app.user.click(await app.screen.findByRole('link', { name: 'Open e-TTN TTN-0001' }));
    await waitFor(() => expect(currentHref(app.router)).toContain(`/ettn/${NOTE_ID}`));
    expect(await app.screen.findByRole('dialog', { name: 'e-TTN TTN-0001' })).toBeTruthy();
    expect(app.screen.getByTestId('ettn-table')).toBeTruthy();
    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(currentHref(app.router)).toBe('/ettn?status=PLANNED'));
  });

  it('drops unreadable search parameters', () => {
    expect(
      validateEttnSearch({ status: 'NOPE', search: ' TTN ', dateFrom: '2026-02-30', dateTo: '2026-02-28', x: 1 }),
    ).toEqual({ search: 'TTN', dateTo: '2026-02-28' });
    expect(validateEttnSearch({ search: 32855961 })).toEqual({ search: '32855961' });
  });
});
