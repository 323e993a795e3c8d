import { QueryClient } from '@tanstack/react-query';
import { createApiClient, type ApiClient } from '../lib/api-client.ts';
import type { ApiError } from '../lib/api-error.ts';
import { postLogout, postRefreshToken } from '../features/auth/index.ts';
import { createSession, type Session } from './session/session.ts';

export type Services = { session: Session; api: ApiClient; queryClient: QueryClient };

export type ServicesDeps = {
  fetch: typeof fetch;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  now: () => number;
  onErrorToast: (error: ApiError) => void;
};

/** Wires the session, the API client and the query cache; tests pass a fake fetch and storage. */
export function createServices(deps: ServicesDeps): Services {
  const session = createSession({
    storage: deps.storage,
    now: deps.now,
    requestRefresh: (refreshToken) => postRefreshToken(deps.fetch, refreshToken),
    requestLogout: (refreshToken) => postLogout(deps.fetch, refreshToken),
  });
  const api = createApiClient({ fetch: deps.fetch, session, onErrorToast: deps.onErrorToast });
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  session.onLogout(() => queryClient.clear());
  return { session, api, queryClient };
}
