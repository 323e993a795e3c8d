import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../../lib/api-client.ts';
import { getPermissions, getUserData } from './user-api.ts';

export const userKeys = {
  all: ['user'] as const,
  data: () => [...userKeys.all, 'data'] as const,
  permissions: () => [...userKeys.all, 'permissions'] as const,
};

export function userDataQuery(api: ApiClient) {
  return queryOptions({ queryKey: userKeys.data(), queryFn: () => getUserData(api), staleTime: 60_000 });
}

export function permissionsQuery(api: ApiClient) {
  return queryOptions({ queryKey: userKeys.permissions(), queryFn: () => getPermissions(api), staleTime: 60_000 });
}
