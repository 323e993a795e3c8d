import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyApiKeys } from '../api-keys/api-keys.table.ts';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/**
 * An interchange as it arrived (UNB to UNZ), kept for audit and to recognise a duplicate: the same sender and control
 * reference uploaded again to the same company and direction. Its bytes are a blob (`payload_key`); each message of it
 * becomes one document per company that holds a copy.
 */
export const interchanges = pgTable(
  'interchanges',
  {
    id: uuid('id').primaryKey(),
    /** The company that uploaded it (the sender for `out`, the receiver for `in`). */
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    direction: text('direction').notNull(),
    senderId: text('sender_id').notNull(),
    senderQualifier: text('sender_qualifier'),
    recipientId: text('recipient_id').notNull(),
    recipientQualifier: text('recipient_qualifier'),
    controlReference: text('control_reference').notNull(),
    /** UNB S001, e.g. `UNOC:3`. */
    syntax: text('syntax').notNull(),
    /** SHA-256 of the bytes as received, hex. */
    contentSha256: text('content_sha256').notNull(),
    payloadKey: text('payload_key').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The demo login session (refresh-token family) it belongs to, or null for every real interchange: a demo
     * session's interchanges and their documents are seen by that session alone and deleted when it ends (issue 11,
     * part 5; decision 0027).
     */
    sessionId: uuid('session_id'),
    /** The company API key it came with (`POST /api/documents/inbound`, decision 0023); then `uploaded_by` is null. */
    apiKeyId: uuid('api_key_id').references(() => companyApiKeys.id, { onDelete: 'set null' }),
    /** `queued` until the ingest ran, then `done`; `failed` when its content could not be read at all. */
    state: text('state').notNull().default('queued'),
    /** Findings outside any message (the envelope's), capped. */
    findings: jsonb('findings').$type<unknown[]>().notNull().default([]),
    /** Messages read from it (once `done`). */
    messageCount: integer('message_count'),
    /**
     * The ingest's progress marker: messages 0 to messages_done - 1 are stored, written in the transaction of each
     * batch (decision 0024), so a run after a crash goes on from there.
     */
    messagesDone: integer('messages_done').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    index('interchanges_first_unb_idx').on(t.companyId, t.direction, t.senderId, t.controlReference),
    index('interchanges_session_idx')
      .on(t.sessionId)
      .where(sql`${t.sessionId} is not null`),
    check('interchanges_direction_check', sql`${t.direction} in ('in', 'out')`),
    check('interchanges_state_check', sql`${t.state} in ('queued', 'done', 'failed')`),
  ],
);

/**
 * Every interchange (UNB) of an uploaded file, by (company, direction, sender, control reference), held by the upload
 * that brought it first: the duplicate check of each interchange in a file, not only the first (decision 0024).
 */
export const interchangeKeys = pgTable(
  'interchange_keys',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    direction: text('direction').notNull(),
    senderId: text('sender_id').notNull(),
    controlReference: text('control_reference').notNull(),
    interchangeId: uuid('interchange_id')
      .notNull()
      .references(() => interchanges.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('interchange_keys_key').on(t.companyId, t.direction, t.senderId, t.controlReference),
    index('interchange_keys_interchange_idx').on(t.interchangeId),
  ],
);

