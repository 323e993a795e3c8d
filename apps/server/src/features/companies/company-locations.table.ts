import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './companies.table.ts';

/**
 * A company's GLNs (kind `company`) and delivery points (kind `delivery_point`: stores, warehouses), owned by the
 * companies feature. The GLN is the primary key across every company: a GLN belongs to at most one company on the
 * platform (docs/decisions/0020-company-identifiers.md).
 */
export const companyLocations = pgTable(
  'company_locations',
  {
    gln: text('gln').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    street: text('street'),
    postalCode: text('postal_code'),
    city: text('city'),
    country: text('country'),
    /** The store or warehouse code the company uses for a delivery point. */
    code: text('code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('company_locations_company_kind_gln_idx').on(t.companyId, t.kind, t.gln),
    check('company_locations_kind_check', sql`${t.kind} in ('company', 'delivery_point')`),
    check('company_locations_gln_check', sql`${t.gln} ~ '^[0-9]{13}$'`),
  ],
);
