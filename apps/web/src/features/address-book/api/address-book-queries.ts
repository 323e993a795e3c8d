import { infiniteQueryOptions } from '@tanstack/react-query';
import { AddressBookPageSchema, type AddressBookSort } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const PAGE_SIZE = 25;

export type AddressBookFilter = { search: string; sort: AddressBookSort; order: 'asc' | 'desc' };

export const addressBookKeys = {
  all: ['address-book'] as const,
  list: (filter: AddressBookFilter) => [...addressBookKeys.all, 'list', filter] as const,
};

/** Keyset pages of the address book: the first asks for the total, each next one passes the previous `nextCursor`. */
export function addressBookQuery(api: ApiClient, filter: AddressBookFilter) {
  return infiniteQueryOptions({
    queryKey: addressBookKeys.list(filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/address-book', AddressBookPageSchema, {
        query: {
          limit: PAGE_SIZE,
          cursor: pageParam,
          includeTotal: pageParam === undefined ? 'true' : undefined,
          search: filter.search || undefined,
          sort: filter.sort,
          order: filter.order,
        },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
