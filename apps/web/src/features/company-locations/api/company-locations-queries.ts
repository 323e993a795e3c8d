import { infiniteQueryOptions } from '@tanstack/react-query';
import { CompanyLocationPageSchema } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const PAGE_SIZE = 50;

/**
 * Where a company's locations live in the API: `/company/locations` (the caller's company) or
 * `/admin/companies/<id>/locations` (the admin area).
 */
export type LocationsPath = string;

export const companyLocationKeys = {
  all: ['company-locations'] as const,
  list: (path: LocationsPath) => [...companyLocationKeys.all, path] as const,
};

/** Keyset pages: company GLNs first, then delivery points, each by GLN; the first page asks for the total. */
export function companyLocationsQuery(api: ApiClient, path: LocationsPath) {
  return infiniteQueryOptions({
    queryKey: companyLocationKeys.list(path),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get(path, CompanyLocationPageSchema, {
        query: { limit: PAGE_SIZE, cursor: pageParam, includeTotal: pageParam === undefined ? 'true' : undefined },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
