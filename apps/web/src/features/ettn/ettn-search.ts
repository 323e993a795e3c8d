import { z } from 'zod';
import { ETTN_STATUSES, type EttnStatusCode } from '@portal/contracts';
import { searchText, withoutEmpty } from '../../lib/search-params.ts';

/** A day of the calendar (`2026-11-27`); an emptied field or a day the calendar has not (2026-02-30) is no date. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(v);
  })
  .optional()
  .catch(undefined);

/**
 * The search parameters of /ettn and /ettn/pending: the filters of the server's list (contracts
 * `EttnListQuerySchema`), kept in the address so a filtered list can be shared. Anything unreadable is dropped.
 */
export const EttnSearchSchema = z.object({
  status: z.enum(ETTN_STATUSES).optional().catch(undefined),
  // The router reads `?search=123` as a number: it is the text it was.
  search: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), searchText),
  dateFrom: day,
  dateTo: day,
});

export type EttnSearch = { status?: EttnStatusCode; search?: string; dateFrom?: string; dateTo?: string };

export const validateEttnSearch = (search: Record<string, unknown>): EttnSearch =>
  withoutEmpty(EttnSearchSchema.parse(search) as EttnSearch);

export const activeEttnFilterCount = (search: EttnSearch): number =>
  Object.values(search).filter((value) => value !== undefined).length;

/** Registered notes (`GET /api/ettns`) or the company's uploads not yet sent (`GET /api/ettns/pending`). */
export type EttnListKind = 'registered' | 'pending';
