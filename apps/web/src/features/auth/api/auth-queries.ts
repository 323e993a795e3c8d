import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../lib/api-client.ts';
import { getPublicConfig, postCheckActionToken } from './auth-api.ts';

export const authKeys = {
  publicConfig: ['public-config'] as const,
  actionToken: (token: string) => ['action-token', token] as const,
};

export function publicConfigQuery(api: ApiClient) {
  return queryOptions({ queryKey: authKeys.publicConfig, queryFn: () => getPublicConfig(api), staleTime: Infinity });
}

/** Checking a one-time link is a POST that changes nothing, so it is a query: cached and not repeated on re-render. */
export function actionTokenQuery(api: ApiClient, token: string) {
  return queryOptions({
    queryKey: authKeys.actionToken(token),
    queryFn: () => postCheckActionToken(api, token),
    staleTime: Infinity,
    gcTime: 0,
  });
}
