import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/users.table.ts';

/**
 * Texts the portal shows that admins edit, one row per type and language (description, section 3, "App config
 * entries"). `content` is validated against the type's contract on read and write.
 */
export const appConfig = pgTable(
  'app_config',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    lang: text('lang').notNull(),
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('app_config_type_lang_key').on(t.type, t.lang)],
);
