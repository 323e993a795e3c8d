import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/** "Report an issue": kept with its files, e-mailed to SUPPORT_EMAIL, listed for admins. */
export const issueReports = pgTable(
  'issue_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').notNull(), // technical | consultation
    priority: text('priority').notNull(), // critical | minor
    subject: text('subject').notNull(),
    description: text('description').notNull(),
    status: text('status').notNull().default('new'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('issue_reports_created_idx').on(t.createdAt)],
);

export const issueReportFiles = pgTable(
  'issue_report_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => issueReports.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** The file's bytes in the BlobStore (`issue-reports/<report>/<file>`). */
    blobKey: text('blob_key').notNull(),
  },
  (t) => [index('issue_report_files_report_idx').on(t.reportId)],
);
