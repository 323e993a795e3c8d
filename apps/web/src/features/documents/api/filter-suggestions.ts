import { queryOptions } from '@tanstack/react-query';
import { AddressBookPageSchema, CompanyLocationPageSchema } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

/** Suggestions one search shows, from each source. */
export const SUGGESTIONS_LIMIT = 25;

/** A place a document can be delivered to: its GLN and the name to show beside it. */
export type GlnSuggestion = { gln: string; name: string };

export const filterSuggestionKeys = {
  all: ['documents', 'filter-suggestions'] as const,
  locations: (search: string) => [...filterSuggestionKeys.all, 'company-locations', search] as const,
  addressBook: (search: string) => [...filterSuggestionKeys.all, 'address-book', search] as const,
};

// Suggestions are a help, not the filter: a refusal (no permission, no company) shows no toast, only no suggestions.
const QUIET = [403, 404] as const;

/** The caller's company's GLNs and delivery points matching the search (name, GLN, code, address). */
export function companyLocationSuggestions(api: ApiClient, search: string) {
  return queryOptions({
    queryKey: filterSuggestionKeys.locations(search),
    queryFn: async ({ signal }): Promise<GlnSuggestion[]> => {
      const page = await api.get('/company/locations', CompanyLocationPageSchema, {
        query: { limit: SUGGESTIONS_LIMIT, search: search || undefined },
        quietStatuses: QUIET,
        signal,
      });
      return page.items.map((location) => ({ gln: location.gln, name: location.name }));
    },
    staleTime: 30_000,
  });
}

/** Address book entries with a GLN matching the search (name, displayed name, GLN, tax ID, city). */
export function addressBookSuggestions(api: ApiClient, search: string) {
  return queryOptions({
    queryKey: filterSuggestionKeys.addressBook(search),
    queryFn: async ({ signal }): Promise<GlnSuggestion[]> => {
      const page = await api.get('/address-book', AddressBookPageSchema, {
        query: { limit: SUGGESTIONS_LIMIT, search: search || undefined },
        quietStatuses: QUIET,
        signal,
      });
      return page.items.flatMap((entry) =>
        entry.gln ? [{ gln: entry.gln, name: entry.displayedName || entry.name }] : [],
      );
    },
    staleTime: 30_000,
  });
}
