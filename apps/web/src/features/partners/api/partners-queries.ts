import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  PartnerDetailSchema,
  PartnerLookupSchema,
  PartnersPageSchema,
  type PartnerSort,
  type PartnerStatus,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const PAGE_SIZE = 25;

/** The list's filters and order, as the address has them. */
export type PartnersFilter = {
  search: string;
  status: PartnerStatus | undefined;
  testMode: boolean | undefined;
  sort: PartnerSort;
  order: 'asc' | 'desc';
};

export const partnersKeys = {
  all: ['partners'] as const,
  lists: () => [...partnersKeys.all, 'list'] as const,
  list: (filter: PartnersFilter) => [...partnersKeys.lists(), filter] as const,
  detail: (id: string) => [...partnersKeys.all, 'detail', id] as const,
  lookup: (gln: string) => [...partnersKeys.all, 'lookup', gln] as const,
};

export function partnersQuery(api: ApiClient, filter: PartnersFilter) {
  return infiniteQueryOptions({
    queryKey: partnersKeys.list(filter),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/partners', PartnersPageSchema, {
        query: {
          limit: PAGE_SIZE,
          cursor: pageParam,
          // The first page asks for the total; the next ones follow the previous `nextCursor`.
          includeTotal: pageParam === undefined ? 'true' : undefined,
          search: filter.search || undefined,
          status: filter.status,
          testMode: filter.testMode === undefined ? undefined : String(filter.testMode),
          sort: filter.sort,
          order: filter.order,
        },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function partnerQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: partnersKeys.detail(id),
    queryFn: ({ signal }) => api.get(`/partners/${encodeURIComponent(id)}`, PartnerDetailSchema, { signal }),
  });
}

/** What adding a GLN would do (the platform company it links to); asked only for a valid GLN. */
export function partnerLookupQuery(api: ApiClient, gln: string) {
  return queryOptions({
    queryKey: partnersKeys.lookup(gln),
    queryFn: ({ signal }) => api.get('/partners/lookup', PartnerLookupSchema, { query: { gln }, signal }),
    staleTime: 30_000,
  });
}
