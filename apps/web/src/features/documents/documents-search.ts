import { z } from 'zod';
import {
  DOCUMENT_ADDITIONAL_STATUSES,
  DOCUMENT_KIND_CODES,
  DOCUMENT_SORTS,
  DOCUMENT_STANDARDS,
  DOCUMENT_STATUSES,
  type DocumentAdditionalStatus,
  type DocumentKindCode,
  type DocumentSort,
  type DocumentStatus,
} from '@portal/contracts';
import { withoutEmpty } from '../../lib/search-params.ts';

/**
 * The search parameters of /documents/in and /documents/out: every filter the server's list takes (contracts
 * `DocumentListQuerySchema`), kept in the address so a search can be bookmarked and shared. Anything unreadable is
 * dropped rather than failing the page.
 */
/**
 * The router reads a value that looks like JSON as JSON: a GLN or a number written by hand in a link arrives as a
 * number. It is the text it was (only a safe integer: a longer one has lost its digits already).
 */
const asText = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v);
const text70 = z.preprocess(asText, z.string().trim().max(70).optional()).catch(undefined);
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  // A field left empty, or a day the calendar has not (2026-02-30), is no date: never an exception.
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(v);
  })
  .optional()
  .catch(undefined);
/** A list in the address: `a,b` (what the page writes) or repeated; unknown entries are left out. */
const listOf = <T extends string>(values: readonly T[]) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(',') : Array.isArray(v) ? v : undefined),
      z.array(z.string()).optional(),
    )
    .transform((v) => {
      const known = (v ?? []).flatMap((item) => values.filter((value) => value === item));
      return known.length ? [...new Set(known)] : undefined;
    })
    .catch(undefined);
const glnList = z
  .preprocess((v) => {
    const value = asText(v);
    return typeof value === 'string' ? value.split(',') : value;
  }, z.array(z.string()).optional())
  .transform((v) => {
    const glns = (v ?? []).map((s) => s.trim()).filter((s) => /^\d{8,14}$/.test(s));
    return glns.length ? [...new Set(glns)].slice(0, 50) : undefined;
  })
  .catch(undefined);

export const DOCUMENT_TEXT_FILTERS = [
  'documentNumber',
  'documentReferenceNumber',
  'documentFunctionCode',
  'messageType',
  'messageCategory',
  'deliveryPointGln',
  'version',
  'buyerTaxId',
  'sellerTaxId',
] as const;
export const DOCUMENT_DATE_FILTERS = [
  'processingDateFrom',
  'processingDateTo',
  'documentDateFrom',
  'documentDateTo',
  'expectedDeliveryDateFrom',
  'expectedDeliveryDateTo',
] as const;
/** The date filters in pairs: each range is one picker, writing `<range>From` and `<range>To`. */
export const DOCUMENT_DATE_RANGES = ['processingDate', 'documentDate', 'expectedDeliveryDate'] as const;
export type DocumentDateRange = (typeof DOCUMENT_DATE_RANGES)[number];
type TextFilter = (typeof DOCUMENT_TEXT_FILTERS)[number];
type DateFilter = (typeof DOCUMENT_DATE_FILTERS)[number];

export const DocumentsSearchSchema = z.object({
  ...Object.fromEntries(DOCUMENT_TEXT_FILTERS.map((k) => [k, text70])),
  ...Object.fromEntries(DOCUMENT_DATE_FILTERS.map((k) => [k, day])),
  businessTypeIds: listOf(DOCUMENT_KIND_CODES),
  partnerIds: glnList,
  documentStatus: listOf(DOCUMENT_STATUSES),
  documentAdditionalStatus: listOf(DOCUMENT_ADDITIONAL_STATUSES),
  standard: z.enum(DOCUMENT_STANDARDS).optional().catch(undefined),
  mode: z.enum(['test', 'production']).optional().catch(undefined),
  sort: z.enum(DOCUMENT_SORTS).optional().catch(undefined),
  order: z.enum(['asc', 'desc']).optional().catch(undefined),
});

export type DocumentsSearch = { [K in TextFilter | DateFilter]?: string } & {
  businessTypeIds?: DocumentKindCode[];
  partnerIds?: string[];
  documentStatus?: DocumentStatus[];
  documentAdditionalStatus?: DocumentAdditionalStatus[];
  standard?: (typeof DOCUMENT_STANDARDS)[number];
  mode?: 'test' | 'production';
  sort?: DocumentSort;
  order?: 'asc' | 'desc';
};

export const validateDocumentsSearch = (search: Record<string, unknown>): DocumentsSearch =>
  withoutEmpty(DocumentsSearchSchema.parse(search) as DocumentsSearch);

/** How many filters a search sets (sort and order are not filters). */
export function activeFilterCount(search: DocumentsSearch): number {
  return Object.entries(search).filter(([key, value]) => key !== 'sort' && key !== 'order' && value !== undefined)
    .length;
}

/** The list query's parameters for a search: lists comma-separated, as the server reads them. */
export function documentsQueryParams(search: DocumentsSearch): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined) continue;
    params[key] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return params;
}
