import { infiniteQueryOptions } from '@tanstack/react-query';
import { ApiKeyPageSchema } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const PAGE_SIZE = 50;

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

/** The company's API keys, newest first, revoked ones included, in keyset pages. */
export function apiKeysQuery(api: ApiClient) {
  return infiniteQueryOptions({
    queryKey: apiKeyKeys.list(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/company/api-keys', ApiKeyPageSchema, { query: { limit: PAGE_SIZE, cursor: pageParam }, signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
