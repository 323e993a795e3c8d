import { z } from 'zod';
import { IncludeTotalSchema, ListQuerySchema, pageSchema } from './lists.ts';
import { LANGUAGES } from './constants.ts';
import { FILE_ENCODINGS } from './profile.ts';
import { text } from './rules.ts';

/**
 * Documents (the documents issue builds on this): the business document types and the directions of the exchange.
 * Restrictions name them today; the document access scope and the documents themselves use the same codes.
 */

/** EDIFACT message types by their UNH name; KSeF invoices and e-TTN by their own. */
export const DOCUMENT_TYPE_CODES = [
  'ORDERS',
  'ORDRSP',
  'DESADV',
  'INVOIC',
  'RECADV',
  'PRICAT',
  'APERAK',
  'KSEF_INVOICE',
  'ETTN',
] as const;
export type DocumentTypeCode = (typeof DOCUMENT_TYPE_CODES)[number];
export const DocumentTypeCodeSchema = z.enum(DOCUMENT_TYPE_CODES, { error: 'oneOf' });

/** `in`: received by the company (its inbox); `out`: sent by it (its outbox). */
export const DOCUMENT_DIRECTIONS = ['in', 'out'] as const;
export type DocumentDirection = (typeof DOCUMENT_DIRECTIONS)[number];

/**
 * The document store and its lists (issue 11, parts 1 to 3): statuses, the upload's answer, the inbox and outbox
 * list with every filter of the description (section 3), and the document's detail.
 */

/** A file of an upload holds at most this many bytes. */
export const DOCUMENT_UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
/** Files one upload may carry. */
export const DOCUMENT_UPLOAD_MAX_FILES = 20;
/** Findings kept per document and returned per file. */
export const DOCUMENT_MAX_FINDINGS = 200;

/**
 * The status labels of the lists (description, section 4): `received` (an inbox copy nobody of the company opened
 * yet), `read`, `sent` (an outbox copy delivered), `error` (the message has errors, or could not be delivered), and
 * `waiting` (an outbox copy whose recipient is not on the platform: it waits for a transport).
 */
export const DOCUMENT_STATUSES = ['received', 'read', 'sent', 'error', 'waiting'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Process document status (description, section 4). */
/** What a CONTRL said of an outbox document's interchange (decision 0035). */
export const DOCUMENT_ACKNOWLEDGEMENTS = ['acknowledged', 'rejected'] as const;
export type DocumentAcknowledgement = (typeof DOCUMENT_ACKNOWLEDGEMENTS)[number];
export const DOCUMENT_PROCESSING_STATUSES = ['OK', 'PENDING'] as const;
export type DocumentProcessingStatus = (typeof DOCUMENT_PROCESSING_STATUSES)[number];

/** Additional statuses (description, section 4). */
export const DOCUMENT_ADDITIONAL_STATUSES = [
  'cancelled',
  'partially_completed',
  'completed',
  'printed',
  'enriched',
] as const;
export type DocumentAdditionalStatus = (typeof DOCUMENT_ADDITIONAL_STATUSES)[number];

/** The business kinds (the list's "document type", filter `businessTypeIds`); the same list as the canonical body's. */
export const DOCUMENT_KIND_CODES = [
  'order',
  'order_response',
  'despatch_advice',
  'invoice',
  'credit_note',
  'receiving_advice',
  'price_catalogue',
  'application_error',
  'syntax_report',
  'other',
] as const;
export type DocumentKindCode = (typeof DOCUMENT_KIND_CODES)[number];

/** `edifact`: uploaded or routed UN/EDIFACT; `ksef`: FA(3) invoices received from KSeF. */
export const DOCUMENT_STANDARDS = ['edifact', 'ksef'] as const;

/** Sorts of the document list; `timestamp` is the platform's (WebDocumentTimeStamp). */
export const DOCUMENT_SORTS = [
  'timestamp',
  'number',
  'referenceNumber',
  'documentType',
  'partnerName',
  'deliveryPointGln',
  'expectedDeliveryDate',
  'businessDate',
  'status',
] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];

