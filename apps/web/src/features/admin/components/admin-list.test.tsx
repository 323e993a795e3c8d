import { within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { adminSession, adminUser } from '../admin-test-data.ts';

/** Makes every `max-width` media query match, as on a phone. */
function onPhone() {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    Object.assign(new EventTarget(), {
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
    }),
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('admin lists', () => {
  it('show only the empty text for an empty list, without a count', async () => {
    const { screen } = await renderApp({
      path: '/admin/emails',
      session: adminSession(),
      routes: { 'GET /api/admin/emails': { body: { items: [], nextCursor: null } } },
    });
    expect(await screen.findByTestId('admin-list-empty')).toBeTruthy();
    expect(screen.queryByText(/Showing|shown/)).toBeNull();
    expect(screen.queryByTestId('list-count')).toBeNull();
  });

  it('say how many rows are shown once the last page is in, in the same words as the other lists', async () => {
    const { screen } = await renderApp({
      path: '/admin/users',
      session: adminSession(),
      routes: {
        'GET /api/admin/users': {
          body: { items: [adminUser(), adminUser({ id: 'u2', email: 'second@demo.example.com' })], nextCursor: null },
        },
      },
    });
    expect(await screen.findByText('Showing 2 of 2')).toBeTruthy();
  });

  it('stack the rows as cards on a phone: the name on top with the actions, the rest as labelled lines', async () => {
    onPhone();
    const user = adminUser({ roles: ['admin'] });
    const noRoles = adminUser({ id: 'u2', email: 'second@demo.example.com', roles: [] });
    const { screen } = await renderApp({
      path: '/admin/users',
      session: adminSession(),
      routes: { 'GET /api/admin/users': { body: { items: [user, noRoles], nextCursor: null } } },
    });
    const list = await screen.findByRole('list', { name: 'Users' });
    expect(screen.queryByRole('table')).toBeNull();
    const [card, second] = within(list).getAllByRole('listitem');
    if (!card || !second) throw new Error('two cards expected');
    const terms = (item: HTMLElement) =>
      within(item)
        .getAllByRole('term')
        .map((dt) => dt.textContent);
    expect(within(card).getByText(user.email)).toBeTruthy();
    expect(within(card).getByRole('button', { name: /More actions for/ })).toBeTruthy();
    expect(terms(card)).toEqual(['Company', 'Roles', 'State']);
    // No roles: no bare "Roles" label.
    expect(terms(second)).toEqual(['Company', 'State']);
  });
});
