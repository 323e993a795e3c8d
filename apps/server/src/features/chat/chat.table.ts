import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/** A source an answer rests on, as stored with it (the article's title in the asker's language at the time). */
export type StoredChatSource = { articleId: string; title: string; url: string };

/** A conversation with the help assistant: one user's, continued by its id. */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // A deleted user's conversations go with them: they are that user's questions.
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_conversations_user_idx').on(t.userId)],
);

/** One exchange: the question (or the finding to explain) and the answer given, with what it rested on. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    /** The asker, again here: the rate limit counts a user's questions by this column and `created_at`. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(), // question | explain
    question: text('question').notNull(),
    response: text('response').notNull(),
    /** False when no help article answered: the response said so. */
    answered: boolean('answered').notNull(),
    sources: jsonb('sources').$type<StoredChatSource[]>().notNull(),
    /** The model that phrased the answer; null when the answer was composed from the passages. */
    model: text('model'),
    language: text('language').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_conversation_idx').on(t.conversationId, t.createdAt),
    index('chat_messages_user_created_idx').on(t.userId, t.createdAt),
    index('chat_messages_created_idx').on(t.createdAt, t.id),
  ],
);

/** One feedback per answer (the primary key), by the conversation's owner. */
export const chatFeedback = pgTable('chat_feedback', {
  messageId: uuid('message_id')
    .primaryKey()
    .references(() => chatMessages.id, { onDelete: 'cascade' }),
  isPositive: boolean('is_positive').notNull(),
  comment: text('comment'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
