import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for platform admins, who belong to no company. */
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'restrict' }),
    email: text('email').notNull(),
    /** argon2id; null until an invited user sets a password. */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    telephone: text('telephone'),
    language: text('language').notNull().default('en'),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Additional settings of the profile (file encoding, VAT algorithm, file naming); validated on read. */
    settings: jsonb('settings').$type<Record<string, string>>().notNull().default({}),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // E-mail addresses are unique regardless of case.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_company_idx').on(t.companyId),
  ],
);

/**
 * The document list columns a user chose, per list (inbox, outbox): the visible columns in their order. No row: the
 * defaults. Deleted with the user.
 */
export const userListColumns = pgTable(
  'user_list_columns',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    columns: text('columns').array().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.list] })],
);
