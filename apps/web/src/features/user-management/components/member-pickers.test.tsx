import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import {
  ALL_PERMISSIONS,
  companyUser,
  groupRow,
  GROUP_INBOX,
  signedIn,
  userManagementRoutes,
} from './user-management-test-data.ts';
import { inputLabelled } from '../../../test/queries.ts';

const ZED = companyUser({
  id: '55555555-5555-4555-8555-555555555555',
  email: 'zed@demo.example.com',
  firstName: 'Zed',
  lastName: 'Zimmer',
});
const ZED_LABEL = 'Zed Zimmer <zed@demo.example.com>';
/** The first page of a company with more than 100 users: Zed, last by name, is not on it. */
const FIRST_PAGE = Array.from({ length: 100 }, (_, i) => {
  const n = String(i).padStart(3, '0');
  return companyUser({
    id: `00000000-0000-4000-8000-000000000${n}`,
    email: `u${n}@demo.example.com`,
    firstName: 'User',
    lastName: n,
  });
});

/** The users API as the server answers it: `search` over names and e-mail, 100 a page; the searches are kept. */
function usersApi(searches: string[]) {
  return ({ url }: { url: string }) => {
    const search = new URL(url, 'http://x').searchParams.get('search') ?? '';
    searches.push(search);
    if (!search) return { body: { items: FIRST_PAGE, nextCursor: 'next', total: 101 } };
    const all = [...FIRST_PAGE, ZED];
    const items = all.filter((u) =>
      `${u.firstName} ${u.lastName} ${u.email}`.toLowerCase().includes(search.toLowerCase()),
    );
    return { body: { items, nextCursor: null } };
  };
}

describe('member pickers', () => {
  it('find a user beyond the first 100 on the server and keep their name once chosen', async () => {
    const searches: string[] = [];
    const groupId = '44444444-4444-4444-8444-444444444444';
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      'GET /api/company-users': usersApi(searches),
      'POST /api/groups': ({ body }: { body: unknown }) => ({
        status: 201,
        body: { id: groupId, ...(body as object), memberCount: 0, createdAt: 'x', members: [] },
      }),
      [`PUT /api/groups/${groupId}/members`]: {
        body: { ...groupRow({ id: groupId, name: 'Night shift' }, []), members: [] },
      },
    };
    const app = await renderApp({ path: '/groups', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'New group' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'New group' });
    await app.user.type(within(dialog).getByLabelText(/^Group name/), 'Night shift');
    await app.user.click(within(dialog).getByLabelText('Send documents'));

    const members = inputLabelled(dialog, 'Members');
    await app.user.click(members);
    expect(await app.screen.findByRole('option', { name: /User 000/ })).toBeTruthy();
    expect(app.screen.queryByRole('option', { name: ZED_LABEL })).toBeNull();
    // More match than one page: the field says the list is cut and how to narrow it.
    expect(
      within(dialog).getByText('Only the first 100 matches are listed; type more to narrow the search.'),
    ).toBeTruthy();

    await app.user.type(members, 'zimm');
    await app.user.click(await app.screen.findByRole('option', { name: ZED_LABEL }));
    expect(searches).toContain('zimm');
    // A new search replaces the options; the chosen user keeps their name (not their id) in the field.
    await app.user.clear(members);
    await app.user.type(members, 'User 01');
    expect(await app.screen.findByRole('option', { name: /User 010/ })).toBeTruthy();
    expect(
      within(dialog)
        .getAllByText(ZED_LABEL)
        .some((el) => el.closest('.mantine-Pill-root')),
    ).toBe(true);
    expect(within(dialog).queryByText(ZED.id)).toBeNull();

    await app.user.keyboard('{Escape}');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path.endsWith('/members'))?.body).toEqual({ userIds: [ZED.id] }),
    );
  });

  it('show the names of members that the first page of options does not hold', async () => {
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      'GET /api/company-users': usersApi([]),
      [`GET /api/groups/${GROUP_INBOX.id}`]: {
        body: { ...groupRow(GROUP_INBOX, ['INBOX_READ']), members: [{ ...ZED, status: 'active' }] },
      },
    };
    const app = await renderApp({ path: '/groups', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: `Edit group ${GROUP_INBOX.name}` }));
    const dialog = await app.screen.findByRole('dialog', { name: `Edit group ${GROUP_INBOX.name}` });
    expect((await within(dialog).findAllByText(ZED_LABEL)).some((el) => el.closest('.mantine-Pill-root'))).toBe(true);
    expect(within(dialog).queryByText(ZED.id)).toBeNull();
  });
});
