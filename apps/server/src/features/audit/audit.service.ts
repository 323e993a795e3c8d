import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { createAuditRepository } from './audit.repository.ts';

export type { AuditListRow, EventKey } from './audit.repository.ts';

export type AuditEvent =
  | 'auth.login_succeeded'
  | 'auth.login_failed'
  | 'auth.login_throttled'
  | 'auth.account_locked'
  | 'auth.account_unlocked'
  | 'auth.login_refused'
  | 'auth.legacy_login'
  | 'auth.logout'
  | 'auth.refresh_reuse'
  | 'auth.registered'
  /** A verification e-mail asked for (registering, or Resend), under the id the registration answered. */
  | 'auth.verification_requested'
  | 'auth.email_verified'
  | 'auth.password_reset_requested'
  | 'auth.password_reset'
  | 'auth.password_changed'
  | 'auth.password_change_failed'
  | 'auth.impersonation_started'
  | 'auth.impersonation_ended'
  | 'admin.permissions_changed'
  | 'users.invited'
  | 'users.invitation_resent'
  | 'users.updated'
  | 'users.deactivated'
  | 'users.activated'
  | 'restrictions.changed'
  /** An address-book entry created, updated or deleted, or a CSV imported (details.change). */
  | 'address_book.changed'
  /** A trading partner created, updated, deleted, or its notifications set (details.change). */
  | 'partners.changed'
  | 'ksef.settings_changed'
  | 'admin.company_created'
  | 'admin.company_changed'
  | 'admin.user_created'
  | 'admin.user_verified'
  | 'admin.user_disabled'
  | 'admin.user_enabled'
  | 'admin.user_reset_sent'
  | 'admin.user_roles_changed'
  /** A company API key created or revoked (details: keyId, name, prefix). */
  | 'api_keys.created'
  | 'api_keys.revoked'
  /** A call of the inbound endpoint without a valid key (details.reason), counted per address. */
  | 'api_keys.auth_failed'
  | 'issue_report.submitted'
  | 'issue_report.status_changed';

export type AuditEntry = {
  event: AuditEvent;
  actorUserId?: string | null;
  subjectUserId?: string | null;
  companyId?: string | null;
  login?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  details?: Record<string, unknown>;
};

export type AuditService = ReturnType<typeof createAuditService>;

/** The owner of the audit log: every feature records through it, and counts past events with it. */
export function createAuditService(deps: { db: Db; clock: Clock }) {
  const repo = createAuditRepository(deps.db);
  return {
    countEvents: repo.countEvents,
    lastEventAt: repo.lastEventAt,
    recentEventTimes: repo.recentEventTimes,
    list: repo.list,

    async record(entry: AuditEntry, db: Db = deps.db): Promise<void> {
      await repo.insert(
        {
          at: deps.clock.now(),
          event: entry.event,
          actorUserId: entry.actorUserId ?? null,
          subjectUserId: entry.subjectUserId ?? null,
          companyId: entry.companyId ?? null,
          login: entry.login?.toLowerCase() ?? null,
          ip: entry.ip ?? null,
          userAgent: entry.userAgent?.slice(0, 300) ?? null,
          details: entry.details ?? null,
        },
        db,
      );
    },
  };
}
