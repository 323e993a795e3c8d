import { z } from 'zod';
import { USER_STATUSES, type UserStatus } from '@portal/contracts';
import { searchText, withoutEmpty } from '../../lib/search-params.ts';
import type { UsersFilter } from './api/user-management-queries.ts';

/** Typed search parameters of /users, /groups and /restrictions (see `lib/search-params.ts`). */
export const UsersSearchSchema = z.object({
  search: searchText,
  status: z.enum(USER_STATUSES).optional().catch(undefined),
});
export type UsersSearch = { search?: string; status?: UserStatus };

export const NameSearchSchema = z.object({ search: searchText });
export type NameSearch = { search?: string };

// `validateSearch` of each list: parse, leave out empty values. Explicit return types keep the router's types
// from depending on inference through the route tree.
type RawSearch = Record<string, unknown>;
export const validateUsersSearch = (search: RawSearch): UsersSearch => withoutEmpty(UsersSearchSchema.parse(search));
export const validateNameSearch = (search: RawSearch): NameSearch => withoutEmpty(NameSearchSchema.parse(search));

/** The users query's filter for a search from the address (the route's loader and the page ask for the same key). */
export const usersFilter = (search: UsersSearch): UsersFilter => ({
  search: search.search ?? '',
  status: search.status,
});
