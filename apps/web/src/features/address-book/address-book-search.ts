import { z } from 'zod';
import { ADDRESS_BOOK_SORTS, type AddressBookSort } from '@portal/contracts';
import { searchText, withoutEmpty } from '../../lib/search-params.ts';
import type { AddressBookFilter } from './api/address-book-queries.ts';

/** Typed search parameters of /address-book (see `lib/search-params.ts`); the default order (name, ascending) is left out. */
export const AddressBookSearchSchema = z.object({
  search: searchText,
  sort: z.enum(ADDRESS_BOOK_SORTS).optional().catch(undefined),
  order: z.enum(['asc', 'desc']).optional().catch(undefined),
});
export type AddressBookSearch = { search?: string; sort?: AddressBookSort; order?: 'asc' | 'desc' };

// An explicit return type keeps the router's types from depending on inference through the route tree.
export const validateAddressBookSearch = (search: Record<string, unknown>): AddressBookSearch =>
  withoutEmpty(AddressBookSearchSchema.parse(search));

/** The list query's filter for a search from the address (the route's loader and the page ask for the same key). */
export const addressBookFilter = (search: AddressBookSearch): AddressBookFilter => ({
  search: search.search ?? '',
  sort: search.sort ?? 'name',
  order: search.order ?? 'asc',
});
