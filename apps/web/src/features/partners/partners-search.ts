import { z } from 'zod';
import { PARTNER_SORTS, PARTNER_STATUSES, type PartnerSort, type PartnerStatus } from '@portal/contracts';
import { searchText, withoutEmpty } from '../../lib/search-params.ts';
import type { PartnersFilter } from './api/partners-queries.ts';

/** Typed search parameters of /partners (see `lib/search-params.ts`): anything unreadable is dropped. */
const PartnersSearchSchema = z.object({
  search: searchText,
  status: z.enum(PARTNER_STATUSES).optional().catch(undefined),
  testMode: z.boolean().optional().catch(undefined),
  sort: z.enum(PARTNER_SORTS).optional().catch(undefined),
  order: z.enum(['asc', 'desc']).optional().catch(undefined),
});
export type PartnersSearch = {
  search?: string;
  status?: PartnerStatus;
  testMode?: boolean;
  sort?: PartnerSort;
  order?: 'asc' | 'desc';
};

export const validatePartnersSearch = (search: Record<string, unknown>): PartnersSearch =>
  withoutEmpty(PartnersSearchSchema.parse(search));

/** The list query's filter for a search from the address (the route's loader and the page ask for the same key). */
export const partnersFilter = (search: PartnersSearch): PartnersFilter => ({
  search: search.search ?? '',
  status: search.status,
  testMode: search.testMode,
  sort: search.sort ?? 'name',
  order: search.order ?? 'asc',
});
