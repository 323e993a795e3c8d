import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { bytea } from '../../db/columns.ts';

/** Every e-mail the portal sends. Without SMTP_URL this is the outbox admins read (status `stored`). */
export const outboundEmails = pgTable(
  'outbound_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    language: text('language').notNull(),
    status: text('status').notNull(), // stored (in the outbox, or waiting for its send job) | sent | failed
    error: text('error'),
    userId: uuid('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbound_emails_created_idx').on(t.createdAt)],
);

/** Files sent with a message, kept until its send job has delivered it (the job's payload names only the message). */
export const outboundEmailAttachments = pgTable(
  'outbound_email_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    emailId: uuid('email_id')
      .notNull()
      .references(() => outboundEmails.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type'),
    content: bytea('content').notNull(),
  },
  (t) => [index('outbound_email_attachments_email_idx').on(t.emailId)],
);
