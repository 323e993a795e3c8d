import { z } from 'zod';
import { DOCUMENT_ADDITIONAL_STATUSES, DocumentListQuerySchema } from './documents.ts';
import { LanguageSchema } from './auth.ts';
import { text } from './rules.ts';
import { DOCUMENT_COLUMNS } from './users.ts';

/**
 * What a user does with documents of the inbox and the outbox (issue 11, part 3): change their statuses, one or many
 * at once, download the originals of a selection as one zip, export a list as CSV or XLSX. Every id goes through the
 * document access scope: one the reader cannot see answers 404 for the whole request, nothing changed.
 */

/**
 * The business statuses of the description (section 4). The store derives `new_order`, `confirmed`, `rejected`,
 * `dispatched`, `invoiced`, `delivered` and `cancellation_requested` from the documents it links (decision 0025),
 * and `confirmed` or `anomaly_reported` from an APERAK answering an outbox document (decision 0034); the others wait
 * for the standards and transports that say them.
 */
export const DOCUMENT_BUSINESS_STATUSES = [
  'new_order',
  'confirmed',
  'rejected',
  'modified_awaiting_validation',
  'modified_awaiting_despatch',
  'suspended_before_dispatch',
  'suspended_after_dispatch',
  'cancellation_requested',
  'cancelled',
  'collection_confirmed',
  'dispatched',
  'sent',
  'delivered',
  'anomaly_reported',
  'partly_invoiced',
  'invoiced',
] as const;
export type DocumentBusinessStatus = (typeof DOCUMENT_BUSINESS_STATUSES)[number];

/** Documents one selection may name (status change, zip, export of a selection). */
export const DOCUMENT_SELECTION_MAX = 200;
/** Original bytes one zip may hold in total (before compression). */
export const DOCUMENT_ZIP_MAX_BYTES = 100 * 1024 * 1024;
/** Rows one export may hold: a filter that matches more is refused, not cut short. */
export const DOCUMENT_EXPORT_MAX_ROWS = 10_000;
export const DOCUMENT_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type DocumentExportFormat = (typeof DOCUMENT_EXPORT_FORMATS)[number];

const IdSchema = z.uuid({ error: 'uuid' });
/** The ids of a selection, each once; in a query string comma-separated or repeated. */
const SelectionSchema = z
  .array(IdSchema)
  .min(1, 'required')
  .max(DOCUMENT_SELECTION_MAX, 'tooBig')
  .transform((ids) => [...new Set(ids)]);

/**
 * `POST /api/documents/status`: `read` (inbox documents only: true marks Received documents Read, false marks Read
 * ones Received again) and/or `additionalStatus` (a value, or null to clear it). A document already so is left as it
 * is, with no history row. INBOX_MODIFY for inbox documents, OUTBOX_MODIFY for outbox ones.
 */
export const DocumentStatusChangeSchema = z
  .object({
    ids: SelectionSchema,
    read: z.boolean({ error: 'boolean' }).optional(),
    additionalStatus: z.enum(DOCUMENT_ADDITIONAL_STATUSES, { error: 'oneOf' }).nullable().optional(),
    reason: text().trim().max(200, 'tooLong').optional(),
  })
  .refine((v) => v.read !== undefined || v.additionalStatus !== undefined, {
    error: 'required',
    path: ['additionalStatus'],
  });
export type DocumentStatusChange = z.input<typeof DocumentStatusChangeSchema>;

/** The documents whose status changed (the others already had it). */
export const DocumentStatusChangeResponseSchema = z.object({ changed: z.array(z.string()) });
export type DocumentStatusChangeResponse = z.infer<typeof DocumentStatusChangeResponseSchema>;

/** `POST /api/documents/zip`: the originals of the selected documents as one zip. */
export const DocumentZipRequestSchema = z.object({ ids: SelectionSchema });
export type DocumentZipRequest = z.input<typeof DocumentZipRequestSchema>;

const commaList = (v: unknown) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v);

/**
 * `GET /api/documents/export?format=csv|xlsx&direction=…&columns=…&<the list's filters>` or `&ids=…`: the list (or
 * the selected documents of it) with these columns in this order, sorted as the list is.
 */
export const DocumentExportQuerySchema = DocumentListQuerySchema.omit({
  cursor: true,
  limit: true,
  includeTotal: true,
}).extend({
  format: z.enum(DOCUMENT_EXPORT_FORMATS, { error: 'oneOf' }),
  columns: z.preprocess(
    commaList,
    z
      .array(z.enum(DOCUMENT_COLUMNS, { error: 'oneOf' }))
      .min(1, 'required')
      .max(DOCUMENT_COLUMNS.length, 'tooBig')
      .refine((columns) => new Set(columns).size === columns.length, 'invalid'),
  ),
  ids: z.preprocess(commaList, SelectionSchema).optional(),
  /** The language of the headers and labels: the screen's; the user's stored one when absent. */
  language: LanguageSchema.optional(),
});
export type DocumentExportQuery = z.infer<typeof DocumentExportQuerySchema>;

/** The kinds of received documents a user answers with an APERAK (accepted, or rejected with a reason). */
export const ANSWERABLE_DOCUMENT_KINDS = [
  'order',
  'order_response',
  'despatch_advice',
  'invoice',
  'credit_note',
  'receiving_advice',
] as const;
/** The longest reason of a rejection: the five lines of 70 characters of one FTX in EANCOM 97's APERAK. */
export const DOCUMENT_RESPONSE_REASON_MAX = 350;
export const DOCUMENT_RESPONSE_DECISIONS = ['accept', 'reject'] as const;
export type DocumentResponseDecision = (typeof DOCUMENT_RESPONSE_DECISIONS)[number];

/**
 * `POST /api/documents/:id/response`: the receiver accepts or rejects an inbox document (INBOX_MODIFY); the portal
 * sends the sender an APERAK. A rejection needs its reason. One answer per document (409 `documents.already_answered`).
 */
export const DocumentResponseSchema = z
  .object({
    decision: z.enum(DOCUMENT_RESPONSE_DECISIONS, { error: 'oneOf' }),
    reason: text().trim().max(DOCUMENT_RESPONSE_REASON_MAX, 'tooLong').optional(),
  })
  .refine((v) => v.decision !== 'reject' || !!v.reason, { error: 'required', path: ['reason'] });
export type DocumentResponse = z.input<typeof DocumentResponseSchema>;

/** The answer stored: the APERAK document of the caller's outbox. */
export const DocumentResponseResultSchema = z.object({
  decision: z.enum(DOCUMENT_RESPONSE_DECISIONS),
  responseDocumentId: z.string().nullable(),
});
export type DocumentResponseResult = z.infer<typeof DocumentResponseResultSchema>;
