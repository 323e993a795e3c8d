import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/**
 * A company's API keys for machines (`POST /api/documents/inbound`, decision 0023). The secret itself is never
 * stored: its SHA-256 finds nothing without the 256 random bits behind it. `prefix` (`edi_` and eight characters of
 * the key) finds the row and tells keys apart in the list; a revoked key stays, for the record.
 */
export const companyApiKeys = pgTable(
  'company_api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    secretHash: text('secret_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('company_api_keys_prefix_key').on(t.prefix),
    index('company_api_keys_company_created_idx').on(t.companyId, t.createdAt, t.id),
  ],
);