const DirectionSchema = z.enum(DOCUMENT_DIRECTIONS, { error: 'oneOf' });
const short = text().trim().max(70, 'tooLong');
/** A query parameter that is a list: repeated (`a=1&a=2`) or comma-separated (`a=1,2`). */
const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(item).max(50, 'tooBig'));
const IsoDaySchema = text()
  .max(10, { error: 'date', abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date')
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'date',
  );
/** A partner filter entry: a partner id or the GLN of a partner off the platform. */
const PartnerRefSchema = text()
  .trim()
  .max(36, { error: 'partner', abort: true })
  .regex(/^(\d{8,14}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, 'partner');

export const UploadDocumentsQuerySchema = z.object({ direction: DirectionSchema });

/** One document an upload created (or, for a duplicate, found). */
export const UploadedDocumentSchema = z.object({
  id: z.string(),
  direction: z.enum(DOCUMENT_DIRECTIONS),
  documentType: z.string(),
  documentNumber: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES),
  partnerName: z.string().nullable(),
});

/** A validation finding of the EDIFACT engine, as stored with a document and answered per file. */
export const DocumentFindingSchema = z.object({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  level: z.string(),
  path: z.string(),
  line: z.number(),
  column: z.number(),
  messageReference: z.string().optional(),
  documentNumber: z.string().optional(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type DocumentFinding = z.infer<typeof DocumentFindingSchema>;

/**
 * The answer for one file: `queued` when the file was larger than the server ingests while the upload waits (its
 * documents appear in the lists once the ingest job has run); `duplicate` when the same interchange (sender and
 * control reference) was uploaded before: nothing new is stored and `documents` are the first upload's.
 */
export const UploadFileResultSchema = z.object({
  fileName: z.string(),
  interchangeId: z.string(),
  duplicate: z.boolean(),
  queued: z.boolean(),
  documents: z.array(UploadedDocumentSchema),
  findings: z.array(DocumentFindingSchema),
});
export type UploadFileResult = z.infer<typeof UploadFileResultSchema>;
export const UploadDocumentsResponseSchema = z.object({ files: z.array(UploadFileResultSchema) });
export type UploadDocumentsResponse = z.infer<typeof UploadDocumentsResponseSchema>;

/** The inbox and outbox list: paging, sort and every search filter field of the description (section 3). */
export const DocumentListQuerySchema = ListQuerySchema.extend({
  direction: DirectionSchema,
  includeTotal: IncludeTotalSchema,
  sort: z.enum(DOCUMENT_SORTS, { error: 'oneOf' }).default('timestamp'),
  order: z.enum(['asc', 'desc'], { error: 'oneOf' }).default('desc'),
  /** Prefix of the document number. */
  documentNumber: short.optional(),
  /** Prefix of the reference number. */
  documentReferenceNumber: short.optional(),
  businessTypeIds: listOf(z.enum(DOCUMENT_KIND_CODES, { error: 'oneOf' })).optional(),
  documentFunctionCode: short.optional(),
  messageType: short.optional(),
  messageCategory: short.optional(),
  partnerIds: listOf(PartnerRefSchema).optional(),
  processingDateFrom: IsoDaySchema.optional(),
  processingDateTo: IsoDaySchema.optional(),
  documentDateFrom: IsoDaySchema.optional(),
  documentDateTo: IsoDaySchema.optional(),
  expectedDeliveryDateFrom: IsoDaySchema.optional(),
  expectedDeliveryDateTo: IsoDaySchema.optional(),
  deliveryPointGln: short.optional(),
  documentStatus: listOf(z.enum(DOCUMENT_STATUSES, { error: 'oneOf' })).optional(),
  documentAdditionalStatus: listOf(z.enum(DOCUMENT_ADDITIONAL_STATUSES, { error: 'oneOf' })).optional(),
  standard: z.enum(DOCUMENT_STANDARDS, { error: 'oneOf' }).optional(),
  version: short.optional(),
  mode: z.enum(['test', 'production'], { error: 'oneOf' }).optional(),
  buyerTaxId: short.optional(),
  sellerTaxId: short.optional(),
});
export type DocumentListQuery = z.infer<typeof DocumentListQuerySchema>;

/** A row of the list: the description's seventeen columns and what the screen needs beside them. */
export const DocumentListItemSchema = z.object({
  id: z.string(),
  direction: z.enum(DOCUMENT_DIRECTIONS),
  documentNumber: z.string().nullable(),
  documentReferenceNumber: z.string().nullable(),
  /** The invoice's number in KSeF: an outbox invoice KSeF accepted, or an invoice received from KSeF; else null. */
  ksefNumber: z.string().nullable(),
  /** The business kind (`DOCUMENT_KIND_CODES`). */
  documentKind: z.string(),
  /** The message type restrictions name (`DOCUMENT_TYPE_CODES`, or the standard's own type for others). */
  documentType: z.string(),
  functionCode: z.string().nullable(),
  messageType: z.string(),
  messageCategory: z.string().nullable(),
  partnerId: z.string().nullable(),
  partnerGln: z.string().nullable(),
  partnerName: z.string().nullable(),
  deliveryPointName: z.string().nullable(),
  deliveryPointGln: z.string().nullable(),
  expectedDeliveryDate: z.string().nullable(),
  businessDate: z.string().nullable(),
  /** WebDocumentTimeStamp: when the platform stored this copy. */
  timestamp: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  processingStatus: z.enum(DOCUMENT_PROCESSING_STATUSES),
  businessStatus: z.string().nullable(),
  additionalStatus: z.enum(DOCUMENT_ADDITIONAL_STATUSES).nullable(),
  standard: z.enum(DOCUMENT_STANDARDS),
  version: z.string(),
  test: z.boolean(),
});
export type DocumentListItem = z.infer<typeof DocumentListItemSchema>;
export const DocumentPageSchema = pageSchema(DocumentListItemSchema);
export type DocumentPage = z.infer<typeof DocumentPageSchema>;

export const DocumentHistoryEntrySchema = z.object({
  field: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  userId: z.string().nullable(),
  at: z.string(),
  reason: z.string().nullable(),
});

export const DocumentLinkSchema = z.object({
  /** The other document (another copy of this one, or one of its chain), when the reader may see it. */
  documentId: z.string(),
  kind: z.string(),
  /** `from`: this document points at the other; `to`: the other points at this one. */
  side: z.enum(['from', 'to']),
});

/**
 * `GET /api/documents/:id/chain`: the documents the document's references connect it with in the reader's company
 * (its order, responses, despatch advices, invoices…), each with its statuses, in the order they reached the platform.
 */
export const DocumentChainSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      documentType: z.string(),
      number: z.string().nullable(),
      direction: z.enum(DOCUMENT_DIRECTIONS),
      status: z.string(),
      businessStatus: z.string().nullable(),
      additionalStatus: z.string().nullable(),
      businessDate: z.string().nullable(),
      timestamp: z.string(),
    }),
  ),
});
export type DocumentChain = z.infer<typeof DocumentChainSchema>;

