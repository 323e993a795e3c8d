import { and, count, desc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../db/sql.ts';
import { auditLog } from './audit.table.ts';

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditListRow = AuditRow & { actorEmail: string | null; subjectEmail: string | null };
/** Which events count: by login (lower-cased), address and, when given, the user they concern. */
export type EventKey = { login?: string; ip?: string; subjectUserId?: string };

function keyConditions(key: EventKey): SQL[] {
  const where: SQL[] = [];
  if (key.login !== undefined) where.push(eq(auditLog.login, key.login.toLowerCase()));
  if (key.ip !== undefined) where.push(eq(auditLog.ip, key.ip));
  if (key.subjectUserId !== undefined) where.push(eq(auditLog.subjectUserId, key.subjectUserId));
  return where;
}

/** The queries of the append-only `audit_log`; others write and count through the audit service. */
export function createAuditRepository(db: Db) {
  return {
    async insert(values: typeof auditLog.$inferInsert, tx: Db = db): Promise<void> {
      await tx.insert(auditLog).values(values);
    },

    // Brute-force counters (the index on (event, login, at) and (event, ip, at) answers them).
    async countEvents(event: string, key: EventKey, since: Date) {
      const where = [eq(auditLog.event, event), gt(auditLog.at, since), ...keyConditions(key)];
      const [row] = await db
        .select({ n: count(), oldest: sql<string | null>`min(${auditLog.at})` })
        .from(auditLog)
        .where(and(...where));
      return { count: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : undefined };
    },
    /** The newest event of any of the kinds for the login (and address, when given) after `since`. */
    async lastEventAt(events: string[], key: { login: string; ip?: string }, since: Date): Promise<Date | undefined> {
      const where = [
        inArray(auditLog.event, events),
        eq(auditLog.login, key.login.toLowerCase()),
        gt(auditLog.at, since),
      ];
      if (key.ip !== undefined) where.push(eq(auditLog.ip, key.ip));
      const [row] = await db
        .select({ at: sql<string | null>`max(${auditLog.at})` })
        .from(auditLog)
        .where(and(...where));
      return row?.at ? new Date(row.at) : undefined;
    },
    /** Times of the newest `limit` events of a kind matching the key after `since`, newest first. */
    async recentEventTimes(event: string, key: EventKey, since: Date, limit: number) {
      const where = [eq(auditLog.event, event), gt(auditLog.at, since), ...keyConditions(key)];
      const rows = await db
        .select({ at: auditLog.at })
        .from(auditLog)
        .where(and(...where))
        .orderBy(desc(auditLog.at))
        .limit(limit);
      return rows.map((r) => r.at);
    },

    /** The admin area's log, newest first, with the e-mails of the users it names. */
    async list(filter: {
      event?: string | undefined;
      userId?: string | undefined;
      beforeId?: number | undefined;
      limit: number;
    }): Promise<AuditListRow[]> {
      const where: SQL[] = [];
      if (filter.event?.endsWith('.')) where.push(sql`${auditLog.event} like ${`${escapeLike(filter.event)}%`}`);
      else if (filter.event) where.push(eq(auditLog.event, filter.event));
      if (filter.userId)
        where.push(or(eq(auditLog.actorUserId, filter.userId), eq(auditLog.subjectUserId, filter.userId))!);
      if (filter.beforeId !== undefined) where.push(sql`${auditLog.id} < ${filter.beforeId}`);
      const actor = sql<
        string | null
      >`(select "u"."email" from "users" as "u" where "u"."id" = "audit_log"."actor_user_id")`;
      const subject = sql<
        string | null
      >`(select "u"."email" from "users" as "u" where "u"."id" = "audit_log"."subject_user_id")`;
      return db
        .select({
          id: auditLog.id,
          at: auditLog.at,
          event: auditLog.event,
          actorUserId: auditLog.actorUserId,
          subjectUserId: auditLog.subjectUserId,
          companyId: auditLog.companyId,
          login: auditLog.login,
          ip: auditLog.ip,
          userAgent: auditLog.userAgent,
          details: auditLog.details,
          actorEmail: actor,
          subjectEmail: subject,
        })
        .from(auditLog)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(auditLog.id))
        .limit(filter.limit + 1);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
