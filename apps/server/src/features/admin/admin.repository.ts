import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { escapeLike, likePattern } from '../../db/sql.ts';
import { auditLog } from '../audit/audit.table.ts';
import { refreshTokenFamilies } from '../auth/auth.table.ts';
import { companies } from '../companies/companies.table.ts';
import { groupMembers, groups } from '../groups/groups.table.ts';
import { outboundEmails } from '../mail/mail.table.ts';
import { users } from '../users/users.table.ts';

export type CompanyRow = typeof companies.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type CompanyListRow = CompanyRow & { userCount: number };
export type CompanyPageRow = CompanyListRow & { sortKey: string };
export type UserListRow = UserRow & { companyName: string | null };
export type UserPageRow = UserListRow & { sortKey: string };
export type EmailListRow = typeof outboundEmails.$inferSelect & { cursorAt: string };
export type AuditListRow = typeof auditLog.$inferSelect & { actorEmail: string | null; subjectEmail: string | null };

// Correlated subqueries name their tables outright: Drizzle renders a bare column name inside sql``.
const userCount = sql<number>`(select count(*)::int from "users" as "u" where "u"."company_id" = "companies"."id")`;

/** Drizzle queries of the admin area; knows nothing of HTTP or roles. */
export function createAdminRepository(db: Db) {
  return {
    // Companies, ordered by lower(name), id.
    async listCompanies(filter: {
      search?: string | undefined;
      after?: string[] | undefined;
      limit: number;
    }): Promise<CompanyPageRow[]> {
      const where: SQL[] = [];
      if (filter.search) {
        const p = likePattern(filter.search);
        where.push(
          or(
            sql`${companies.name} ilike ${p}`,
            sql`${companies.vatId} ilike ${p}`,
            sql`${companies.taxId} ilike ${p}`,
          )!,
        );
      }
      if (filter.after) {
        const [name, id] = filter.after;
        where.push(sql`(lower(${companies.name}), ${companies.id}) > (${name}, ${id}::uuid)`);
      }
      return db
        .select({ ...companyColumns(), userCount, sortKey: sql<string>`lower(${companies.name})` })
        .from(companies)
        .where(where.length ? and(...where) : undefined)
        .orderBy(sql`lower(${companies.name})`, asc(companies.id))
        .limit(filter.limit + 1);
    },
    async findCompany(id: string, tx: Db = db): Promise<CompanyListRow | undefined> {
      const [row] = await tx
        .select({ ...companyColumns(), userCount })
        .from(companies)
        .where(eq(companies.id, id))
        .limit(1);
      return row;
    },
    async companyGroups(companyId: string) {
      return db
        .select({
          id: groups.id,
          name: groups.name,
          permissions: groups.permissions,
          memberCount: sql<number>`(select count(*)::int from "group_members" as "m" where "m"."group_id" = "groups"."id")`,
        })
        .from(groups)
        .where(eq(groups.companyId, companyId))
        .orderBy(sql`lower(${groups.name})`, asc(groups.id));
    },
    /** A company and its "Administrators" group, atomically. */
    async createCompany(
      values: typeof companies.$inferInsert,
      administrators: { name: string; permissions: string[] },
    ): Promise<CompanyRow> {
      return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const [company] = await tx.insert(companies).values(values).returning();
        await tx.insert(groups).values({ companyId: company!.id, ...administrators });
        return company!;
      });
    },
    async updateCompany(id: string, values: Partial<typeof companies.$inferInsert>): Promise<CompanyRow | undefined> {
      const [row] = await db.update(companies).set(values).where(eq(companies.id, id)).returning();
      return row;
    },

    // Users, ordered by lower(email), id.
    async listUsers(filter: {
      search?: string | undefined;
      companyId?: string | undefined;
      after?: string[] | undefined;
      limit: number;
    }): Promise<UserPageRow[]> {
      const where: SQL[] = [];
      if (filter.search) {
        const p = likePattern(filter.search);
        where.push(
          or(
            sql`${users.email} ilike ${p}`,
            sql`${users.firstName} ilike ${p}`,
            sql`${users.lastName} ilike ${p}`,
            sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${p}`,
          )!,
        );
      }
      if (filter.companyId) where.push(eq(users.companyId, filter.companyId));
      if (filter.after) {
        const [email, id] = filter.after;
        where.push(sql`(lower(${users.email}), ${users.id}) > (${email}, ${id}::uuid)`);
      }
      const rows = await db
        .select({ user: users, companyName: companies.name, sortKey: sql<string>`lower(${users.email})` })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(where.length ? and(...where) : undefined)
        .orderBy(sql`lower(${users.email})`, asc(users.id))
        .limit(filter.limit + 1);
      return rows.map((r) => ({ ...r.user, companyName: r.companyName, sortKey: r.sortKey }));
    },
    async findUser(id: string): Promise<UserListRow | undefined> {
      const [row] = await db
        .select({ user: users, companyName: companies.name })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, id))
        .limit(1);
      return row ? { ...row.user, companyName: row.companyName } : undefined;
    },
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      return row;
    },
    async groupIdsOfCompany(companyId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: groups.id })
        .from(groups)
        .where(and(eq(groups.companyId, companyId), inArray(groups.id, ids)));
      return rows.map((r) => r.id);
    },
    /** A user and their group memberships, atomically. */
    async createUser(values: typeof users.$inferInsert, groupIds: string[]): Promise<UserRow> {
      return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const [user] = await tx.insert(users).values(values).returning();
        if (groupIds.length)
          await tx.insert(groupMembers).values(groupIds.map((groupId) => ({ groupId, userId: user!.id })));
        return user!;
      });
    },
    async updateUser(id: string, values: Partial<typeof users.$inferInsert>): Promise<void> {
      await db.update(users).set(values).where(eq(users.id, id));
    },
    /** Disables a user and ends every session of theirs, atomically. */
    async disableUser(id: string, at: Date): Promise<void> {
      await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await tx.update(users).set({ disabledAt: at, updatedAt: at }).where(eq(users.id, id));
        await tx
          .update(refreshTokenFamilies)
          .set({ revokedAt: at, revokedReason: 'disabled' })
          // Every session the user started ends, impersonations included: re-enabling the user later must not
          // bring an impersonation back.
          .where(
            and(
              or(eq(refreshTokenFamilies.userId, id), eq(refreshTokenFamilies.impersonatorId, id)),
              isNull(refreshTokenFamilies.revokedAt),
            ),
          );
      });
    },

    // Logs, newest first.
    async listEmails(filter: {
      to?: string | undefined;
      kind?: string | undefined;
      after?: string[] | undefined;
      limit: number;
    }): Promise<EmailListRow[]> {
      const where: SQL[] = [];
      if (filter.to) where.push(sql`${outboundEmails.toAddress} ilike ${likePattern(filter.to)}`);
      if (filter.kind) where.push(eq(outboundEmails.kind, filter.kind));
      if (filter.after) {
        const [at, id] = filter.after;
        where.push(sql`(${outboundEmails.createdAt}, ${outboundEmails.id}) < (${at}::timestamptz, ${id}::uuid)`);
      }
      return db
        .select({
          id: outboundEmails.id,
          kind: outboundEmails.kind,
          toAddress: outboundEmails.toAddress,
          subject: outboundEmails.subject,
          textBody: outboundEmails.textBody,
          htmlBody: outboundEmails.htmlBody,
          language: outboundEmails.language,
          status: outboundEmails.status,
          error: outboundEmails.error,
          userId: outboundEmails.userId,
          createdAt: outboundEmails.createdAt,
          sentAt: outboundEmails.sentAt,
          // The exact stored value (microseconds), so the next page neither skips nor repeats a row.
          cursorAt: sql<string>`${outboundEmails.createdAt}::text`,
        })
        .from(outboundEmails)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(outboundEmails.createdAt), desc(outboundEmails.id))
        .limit(filter.limit + 1);
    },
    async listAudit(filter: {
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

function companyColumns() {
  return {
    id: companies.id,
    name: companies.name,
    vatId: companies.vatId,
    taxId: companies.taxId,
    country: companies.country,
    profile: companies.profile,
    loginStatus: companies.loginStatus,
    restrictionWaitTime: companies.restrictionWaitTime,
    restrictionWorkingTime: companies.restrictionWorkingTime,
    restrictionWorkingStart: companies.restrictionWorkingStart,
    restrictionMessage: companies.restrictionMessage,
    toggles: companies.toggles,
    overduePayment: companies.overduePayment,
    createdAt: companies.createdAt,
    updatedAt: companies.updatedAt,
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
