import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgSequence, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/**
 * A document being written in the browser (issue 12): the form's values as the user left them, saved as they work,
 * listed in the outbox as drafts until sent. Sending writes an EANCOM interchange and stores it through the outbox
 * upload, so a sent draft becomes an ordinary outbox document (`sent_document_id`); the draft row stays, `sent`, as
 * what makes a second send of it (a double click, a retry) answer with the first one (decision 0033).
 */
export const documentDrafts = pgTable(
  'document_drafts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The business kind the form writes (order, order_response, despatch_advice, invoice, credit_note, receiving_advice). */
    kind: text('kind').notNull(),
    /** The partner it is addressed to (the partners feature's row of this company), once chosen. */
    partnerId: uuid('partner_id'),
    /** The form's values (the contracts' `DraftForm`), as typed. */
    form: jsonb('form').$type<Record<string, unknown>>().notNull(),
    /** The received or sent document it answers (turnaround), when made from one. */
    sourceDocumentId: uuid('source_document_id'),
    /** `draft` while it is edited; `sent` once its interchange is stored. */
    state: text('state').notNull().default('draft'),
    /** Bumped by every save: a save of an older version is refused (two tabs never overwrite each other silently). */
    version: integer('version').notNull().default(1),
    /** UNB 0020 of its interchange, taken at the first send and kept, so a retry writes the same interchange. */
    controlReference: text('control_reference'),
    sentDocumentId: uuid('sent_document_id'),
    /** The demo login session it belongs to (decision 0027); null for every real draft. */
    sessionId: uuid('session_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('document_drafts_company_idx').on(t.companyId, t.state, t.updatedAt.desc(), t.id.desc()),
    index('document_drafts_source_idx')
      .on(t.sourceDocumentId)
      .where(sql`${t.sourceDocumentId} is not null`),
    check('document_drafts_state_check', sql`${t.state} in ('draft', 'sent')`),
  ],
);

/** The interchange control references of sent drafts: one platform-wide counter, so a reference never repeats. */
export const interchangeControlSequence = pgSequence('interchange_control_seq', { startWith: 1000, minValue: 1 });
