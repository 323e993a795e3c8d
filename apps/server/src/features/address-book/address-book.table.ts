import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';

/**
 * A company's own contacts for filling documents (buyers, delivery places, invoicees, carriers): the description's
 * address book entry. A GLN appears at most once in a company's book.
 */
export const addressBookEntries = pgTable(
  'address_book_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    displayedName: text('displayed_name'),
    gln: text('gln'),
    /** J legal person, F physical person. */
    personType: text('person_type').notNull(),
    taxId: text('tax_id'),
    /** E foreigner, R resident, U resident in the EU. */
    residenceType: text('residence_type'),
    phone: text('phone'),
    street: text('street'),
    postalCode: text('postal_code'),
    city: text('city'),
    province: text('province'),
    accountNumber: text('account_number'),
    country: text('country').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('address_book_entries_company_gln_key')
      .on(t.companyId, t.gln)
      .where(sql`${t.gln} is not null`),
    index('address_book_entries_company_name_idx').on(t.companyId, sql`lower(${t.name})`, t.id),
    check('address_book_entries_person_type_check', sql`${t.personType} in ('J', 'F')`),
    check(
      'address_book_entries_residence_type_check',
      sql`${t.residenceType} is null or ${t.residenceType} in ('E', 'R', 'U')`,
    ),
  ],
);
