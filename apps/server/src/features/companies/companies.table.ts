import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The tenant. Status fields are the description's VindicationInfo; toggles are its "extra toggles". */
export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  vatId: text('vat_id'),
  taxId: text('tax_id'),
  country: text('country'),
  /** Remaining company profile fields (description, section 3), edited on the profile's company panel. */
  profile: jsonb('profile').$type<Record<string, string | null>>().notNull().default({}),
  loginStatus: text('login_status').notNull().default('OK'),
  restrictionWaitTime: integer('restriction_wait_time'),
  restrictionWorkingTime: integer('restriction_working_time'),
  restrictionWorkingStart: timestamp('restriction_working_start', { withTimezone: true }),
  restrictionMessage: text('restriction_message'),
  toggles: text('toggles')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  overduePayment: boolean('overdue_payment').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
