import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documents } from '../documents/documents.table.ts';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/**
 * A company's KSeF connection (issue 13, part 3). The token and the private key are sealed with the secrets key
 * (`lib/secret-box.ts`, decision 0037) and never leave the server; the certificate itself is public.
 */
export const ksefSettings = pgTable('ksef_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  nip: text('nip').notNull(),
  /** simulator, test, demo, production or custom (then `base_url`). */
  environment: text('environment').notNull(),
  baseUrl: text('base_url'),
  /** token or certificate. */
  authMethod: text('auth_method').notNull(),
  tokenSealed: text('token_sealed'),
  certificatePem: text('certificate_pem'),
  privateKeySealed: text('private_key_sealed'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  /**
   * Receiving (the `ksef.receive` job): the permanent-storage date the next export of purchase invoices (Subject2)
   * starts from, KSeF's `permanentStorageHwmDate` of the last package (NOTES §9); null before the first run.
   */
  receiveHwm: timestamp('receive_hwm', { withTimezone: true }),
  /** When the last receiving run finished. */
  receivedAt: timestamp('received_at', { withTimezone: true }),
});

/**
 * One outbox invoice's way to KSeF (issue 13, part 3): written with its `ksef.send` job in the ingest's transaction,
 * then moved by the job. `element_reference` is kept as soon as KSeF took the invoice, so a run after a crash reads
 * its status instead of sending it again.
 */
export const ksefSubmissions = pgTable(
  'ksef_submissions',
  {
    documentId: uuid('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** queued, sending, accepted, rejected (KSeF or our own check refused it: not retried), failed (gave up). */
    state: text('state').notNull(),
    sessionReference: text('session_reference'),
    elementReference: text('element_reference'),
    /** The authentication or KSeF token reference the invoice was sent under (never a secret). */
    tokenReference: text('token_reference'),
    invoiceHash: text('invoice_hash'),
    ksefNumber: text('ksef_number'),
    acquisitionDate: timestamp('acquisition_date', { withTimezone: true }),
    upo: text('upo'),
    errorCode: integer('error_code'),
    errorDetails: jsonb('error_details').$type<string[]>(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ksef_submissions_company_idx').on(t.companyId, t.createdAt)],
);