/**
 * One business message owned by one company in one direction (a message between two companies on the platform is
 * two rows: the sender's outbox copy and the receiver's inbox copy, linked). The columns the document access scope
 * reads (`DocumentScopeColumns`) are company_id, direction, document_type, partner_id, partner_gln and
 * delivery_point_gln.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    direction: text('direction').notNull(),
    interchangeId: uuid('interchange_id')
      .notNull()
      .references(() => interchanges.id, { onDelete: 'cascade' }),
    /** The message's place in its interchange (0-based): with the interchange and the copy, what makes a retry idempotent. */
    messageIndex: integer('message_index').notNull(),
    /** The business kind of the canonical body (order, invoice, …, other). */
    kind: text('kind').notNull(),
    /** The type restrictions name: a `DOCUMENT_TYPE_CODES` value, or the standard's own message type for others. */
    documentType: text('document_type').notNull(),
    number: text('number'),
    referenceNumber: text('reference_number'),
    /**
     * The invoice's number in KSeF, for the lists' KSeF number column: an outbox invoice's once KSeF accepted it (the
     * ksef feature records it through the documents service), a received KSeF invoice's from its arrival (it is also
     * its reference number, decision 0039); null for any other document.
     */
    ksefNumber: text('ksef_number'),
    /** UNCL 1225 message function code. */
    functionCode: text('function_code'),
    /** UNCL 1001 document name code. */
    documentNameCode: text('document_name_code'),
    messageType: text('message_type').notNull(),
    /** The implementation guide (UNH 0057, e.g. EAN008). */
    messageCategory: text('message_category'),
    standard: text('standard').notNull(),
    /** The directory, e.g. D96A. */
    version: text('version').notNull(),
    test: boolean('test').notNull().default(false),
    partnerId: uuid('partner_id'),
    partnerGln: text('partner_gln'),
    /** The partner's name when the document was stored (the partners feature owns the current one). */
    partnerName: text('partner_name'),
    deliveryPointName: text('delivery_point_name'),
    deliveryPointGln: text('delivery_point_gln'),
    buyerGln: text('buyer_gln'),
    supplierGln: text('supplier_gln'),
    buyerTaxId: text('buyer_tax_id'),
    sellerTaxId: text('seller_tax_id'),
    expectedDeliveryDate: date('expected_delivery_date'),
    businessDate: date('business_date'),
    /** WebDocumentTimeStamp: when the platform stored this copy. */
    platformTimestamp: timestamp('platform_timestamp', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').notNull(),
    processingStatus: text('processing_status').notNull().default('OK'),
    businessStatus: text('business_status'),
    additionalStatus: text('additional_status'),
    /** The canonical body (decision 0018). */
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    findings: jsonb('findings').$type<unknown[]>().notNull().default([]),
    /** The message's bytes inside the interchange's blob: UNH to UNT, terminator included. */
    payloadOffset: integer('payload_offset').notNull(),
    payloadLength: integer('payload_length').notNull(),
    /** The other company's copy of the same message (outbox ↔ inbox), when the platform routed it. */
    linkedCopyId: uuid('linked_copy_id'),
    /** Its interchange's demo session (see `interchanges.session_id`); null for every real document. */
    sessionId: uuid('session_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('documents_message_copy_key').on(t.interchangeId, t.messageIndex, t.companyId, t.direction),
    // The lists (decision 0028). Every real reader's query says `session_id is null` (the access scope, decision
    // 0027), so the list's indexes are partial on it: a demo session's rows are never in them, and a count can be an
    // index-only scan. Each equality filter has its own index ending in the list's order (platform timestamp, id),
    // so its first page is an ordered index scan that stops after one page, however rare or common the value.
    index('documents_list_idx')
      .on(t.companyId, t.direction, t.platformTimestamp.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.sessionId} is null`),
    // The count of a list without filters (`includeTotal`): every (company, direction) key is the same, so the index
    // deduplicates to a tenth of the list's index, and an index-only count reads that much less.
    index('documents_count_idx')
      .on(t.companyId, t.direction)
      .where(sql`${t.sessionId} is null`),
    // A demo session's own documents (decision 0027).
    index('documents_session_idx')
      .on(t.sessionId, t.direction, t.platformTimestamp.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.sessionId} is not null`),
    // Not partial: the ingest looks numbers up for the chain and the duplicate warning in any session. The list's
    // order and the session after the number: a prefix search finds its page's ids in the index alone (index-only),
    // however many documents share the prefix, and reads only the page's rows from the table (decision 0028).
    index('documents_number_idx').on(
      t.companyId,
      t.direction,
      t.number.op('text_pattern_ops'),
      t.platformTimestamp,
      t.id,
      t.sessionId,
    ),
    index('documents_reference_idx')
      .on(t.companyId, t.direction, t.referenceNumber.op('text_pattern_ops'), t.platformTimestamp, t.id)
      .where(sql`${t.sessionId} is null and ${t.referenceNumber} is not null`),
    // The partner's, with the status and the date after the order: a partner filter combined with them (the usual
    // "this partner's unread of last month") checks both in the index and reads only the page's rows from the table.
    index('documents_partner_idx')
      .on(
        t.companyId,
        t.direction,
        t.partnerId,
        t.platformTimestamp.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.status,
        t.businessDate,
      )
      .where(sql`${t.sessionId} is null`),
    // Columns that most documents leave empty (an additional status is set later, an order names no tax ids) are
    // sparse: every filter on them is an equality or a list, which PostgreSQL knows excludes null, so their indexes
    // hold only the documents that have a value, and an ingest writes no entry for the rest (decision 0028).
    ...(
      [
        ['documents_type_idx', t.documentType, false],
        ['documents_kind_idx', t.kind, false],
        ['documents_status_idx', t.status, false],
        ['documents_additional_status_idx', t.additionalStatus, true],
        ['documents_delivery_point_idx', t.deliveryPointGln, true],
        ['documents_buyer_tax_idx', t.buyerTaxId, true],
        ['documents_seller_tax_idx', t.sellerTaxId, true],
      ] as const
    ).map(([name, column, sparse]) =>
      index(name)
        .on(t.companyId, t.direction, column, t.platformTimestamp.desc().nullsFirst(), t.id.desc().nullsFirst())
        .where(sparse ? sql`${t.sessionId} is null and ${column} is not null` : sql`${t.sessionId} is null`),
    ),
    // A range of dates is sorted by the list's order from the index alone (index-only), and only its page is read
    // from the table (decision 0028).
    index('documents_business_date_order_idx')
      .on(t.companyId, t.direction, t.businessDate, t.platformTimestamp, t.id)
      .where(sql`${t.sessionId} is null`),
    index('documents_delivery_date_order_idx')
      .on(t.companyId, t.direction, t.expectedDeliveryDate, t.platformTimestamp, t.id)
      .where(sql`${t.sessionId} is null`),
    check('documents_direction_check', sql`${t.direction} in ('in', 'out')`),
    check('documents_status_check', sql`${t.status} in ('received', 'read', 'sent', 'error', 'waiting')`),
  ],
);

/** Append-only: every change of a document's status fields, with who, when and why. */
export const documentStatusHistory = pgTable(
  'document_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    field: text('field').notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    reason: text('reason'),
  },
  (t) => [index('document_status_history_document_idx').on(t.documentId, t.id)],
);

/** Links between documents: `copy` (outbox ↔ inbox copy), and the chain (order → response → … ) as it comes. */
export const documentLinks = pgTable(
  'document_links',
  {
    fromId: uuid('from_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    toId: uuid('to_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('document_links_key').on(t.fromId, t.toId, t.kind), index('document_links_to_idx').on(t.toId)],
);
