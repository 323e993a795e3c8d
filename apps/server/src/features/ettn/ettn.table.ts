import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/**
 * e-TTN (issue 14). Two owners' worth of data in one feature:
 * - `ettn_registry_*`: the storage of the embedded registry SIMULATOR (ettn-registry.simulator.ts), which stands in
 *   for the central registry (ЦБД) whose API is not public: processes, their documents (the note and its acts) and
 *   the documents' transactions with the signed XML, signatures, aliases, subscriptions and events.
 * - `ettn_registered_files` and `ettn_credentials`: the portal's own (uploads not yet sent; each user's demo signer).
 */

/** A party of a note as lists and views show it. */
export type StoredEttnParty = {
  role: string;
  name: string | null;
  edrpou: string | null;
  address: string | null;
  person: string | null;
};

/** A note's process in the registry: one per e-TTN, with the columns its lists filter and sort by. */
export const ettnRegistryProcesses = pgTable(
  'ettn_registry_processes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: text('number'),
    issueDateTime: text('issue_date_time'),
    /** The note's status (NoteStatus of @portal/ettn). */
    status: text('status').notNull(),
    /** The newest note transaction's number (SpecifiedTransactionID). */
    version: integer('version').notNull().default(0),
    parties: jsonb('parties').$type<StoredEttnParty[]>().notNull(),
    /** The parties' EDRPOU codes: a company sees the notes naming one of its aliases. */
    partyIds: text('party_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    vehicle: text('vehicle'),
    routeFrom: text('route_from'),
    routeTo: text('route_to'),
    /** Lower-cased number, party names and codes, for the list's search. */
    searchText: text('search_text').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ettn_registry_processes_party_ids_idx').using('gin', t.partyIds),
    index('ettn_registry_processes_updated_idx').on(t.updatedAt, t.id),
  ],
);

/** A document of a process: the note itself (kind ettn) or one of its acts, with the act's signing route. */
export const ettnRegistryDocuments = pgTable(
  'ettn_registry_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    processId: uuid('process_id')
      .notNull()
      .references(() => ettnRegistryProcesses.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(), // ettn | act
    actType: text('act_type'),
    /** The note's status for the note; the act's (SIGNATURE_PENDING, SIGNED, CANCELED) for an act. */
    status: text('status').notNull(),
    route: text('route')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    signedBy: text('signed_by')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ettn_registry_documents_process_idx').on(t.processId, t.createdAt)],
);

/** A registered transaction (document detail): the signed XML (part BODY) and the registry's facts (part META). */
export const ettnRegistryTransactions = pgTable(
  'ettn_registry_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Registration order across the process's documents (several may share a timestamp). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => ettnRegistryDocuments.id, { onDelete: 'cascade' }),
    processId: uuid('process_id')
      .notNull()
      .references(() => ettnRegistryProcesses.id, { onDelete: 'cascade' }),
    transactionNo: integer('transaction_no').notNull(),
    body: text('body').notNull(),
    meta: text('meta').notNull(),
    /** Process document status: OK once registered, PENDING while the registry has not taken it. */
    status: text('status').notNull(),
    signingRole: text('signing_role').notNull(),
    actorIdentifier: text('actor_identifier').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ettn_registry_transactions_document_no_idx').on(t.documentId, t.transactionNo),
    index('ettn_registry_transactions_process_idx').on(t.processId, t.seq),
  ],
);

/** The signatures of a transaction as the registry verified them. */
export const ettnRegistrySignatures = pgTable(
  'ettn_registry_signatures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => ettnRegistryTransactions.id, { onDelete: 'cascade' }),
    roleCode: text('role_code').notNull(),
    signerName: text('signer_name'),
    signerSerial: text('signer_serial'),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    verified: boolean('verified').notNull(),
    /** demo for the demo signer. */
    signerKind: text('signer_kind').notNull(),
  },
  (t) => [index('ettn_registry_signatures_transaction_idx').on(t.transactionId)],
);

/** A company's alias with the registry (qualifier EDRPOU): which notes it is a party of. */
export const ettnRegistryAliases = pgTable(
  'ettn_registry_aliases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    qualifier: text('qualifier').notNull(),
    value: text('value').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('ettn_registry_aliases_value_idx').on(t.qualifier, t.value),
    index('ettn_registry_aliases_company_idx').on(t.companyId),
  ],
);

/** A company's subscription to the events of the notes naming an alias; ends at `expires_at`. */
export const ettnRegistrySubscriptions = pgTable(
  'ettn_registry_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    aliasQualifier: text('alias_qualifier').notNull(),
    aliasValue: text('alias_value').notNull(),
    startDate: timestamp('start_date', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('ettn_registry_subscriptions_alias_idx').on(t.companyId, t.aliasQualifier, t.aliasValue)],
);

/** An event delivered to a subscribed company: entity, status, timestamp, actor. */
export const ettnRegistryEvents = pgTable(
  'ettn_registry_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    processId: uuid('process_id')
      .notNull()
      .references(() => ettnRegistryProcesses.id, { onDelete: 'cascade' }),
    entityType: text('entity_type').notNull(), // ettn | act
    entityId: uuid('entity_id').notNull(),
    documentId: uuid('document_id').notNull(),
    entityStatus: text('entity_status').notNull(),
    actorIdentifier: text('actor_identifier').notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('ettn_registry_events_company_idx').on(t.companyId, t.id),
    index('ettn_registry_events_process_idx').on(t.processId, t.id),
  ],
);

/** The portal's: an uploaded e-TTN (`registerEttn`) waiting to be signed and sent (the Pending list). */
export const ettnRegisteredFiles = pgTable(
  'ettn_registered_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    fileName: text('file_name').notNull(),
    signingRole: text('signing_role').notNull(),
    xml: text('xml').notNull(),
    /** The list columns read from the XML at upload. */
    summary: jsonb('summary').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull(), // PENDING | SENT
    processId: uuid('process_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ettn_registered_files_company_idx').on(t.companyId, t.status, t.updatedAt, t.id)],
);

/**
 * The portal's: each user's demo signing credential (self-signed ECDSA P-256 certificate and its PKCS#8 key, base64).
 * Kept unencrypted: it is a demo key whose signatures no real registry accepts; a qualified signer keeps its keys
 * outside the portal (a hardware token or a cloud signer), behind the `Signer` interface.
 */
export const ettnCredentials = pgTable('ettn_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  identity: jsonb('identity').$type<{ name: string; organization?: string; rnokpp?: string }>().notNull(),
  certificate: text('certificate').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The portal's: a supporting document (a PDF) attached to a note by one of its parties. The bytes live in the
 * BlobStore (`ettn-supporting/<id>`); the row keeps what lists and the rules need. The simulator has no storage of
 * its own for them: the registry's supporting-document calls are not public, so the portal holds them.
 */
export const ettnSupportingDocuments = pgTable(
  'ettn_supporting_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    processId: uuid('process_id')
      .notNull()
      .references(() => ettnRegistryProcesses.id, { onDelete: 'cascade' }),
    /** The company that attached it (only it may withdraw it). */
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** SUPPORTING_DOCUMENT_TYPES of @portal/ettn. */
    type: text('type').notNull(),
    /** SUPPORTING_DOCUMENT_STATUSES of @portal/ettn. */
    status: text('status').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    blobKey: text('blob_key').notNull(),
    /** The party role it was attached as, and the roles that signed it (the attaching one first). */
    attachedBy: text('attached_by').notNull(),
    signedBy: text('signed_by')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ettn_supporting_documents_process_idx').on(t.processId, t.createdAt)],
);
