import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../audit/audit.table.ts';
import { oneTimeTokens, refreshTokenFamilies, refreshTokens } from '../auth/auth.table.ts';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/** Audit event of a wrong current password; the brute-force limit counts these. */
export const PASSWORD_CHANGE_FAILED_EVENT = 'auth.password_change_failed';

export type ProfileUserRow = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'companyId' | 'passwordHash' | 'passwordChangedAt' | 'settings'
>;
export type CompanyRow = typeof companies.$inferSelect;

export function createProfileRepository(db: Db) {
  return {
    async findUser(userId: string): Promise<ProfileUserRow | undefined> {
      const [row] = await db
        .select({
          id: users.id,
          email: users.email,
          companyId: users.companyId,
          passwordHash: users.passwordHash,
          passwordChangedAt: users.passwordChangedAt,
          settings: users.settings,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row;
    },
    async updateUser(
      userId: string,
      values: Partial<Pick<typeof users.$inferInsert, 'firstName' | 'lastName' | 'telephone' | 'settings'>>,
      at: Date,
    ): Promise<void> {
      await db
        .update(users)
        .set({ ...values, updatedAt: at })
        .where(eq(users.id, userId));
    },

    /** The session (refresh-token family) a refresh token belongs to, rotated or not. */
    async findFamilyOfToken(tokenHash: string) {
      const [row] = await db
        .select({
          id: refreshTokenFamilies.id,
          userId: refreshTokenFamilies.userId,
          revokedAt: refreshTokenFamilies.revokedAt,
        })
        .from(refreshTokens)
        .innerJoin(refreshTokenFamilies, eq(refreshTokenFamilies.id, refreshTokens.familyId))
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    /** Sets the new hash and ends every session of the user but `keepFamilyId`, atomically. */
    async replacePassword(
      userId: string,
      passwordHash: string,
      keepFamilyId: string | undefined,
      at: Date,
    ): Promise<void> {
      await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await tx.update(users).set({ passwordHash, passwordChangedAt: at, updatedAt: at }).where(eq(users.id, userId));
        const where = [eq(refreshTokenFamilies.userId, userId), isNull(refreshTokenFamilies.revokedAt)];
        if (keepFamilyId) where.push(ne(refreshTokenFamilies.id, keepFamilyId));
        await tx
          .update(refreshTokenFamilies)
          .set({ revokedAt: at, revokedReason: 'password_changed' })
          .where(and(...where));
        // A reset link mailed before the change must not undo it (someone who read the mailbox then, or the owner's
        // own stale link): every open reset link of the user is spent.
        await tx
          .update(oneTimeTokens)
          .set({ usedAt: at })
          .where(
            and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'reset'), isNull(oneTimeTokens.usedAt)),
          );
      });
    },

    // Wrong current passwords, kept in the audit log like failed logins (event, login, at is indexed there).
    async recordPasswordChangeFailure(entry: {
      userId: string;
      email: string;
      companyId: string | null;
      ip: string;
      userAgent: string | undefined;
      at: Date;
    }): Promise<void> {
      await db.insert(auditLog).values({
        at: entry.at,
        event: PASSWORD_CHANGE_FAILED_EVENT,
        actorUserId: entry.userId,
        subjectUserId: entry.userId,
        companyId: entry.companyId,
        login: entry.email.toLowerCase(),
        ip: entry.ip,
        userAgent: entry.userAgent?.slice(0, 300) ?? null,
      });
    },
    async countPasswordChangeFailures(
      userId: string,
      email: string,
      since: Date,
    ): Promise<{ count: number; oldest: Date | undefined }> {
      const [row] = await db
        .select({ n: count(), oldest: sql<string | null>`min(${auditLog.at})` })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.event, PASSWORD_CHANGE_FAILED_EVENT),
            eq(auditLog.login, email.toLowerCase()),
            gt(auditLog.at, since),
            eq(auditLog.subjectUserId, userId),
          ),
        );
      return { count: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : undefined };
    },

    async findCompany(companyId: string): Promise<CompanyRow | undefined> {
      const [row] = await db.select().from(companies).where(eq(companies.id, companyId)).limit(1);
      return row;
    },
    async updateCompany(
      companyId: string,
      values: Pick<typeof companies.$inferInsert, 'name' | 'vatId' | 'taxId' | 'country' | 'profile'>,
      at: Date,
    ): Promise<CompanyRow | undefined> {
      const [row] = await db
        .update(companies)
        .set({ ...values, updatedAt: at })
        .where(eq(companies.id, companyId))
        .returning();
      return row;
    },
  };
}

export type ProfileRepository = ReturnType<typeof createProfileRepository>;
