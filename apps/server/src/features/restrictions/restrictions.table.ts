import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';
import { groups } from '../groups/groups.table.ts';
import { users } from '../users/users.table.ts';

/**
 * A named rule that narrows the documents a user or group sees. An empty list means "no narrowing" on that axis;
 * several restrictions on one person combine (each must allow a document).
 */
export const restrictions = pgTable(
  'restrictions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** Partner ids (or GLNs of partners off the platform). */
    partners: text('partners')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    deliveryPointGlns: text('delivery_point_glns')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    documentTypes: text('document_types')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** `in`, `out`. */
    directions: text('directions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('restrictions_company_name_key').on(t.companyId, sql`lower(${t.name})`)],
);

/** Who a restriction applies to: exactly one of a user or a group. */
export const restrictionAssignments = pgTable(
  'restriction_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    restrictionId: uuid('restriction_id')
      .notNull()
      .references(() => restrictions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    check('restriction_assignments_one_target', sql`(${t.userId} is null) <> (${t.groupId} is null)`),
    index('restriction_assignments_restriction_idx').on(t.restrictionId),
    uniqueIndex('restriction_assignments_user_key').on(t.restrictionId, t.userId),
    uniqueIndex('restriction_assignments_group_key').on(t.restrictionId, t.groupId),
  ],
);
