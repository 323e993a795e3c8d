import { infiniteQueryOptions } from '@tanstack/react-query';
import { ProductsPageSchema, type ProductSort } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const PAGE_SIZE = 25;

export type ProductsFilter = { search: string; sort: ProductSort; order: 'asc' | 'desc' };

export const productsKeys = {
  all: ['products'] as const,
  list: (filter: ProductsFilter) => [...productsKeys.all, 'list', filter] as const,
};

/** Keyset pages of the products: the first asks for the total, each next one passes the previous `nextCursor`. */
export function productsQuery(api: ApiClient, filter: ProductsFilter) {
  return infiniteQueryOptions({
    queryKey: productsKeys.list(filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/products', ProductsPageSchema, {
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
