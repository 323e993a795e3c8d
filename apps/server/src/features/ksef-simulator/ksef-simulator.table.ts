/**
 * The embedded KSeF simulator's storage (issue 13 §2). Only `ksef-simulator.repository.ts` queries these tables.
 * It is a simulator: its private keys and the session keys are kept in plain text here, nothing is encrypted at rest.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea } from '../../db/columns.ts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The simulator's key pairs and certificates (`KsefTokenEncryption`, `SymmetricKeyEncryption`, `UpoSigning`) and its secret. */
export const ksefSimKeys = pgTable('ksef_sim_keys', {
  name: text('name').primaryKey(),
  privateKeyPem: text('private_key_pem').notNull(),
  certificateDer: bytea('certificate_der'),
  publicKeyId: text('public_key_id'),
  validFrom: ts('valid_from').notNull(),
  validTo: ts('valid_to').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** `POST /auth/challenge`: valid 10 minutes, used once. */
export const ksefSimChallenges = pgTable(
  'ksef_sim_challenges',
  {
    challenge: text('challenge').primaryKey(),
    timestampMs: bigint('timestamp_ms', { mode: 'number' }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('ksef_sim_challenges_expires_idx').on(t.expiresAt)],
);

export type KsefSimStatus = { code: number; description: string; details?: string[] };

/** An authentication operation (`…-AU-…`): its outcome, visible from `decidedAt`, then its tokens. */
export const ksefSimAuthentications = pgTable(
  'ksef_sim_authentications',
  {
    referenceNumber: text('reference_number').primaryKey(),
    contextType: text('context_type').notNull(),
    contextValue: text('context_value').notNull(),
    /** AuthenticationMethod of the API: Token, QualifiedSeal, … */
    method: text('method').notNull(),
    /** The NIP or the fingerprint of the certificate; the token's author for a token login. */
    subjectType: text('subject_type').notNull(),
    subjectValue: text('subject_value').notNull(),
    tokenReference: text('token_reference'),
    /** SHA-256 (Base64) of the signed AuthTokenRequest, for the UPO. */
    documentHash: text('document_hash'),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    status: jsonb('status').$type<KsefSimStatus>().notNull(),
    startedAt: ts('started_at').notNull(),
    decidedAt: ts('decided_at').notNull(),
    redeemedAt: ts('redeemed_at'),
    refreshValidUntil: ts('refresh_valid_until'),
    lastRefreshAt: ts('last_refresh_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('ksef_sim_authentications_context_idx').on(t.contextType, t.contextValue, t.startedAt)],
);

/** KSeF tokens made by `POST /tokens`; the secret itself is kept only as its SHA-256. */
export const ksefSimTokens = pgTable(
  'ksef_sim_tokens',
  {
    referenceNumber: text('reference_number').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    contextType: text('context_type').notNull(),
    contextValue: text('context_value').notNull(),
    authorType: text('author_type').notNull(),
    authorValue: text('author_value').notNull(),
    description: text('description').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    createdAt: ts('created_at').notNull(),
    /** Pending until then, Active afterwards. */
    activeAt: ts('active_at').notNull(),
    revokedAt: ts('revoked_at'),
    lastUseAt: ts('last_use_at'),
  },
  (t) => [
    uniqueIndex('ksef_sim_tokens_hash_idx').on(t.tokenHash),
    index('ksef_sim_tokens_context_idx').on(t.contextType, t.contextValue, t.createdAt),
  ],
);

/** Online and batch sessions; the AES key and IV unwrapped at opening (plain: a simulator). */
export const ksefSimSessions = pgTable(
  'ksef_sim_sessions',
  {
    referenceNumber: text('reference_number').primaryKey(),
    kind: text('kind').notNull(), // Online | Batch
    contextType: text('context_type').notNull(),
    contextValue: text('context_value').notNull(),
    authReference: text('auth_reference').notNull(),
    tokenReference: text('token_reference'),
    authDocumentHash: text('auth_document_hash'),
    formCode: jsonb('form_code').$type<{ systemCode: string; schemaVersion: string; value: string }>().notNull(),
    symmetricKey: bytea('symmetric_key'),
    iv: bytea('iv'),
    /** 100 open, or 415 when the key could not be unwrapped; 170/200 follow from `closedAt`/`processedAt`. */
    statusCode: integer('status_code').notNull(),
    invoiceCount: integer('invoice_count').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    validUntil: ts('valid_until').notNull(),
    closedAt: ts('closed_at'),
    processedAt: ts('processed_at'),
    /** A batch session's declared file and parts, and which parts have arrived. */
    batch: jsonb('batch').$type<unknown>(),
  },
  (t) => [index('ksef_sim_sessions_context_idx').on(t.contextType, t.contextValue, t.createdAt)],
);

/**
 * Invoices sent in a session. Each is checked when it arrives; its outcome is shown in stages (100, 150, then final)
 * from `processingAt` and `decidedAt`, so a restart loses nothing and no timer is needed.
 */
export const ksefSimInvoices = pgTable(
  'ksef_sim_invoices',
  {
    referenceNumber: text('reference_number').primaryKey(),
    sessionReference: text('session_reference').notNull(),
    ordinalNumber: integer('ordinal_number').notNull(),
    invoiceHash: text('invoice_hash').notNull(),
    invoiceFileName: text('invoice_file_name'),
    invoicingMode: text('invoicing_mode').notNull(),
    status: jsonb('status').$type<KsefSimStatus & { extensions?: Record<string, string> }>().notNull(),
    receivedAt: ts('received_at').notNull(),
    processingAt: ts('processing_at').notNull(),
    decidedAt: ts('decided_at').notNull(),
    ksefNumber: text('ksef_number'),
    sellerNip: text('seller_nip'),
    buyerNip: text('buyer_nip'),
    invoiceType: text('invoice_type'),
    invoiceNumber: text('invoice_number'),
    issueDate: text('issue_date'),
    /** The InvoiceMetadata fields not held in columns (names, amounts, currency, …). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    plainXml: text('plain_xml'),
    accepted: boolean('accepted').notNull(),
  },
  (t) => [
    index('ksef_sim_invoices_session_idx').on(t.sessionReference, t.ordinalNumber),
    uniqueIndex('ksef_sim_invoices_ksef_number_idx').on(t.ksefNumber),
    // The duplicate rule (seller NIP, RodzajFaktury, P_2) among accepted invoices: a race loses to this index.
    uniqueIndex('ksef_sim_invoices_duplicate_idx')
      .on(t.sellerNip, t.invoiceType, t.invoiceNumber)
      .where(sql`accepted`),
    index('ksef_sim_invoices_buyer_idx').on(t.buyerNip, t.decidedAt),
    index('ksef_sim_invoices_seller_idx').on(t.sellerNip, t.decidedAt),
  ],
);

/** Exports (`…-EH-…`): the encrypted package, made at once, shown from `readyAt`. */
export const ksefSimExports = pgTable('ksef_sim_exports', {
  referenceNumber: text('reference_number').primaryKey(),
  contextType: text('context_type').notNull(),
  contextValue: text('context_value').notNull(),
  createdAt: ts('created_at').notNull(),
  readyAt: ts('ready_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
  status: jsonb('status').$type<KsefSimStatus>().notNull(),
  /** InvoicePackage without the part URLs (they are signed when the status is read). */
  package: jsonb('package').$type<Record<string, unknown>>(),
  content: bytea('content'),
});
