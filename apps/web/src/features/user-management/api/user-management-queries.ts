import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  CompanyUsersPageSchema,
  GroupDetailSchema,
  GroupsPageSchema,
  LIST_LIMIT_MAX,
  RestrictionsPageSchema,
  type UserStatus,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const PAGE_SIZE = 25;

export type UsersFilter = { search: string; status: UserStatus | undefined };

export const userManagementKeys = {
  all: ['user-management'] as const,
  users: () => [...userManagementKeys.all, 'users'] as const,
  userList: (filter: UsersFilter) => [...userManagementKeys.users(), 'list', filter] as const,
  userOptions: () => [...userManagementKeys.users(), 'options'] as const,
  groups: () => [...userManagementKeys.all, 'groups'] as const,
  groupList: (search: string) => [...userManagementKeys.groups(), 'list', search] as const,
  groupOptions: () => [...userManagementKeys.groups(), 'options'] as const,
  group: (id: string) => [...userManagementKeys.groups(), 'detail', id] as const,
  restrictions: () => [...userManagementKeys.all, 'restrictions'] as const,
  restrictionList: (search: string) => [...userManagementKeys.restrictions(), 'list', search] as const,
};

/** Keyset pages: the first asks for the total, each next one passes the previous `nextCursor`. */
const pageQuery = (cursor: string | undefined) => ({
  limit: PAGE_SIZE,
  cursor,
  includeTotal: cursor === undefined ? 'true' : undefined,
});

export function companyUsersQuery(api: ApiClient, filter: UsersFilter) {
  return infiniteQueryOptions({
    queryKey: userManagementKeys.userList(filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api
        .get<unknown>('/company-users', {
          query: { ...pageQuery(pageParam), search: filter.search || undefined, status: filter.status },
          signal,
        })
        .then((r) => CompanyUsersPageSchema.parse(r)),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function groupsQuery(api: ApiClient, search: string) {
  return infiniteQueryOptions({
    queryKey: userManagementKeys.groupList(search),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api
        .get<unknown>('/groups', { query: { ...pageQuery(pageParam), search: search || undefined }, signal })
        .then((r) => GroupsPageSchema.parse(r)),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function restrictionsQuery(api: ApiClient, search: string) {
  return infiniteQueryOptions({
    queryKey: userManagementKeys.restrictionList(search),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api
        .get<unknown>('/restrictions', { query: { ...pageQuery(pageParam), search: search || undefined }, signal })
        .then((r) => RestrictionsPageSchema.parse(r)),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function groupDetailQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: userManagementKeys.group(id),
    queryFn: () => api.get<unknown>(`/groups/${encodeURIComponent(id)}`).then((r) => GroupDetailSchema.parse(r)),
  });
}

/** The company's users for pickers (members, assignees): the first 100 by name. */
export function userOptionsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: userManagementKeys.userOptions(),
    queryFn: () =>
      api.get<unknown>('/company-users', { query: { limit: LIST_LIMIT_MAX } }).then((r) => CompanyUsersPageSchema.parse(r).items),
  });
}

/** The company's groups for pickers: the first 100 by name. */
export function groupOptionsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: userManagementKeys.groupOptions(),
    queryFn: () => api.get<unknown>('/groups', { query: { limit: LIST_LIMIT_MAX } }).then((r) => GroupsPageSchema.parse(r).items),
  });
}
