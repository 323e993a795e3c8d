import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Append-only record of security events: sign-ins, failures, password changes, token reuse, impersonation. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    event: text('event').notNull(),
    actorUserId: uuid('actor_user_id'),
    subjectUserId: uuid('subject_user_id'),
    companyId: uuid('company_id'),
    /** Lower-cased login as typed, so failures of unknown accounts are counted too. */
    login: text('login'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_event_login_at_idx').on(t.event, t.login, t.at),
    index('audit_event_ip_at_idx').on(t.event, t.ip, t.at),
    index('audit_at_idx').on(sql`${t.at} desc`),
  ],
);
