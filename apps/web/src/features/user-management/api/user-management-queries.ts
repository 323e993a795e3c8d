import { infiniteQueryOptions, queryOptions, type QueryKey } from '@tanstack/react-query';
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
  userOptions: (search: string) => [...userManagementKeys.users(), 'options', search] as const,
  groups: () => [...userManagementKeys.all, 'groups'] as const,
  groupList: (search: string) => [...userManagementKeys.groups(), 'list', search] as const,
  groupOptions: (search: string) => [...userManagementKeys.groups(), 'options', search] as const,
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
      api.get('/company-users', CompanyUsersPageSchema, {
        query: { ...pageQuery(pageParam), search: filter.search || undefined, status: filter.status },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function groupsQuery(api: ApiClient, search: string) {
  return infiniteQueryOptions({
    queryKey: userManagementKeys.groupList(search),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/groups', GroupsPageSchema, {
        query: { ...pageQuery(pageParam), search: search || undefined },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function restrictionsQuery(api: ApiClient, search: string) {
  return infiniteQueryOptions({
    queryKey: userManagementKeys.restrictionList(search),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/restrictions', RestrictionsPageSchema, {
        query: { ...pageQuery(pageParam), search: search || undefined },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function groupDetailQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: userManagementKeys.group(id),
    queryFn: () => api.get(`/groups/${encodeURIComponent(id)}`, GroupDetailSchema),
  });
}

/** What a picker offers for a search: up to a page of matches, and whether more match than it shows. */
export type PickerOptions = { options: { value: string; label: string }[]; hasMore: boolean };

export const userOptionLabel = (user: { firstName: string; lastName: string; email: string }) =>
  `${user.firstName} ${user.lastName} <${user.email}>`;

/** Where a picker's options come from: a cache key and a server search, one page of up to 100 matches by name. */
export type PickerSource = {
  key: (search: string) => QueryKey;
  fetch: (api: ApiClient, search: string, signal: AbortSignal) => Promise<PickerOptions>;
};

/** The company's users for pickers (members, assignees), searched over names and e-mail. */
export const userPicker: PickerSource = {
  key: userManagementKeys.userOptions,
  fetch: (api, search, signal) =>
    api
      .get('/company-users', CompanyUsersPageSchema, {
        query: { limit: LIST_LIMIT_MAX, search: search || undefined },
        signal,
      })
      .then((page) => ({
        options: page.items.map((u) => ({ value: u.id, label: userOptionLabel(u) })),
        hasMore: page.nextCursor !== null,
      })),
};

/** The company's groups for pickers, searched over names. */
export const groupPicker: PickerSource = {
  key: userManagementKeys.groupOptions,
  fetch: (api, search, signal) =>
    api
      .get('/groups', GroupsPageSchema, { query: { limit: LIST_LIMIT_MAX, search: search || undefined }, signal })
      .then((page) => ({
        options: page.items.map((g) => ({ value: g.id, label: g.name })),
        hasMore: page.nextCursor !== null,
      })),
};
