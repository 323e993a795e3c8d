import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';

/** One recipient of a partner's notifications (the partners contract checks it before it is stored). */
export type PartnerNotificationRow = { email: string; language: string; events: string[] };

/**
 * A company's trading partners: one row per (company, GLN). `linked_company_id` names the partner when it is a company
 * on the platform; `name` is then a copy of that company's name, refreshed whenever the partner is touched, for search
 * and sort (what the API shows is read from the companies service).
 */
export const partners = pgTable(
  'partners',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gln: text('gln').notNull(),
    linkedCompanyId: uuid('linked_company_id').references(() => companies.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    vatId: text('vat_id'),
    country: text('country'),
    contactName: text('contact_name'),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    status: text('status').notNull().default('active'),
    testMode: boolean('test_mode').notNull().default(false),
    /** What is sent to this partner (issue 12): the EANCOM directory (D96A: EANCOM 97, D01B: EANCOM 2002). */
    edifactDirectory: text('edifact_directory').notNull().default('D96A'),
    /** UNB S001 0001, the character repertoire the partner reads: UNOC (Latin-1) by default; UNOD for Polish letters. */
    syntaxIdentifier: text('syntax_identifier').notNull().default('UNOC'),
    /** Whether the partner wants the UNA service string advice before UNB. */
    una: boolean('una').notNull().default(false),
    docTypesIn: text('doc_types_in')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    docTypesOut: text('doc_types_out')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** At most PARTNER_NOTIFICATIONS_MAX recipients; a small list read and written whole, so no table of its own. */
    notifications: jsonb('notifications').$type<PartnerNotificationRow[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastExchangeAt: timestamp('last_exchange_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('partners_company_gln_key').on(t.companyId, t.gln),
    index('partners_company_name_idx').on(t.companyId, sql`lower(${t.name})`, t.id),
    index('partners_linked_company_idx').on(t.linkedCompanyId),
    check('partners_status_check', sql`${t.status} in ('active', 'new', 'blocked')`),
    check('partners_edifact_directory_check', sql`${t.edifactDirectory} in ('D96A', 'D01B')`),
    check('partners_syntax_identifier_check', sql`${t.syntaxIdentifier} in ('UNOA', 'UNOB', 'UNOC', 'UNOD')`),
  ],
);
