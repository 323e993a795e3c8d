import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../lib/api-client.ts';
import type { Session } from '../app/session/session.ts';

/** What guards and loaders receive from the router. */
export type RouterContext = { session: Session; api: ApiClient; queryClient: QueryClient };
