import { sql } from 'drizzle-orm';
import { check, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';

/**
 * A company's catalogue (issue 12): the lines that fill document forms. A GTIN appears at most once in a company's
 * products; the price is an exact decimal (numeric, never a float), the VAT rate a percent or `zw` / `np`.
 */
export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gtin: text('gtin'),
    supplierArticleNumber: text('supplier_article_number'),
    buyerArticleNumber: text('buyer_article_number'),
    description: text('description').notNull(),
    /** UN/ECE Recommendation 20 code. */
    unit: text('unit').notNull().default('PCE'),
    price: numeric('price', { precision: 19, scale: 4 }),
    /** ISO 4217. */
    currency: text('currency').notNull(),
    vatRate: text('vat_rate'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('products_company_gtin_key')
      .on(t.companyId, t.gtin)
      .where(sql`${t.gtin} is not null`),
    index('products_company_description_idx').on(t.companyId, sql`lower(${t.description})`, t.id),
    check('products_price_check', sql`${t.price} is null or ${t.price} >= 0`),
    check(
      'products_vat_rate_check',
      sql`${t.vatRate} is null or ${t.vatRate} in ('zw', 'np') or ${t.vatRate} ~ '^[0-9]{1,3}(\\.[0-9]{1,2})?$'`,
    ),
  ],
);
