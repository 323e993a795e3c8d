import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { DEFAULT_DOCUMENT_COLUMNS } from '@portal/contracts';
import { AppProviders } from '../app/providers.tsx';
import { createServices } from '../app/services.ts';
import { SESSION_STORAGE_KEY, type StoredSession } from '../app/session/session.ts';
import { createAppRouter } from '../routes/router.tsx';
import { createFetchMock, type MockHandler, type MockReply } from './fetch-mock.ts';

export type RenderAppOptions = {
  path: string;
  routes?: Record<string, MockHandler | MockReply>;
  session?: StoredSession;
};

/** Renders the whole app (providers, real route tree and guards) at a path, with a fake API. */
export async function renderApp({ path, routes = {}, session }: RenderAppOptions) {
  if (session) window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  // Answers every signed-in page needs; a test overrides them through `routes`.
  const api = createFetchMock({
    'POST /api/users/logout': { body: { success: true } },
    'GET /api/users/permissions': { body: { permissions: [], toggles: [] } },
    // The main layout asks once whether the payment reminder is due (days 14..24 of the month).
    'GET /api/users/paymentReminder': { body: { due: false } },
    // A role ettn user's layout checks once whether an alias or subscription expires soon: none does.
    'POST /api/ettns/aliasRegistrationGet': { body: { aliases: [], subscriptions: [], expiresSoon: null } },
    // The inbox, where a signed-in user lands: empty, with the default columns.
    'GET /api/documents': { body: { items: [], nextCursor: null, total: 0 } },
    'POST /api/users/getColumns': ({ body }) => ({
      body: { list: (body as { list: string }).list, columns: [...DEFAULT_DOCUMENT_COLUMNS], saved: false },
    }),
    ...routes,
  });
  const onErrorToast = vi.fn();
  const services = createServices({
    fetch: api.fetch,
    storage: window.localStorage,
    now: () => Date.now(),
    onErrorToast,
  });
  const history = createMemoryHistory({ initialEntries: [path] });
  const router = createAppRouter(services, history);
  const user = userEvent.setup();
  const result = render(
    <AppProviders services={services} dir="ltr" env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  await router.load();
  return { ...result, router, services, api, user, onErrorToast, screen };
}

/** The current path and search of the router, e.g. `/login?returnUrl=%2Fdocuments%2Fin`. */
export function currentHref(router: { state: { location: { href: string } } }): string {
  return router.state.location.href;
}
