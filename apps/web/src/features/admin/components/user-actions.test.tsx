import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IMPERSONATOR_SESSION_STORAGE_KEY, SESSION_STORAGE_KEY } from '../../../app/session/session.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeTokenSet } from '../../../test/tokens.ts';
import { adminSession, adminUser } from '../admin-test-data.ts';

const emptyPage = { body: { items: [], nextCursor: null } };

describe('impersonation from the users list', () => {
  it("keeps the admin's stored session, switches to the user's tokens and opens their inbox", async () => {
    const admin = adminSession();
    const target = adminUser();
    const tokens = makeTokenSet(
      {
        sub: target.id,
        email: target.email,
        roles: ['developer'],
        impersonator: { username: 'admin@demo.example.com' },
      },
      'refresh-impersonated',
    );
    const { user, screen, router, api } = await renderApp({
      path: '/admin/users',
      session: admin,
      routes: {
        'GET /api/admin/users': {
          body: {
            items: [
              target,
              adminUser({
                id: 'a1',
                email: 'admin@demo.example.com',
                roles: ['admin'],
                companyId: null,
                companyName: null,
              }),
            ],
            nextCursor: null,
          },
        },
        'GET /api/admin/companies': emptyPage,
        'POST /api/admin/impersonate': { body: { success: true, keycloakResponse: { token: tokens } } },
      },
    });

    await screen.findByRole('button', { name: 'Impersonate Uma User' });
    const rows = screen.getAllByTestId('user-row');
    // Admins cannot be impersonated: no button on their row.
    expect(within(rows[1]!).queryByRole('button', { name: /Impersonate/ })).toBeNull();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Impersonate Uma User' }));
    expect(await screen.findByText('Work as this user?')).toBeTruthy();
    await user.click(screen.getByTestId('impersonate-confirm'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/documents/in'));
    expect(api.calls.find((c) => c.path === '/api/admin/impersonate')?.body).toEqual({ userId: target.id });
    expect(JSON.parse(window.localStorage.getItem(IMPERSONATOR_SESSION_STORAGE_KEY) ?? 'null')).toEqual(admin);
    const stored = JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as {
      accessToken?: string;
      refreshToken?: string;
    };
    expect(stored.accessToken).toBe(tokens.access_token);
    expect(stored.refreshToken).toBe('refresh-impersonated');
  });

  it('explains a refusal and keeps the admin signed in as themselves', async () => {
    const admin = adminSession();
    const { user, screen, router } = await renderApp({
      path: '/admin/users',
      session: admin,
      routes: {
        'GET /api/admin/users': { body: { items: [adminUser()], nextCursor: null } },
        'GET /api/admin/companies': emptyPage,
        'POST /api/admin/impersonate': {
          status: 409,
          body: {
            error: { code: 'admin.impersonation_refused', message: 'no', data: { reason: 'disabled' } },
            requestId: 'r',
          },
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Impersonate Uma User' }));
    await user.click(screen.getByTestId('impersonate-confirm'));
    expect((await screen.findByTestId('impersonate-error')).textContent).toBe('Disabled users cannot be impersonated.');
    expect(router.state.location.pathname).toBe('/admin/users');
    expect(window.localStorage.getItem(IMPERSONATOR_SESSION_STORAGE_KEY)).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toEqual(admin);
  });
});
