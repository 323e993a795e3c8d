import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import {
  ALL_PERMISSIONS,
  companyUser,
  GROUP_INBOX,
  signedIn,
  userManagementRoutes,
} from './user-management-test-data.ts';
import { inputLabelled } from '../../../test/queries.ts';

describe('users page', () => {
  it('sends a user without USERS_READ to the start page', async () => {
    const app = await renderApp({ path: '/users', session: signedIn(), routes: userManagementRoutes(['INBOX_READ']) });
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
  });

  it('lists users read-only without USERS_MODIFY', async () => {
    const app = await renderApp({ path: '/users', session: signedIn(), routes: userManagementRoutes(['USERS_READ']) });
    const row = await app.screen.findByTestId('user-row-uma@demo.example.com');
    expect(within(row).getByText('Uma User')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    expect(within(row).getByText('Administrators')).toBeTruthy();
    expect(app.screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
    expect(within(row).queryByRole('button', { name: /Actions for/ })).toBeNull();
  });

  it('pages with "load more" and shows status badges', async () => {
    const routes = {
      ...userManagementRoutes(['USERS_READ']),
      'GET /api/company-users': ({ url }: { url: string }) => {
        const cursor = new URL(url, 'http://x').searchParams.get('cursor');
        return cursor
          ? {
              body: {
                items: [
                  companyUser({
                    id: 'b',
                    email: 'dan@demo.example.com',
                    firstName: 'Dan',
                    status: 'disabled',
                    groups: [],
                  }),
                ],
                nextCursor: null,
              },
            }
          : { body: { items: [companyUser({ status: 'invited', lastLoginAt: null })], nextCursor: 'c2', total: 2 } };
      },
    };
    const app = await renderApp({ path: '/users', session: signedIn(), routes });
    expect(within(await app.screen.findByTestId('user-row-uma@demo.example.com')).getByText('Invited')).toBeTruthy();
    expect(app.screen.getByText('Showing 1 of 2')).toBeTruthy();
    await app.user.click(app.screen.getByRole('button', { name: 'Load more' }));
    expect(
      within(await app.screen.findByTestId('user-row-dan@demo.example.com')).getByText('Deactivated'),
    ).toBeTruthy();
    expect(app.screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(app.api.calls.filter((c) => c.path === '/api/company-users')).toHaveLength(2);
  });

  it('shows only the empty text for an empty list, without "Showing 0 of 0"', async () => {
    const routes = {
      ...userManagementRoutes(['USERS_READ']),
      'GET /api/company-users': { body: { items: [], nextCursor: null, total: 0 } },
    };
    const app = await renderApp({ path: '/users', session: signedIn(), routes });
    expect(await app.screen.findByText('No users yet. Invite your colleagues by e-mail.')).toBeTruthy();
    expect(app.screen.queryByText(/Showing/)).toBeNull();
    expect(app.screen.queryByTestId('list-count')).toBeNull();
  });

  it('invites a user by e-mail with language and groups', async () => {
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      'POST /api/company-users/invite': ({ body }: { body: unknown }) => ({
        status: 201,
        body: {
          ...companyUser({ id: 'n', email: (body as { email: string }).email, status: 'invited' }),
          restrictions: [],
        },
      }),
    };
    const app = await renderApp({ path: '/users', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'Invite user' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Invite a user' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(within(dialog).getAllByText('This field is required').length).toBe(3);
    await app.user.type(within(dialog).getByLabelText(/^E-mail/), 'new@demo.example.com');
    await app.user.type(within(dialog).getByLabelText(/^First name/), 'Nina');
    await app.user.type(within(dialog).getByLabelText(/^Last name/), 'New');
    await app.user.click(inputLabelled(dialog, 'Groups'));
    await app.user.click(await app.screen.findByRole('option', { name: GROUP_INBOX.name }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path === '/api/company-users/invite')?.body).toEqual({
        email: 'new@demo.example.com',
        firstName: 'Nina',
        lastName: 'New',
        language: 'en',
        groupIds: [GROUP_INBOX.id],
      }),
    );
    expect(await app.screen.findByText('An invitation was sent to new@demo.example.com.')).toBeTruthy();
  });

  it('says so when the e-mail is taken', async () => {
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      'POST /api/company-users/invite': {
        status: 409,
        body: {
          error: { code: 'users.email_taken', message: 'x', details: [{ field: 'email', code: 'emailTaken' }] },
          requestId: 'r',
        },
      },
    };
    const app = await renderApp({ path: '/users', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'Invite user' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Invite a user' });
    await app.user.type(within(dialog).getByLabelText(/^E-mail/), 'uma@demo.example.com');
    await app.user.type(within(dialog).getByLabelText(/^First name/), 'Uma');
    await app.user.type(within(dialog).getByLabelText(/^Last name/), 'User');
    await app.user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('A user with this e-mail address already exists')).toBeTruthy();
  });

  it('deactivates after confirmation and shows the refusal for oneself', async () => {
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      'POST /api/company-users/33333333-3333-4333-8333-333333333333/deactivate': {
        status: 409,
        body: { error: { code: 'user_management.cannot_deactivate_self', message: 'x' }, requestId: 'r' },
      },
    };
    const app = await renderApp({ path: '/users', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'Actions for Uma User' }));
    await app.user.click(await app.screen.findByRole('menuitem', { name: 'Deactivate' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Deactivate user' });
    // Named by the theme's default, not by each dialog.
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await app.screen.findByText('You cannot deactivate your own account.')).toBeTruthy();
  });
});
