import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  useRouter,
} from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers.tsx';
import { createServices } from '../../../app/services.ts';
import { createFetchMock } from '../../../test/fetch-mock.ts';
import { makeAccessToken } from '../../../test/tokens.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { SESSION_STORAGE_KEY } from '../../../app/session/session.ts';
import { UnsavedChangesProvider, useUnsavedChanges, useUnsavedChangesContext } from './unsaved-changes.tsx';

function EditPage() {
  const [dirty, setDirty] = useState(false);
  useUnsavedChanges(dirty);
  const unsaved = useUnsavedChangesContext();
  const session = useSession();
  const router = useRouter();
  return (
    <>
      <p>Edit page</p>
      <button onClick={() => setDirty(true)}>Type something</button>
      <button onClick={() => setDirty(false)}>Save</button>
      <button onClick={() => router.history.push('/other')}>Go elsewhere</button>
      <button
        onClick={() =>
          void unsaved.confirmLeave({ always: true }).then((leave) => {
            if (leave) session.logout('user');
          })
        }
      >
        Log me out
      </button>
    </>
  );
}

function setup() {
  const now = Math.floor(Date.now() / 1000);
  window.localStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({
      accessToken: makeAccessToken({ exp: now + 300 }),
      refreshToken: 'r',
      refreshExpiresAt: now + 1800,
    }),
  );
  const api = createFetchMock({ 'POST /api/users/logout': { body: { success: true } } });
  const services = createServices({
    fetch: api.fetch,
    storage: window.localStorage,
    now: () => Date.now(),
    onErrorToast: vi.fn(),
  });
  const root = createRootRoute({
    component: () => (
      <UnsavedChangesProvider>
        <Outlet />
      </UnsavedChangesProvider>
    ),
  });
  const edit = createRoute({ getParentRoute: () => root, path: '/', component: EditPage });
  const other = createRoute({ getParentRoute: () => root, path: '/other', component: () => <p>Other page</p> });
  const router = createRouter({
    routeTree: root.addChildren([edit, other]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(
    <AppProviders services={services} dir="ltr" env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, services, user: userEvent.setup() };
}

describe('unsaved changes', () => {
  it('lets the user leave freely while nothing is unsaved', async () => {
    const { router, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Go elsewhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
  });

  it("asks 'Unsaved changes' with Stay and Leave before leaving a page with unsaved changes", async () => {
    const { router, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Type something' }));
    await user.click(screen.getByRole('button', { name: 'Go elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(dialog.textContent).toContain('Your changes will not be saved. Do you want to leave this site?');
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/');

    await user.click(screen.getByRole('button', { name: 'Go elsewhere' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
  });

  it('asks before logout, with or without unsaved changes; Stay keeps the session, Leave ends it', async () => {
    const { services, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Log me out' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }),
    );
    expect(services.session.getState().status).toBe('authenticated');
    await user.click(screen.getByRole('button', { name: 'Type something' }));
    await user.click(screen.getByRole('button', { name: 'Log me out' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Stay' }),
    );
    expect(services.session.getState().status).toBe('authenticated');
    await user.click(screen.getByRole('button', { name: 'Log me out' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() => expect(services.session.getState().status).toBe('anonymous'));
  });

  it('does not ask before leaving the page once the changes are saved', async () => {
    const { router, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Type something' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(screen.getByRole('button', { name: 'Go elsewhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/other'));
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
  });
});