/** The document view: its row, the canonical body (decision 0018), findings, status history and links. */
export const DocumentDetailSchema = DocumentListItemSchema.extend({
  buyerTaxId: z.string().nullable(),
  sellerTaxId: z.string().nullable(),
  interchangeId: z.string(),
  /**
   * An outbox document's CONTRL result (decision 0035): `acknowledged` (UNCL 0083 7), `rejected` (4, rejected by
   * syntax), null before a CONTRL arrives (and always for inbox documents). The server always sends it; optional so
   * that a client's fixtures written before it still type.
   */
  acknowledgement: z.enum(DOCUMENT_ACKNOWLEDGEMENTS).nullable().optional(),
  body: z.record(z.string(), z.unknown()),
  findings: z.array(DocumentFindingSchema),
  history: z.array(DocumentHistoryEntrySchema),
  links: z.array(DocumentLinkSchema),
});
export type DocumentDetail = z.infer<typeof DocumentDetailSchema>;

/**
 * The names of a document's codes and of its segments' elements, from the UN/EDIFACT directory of its version
 * (`GET /api/documents/:id/codes`, decision 0026). `directory` is null when that directory is not imported: the codes
 * are then shown without names.
 */
export const DocumentCodesSchema = z.object({
  directory: z.string().nullable(),
  /** Data element id (`1001`, `2005`, `3035`…) → code → its name in the directory's code list (UNCL). */
  codeNames: z.record(z.string(), z.record(z.string(), z.string())),
  /** Segment tag → its name and its elements' names in order (components of a composite in `components`). */
  segments: z.record(
    z.string(),
    z.object({
      name: z.string(),
      elements: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          components: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
        }),
      ),
    }),
  ),
});
export type DocumentCodes = z.infer<typeof DocumentCodesSchema>;

/**
 * Downloading the original: in the user's saved encoding (the profile's additional settings) unless `encoding`
 * names another; `original` keeps the bytes as received.
 */
export const DocumentOriginalQuerySchema = z.object({
  encoding: z.enum([...FILE_ENCODINGS, 'original'], { error: 'oneOf' }).optional(),
});
export type DocumentOriginalQuery = z.infer<typeof DocumentOriginalQuerySchema>;

/** The PDF of a document: in `language` (the reader's, else the user's), for a download or for printing. */
export const DocumentPdfQuerySchema = z.object({
  language: z.enum(LANGUAGES, { error: 'oneOf' }).optional(),
  purpose: z.enum(['download', 'print'], { error: 'oneOf' }).default('download'),
});
export type DocumentPdfQuery = z.infer<typeof DocumentPdfQuerySchema>;
