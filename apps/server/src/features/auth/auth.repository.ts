import { and, count, desc, eq, gt, inArray, isNull, max, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../audit/audit.table.ts';
import { companies } from '../companies/companies.table.ts';
import { groupMembers, groups } from '../groups/groups.table.ts';
import { users } from '../users/users.table.ts';
import { legacyAccounts, oneTimeTokens, refreshTokenFamilies, refreshTokens } from './auth.table.ts';

export type UserRow = typeof users.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;
export type OneTimePurpose = 'verify_email' | 'reset' | 'invite' | 'registration' | 'unlock';

export function createAuthRepository(db: Db) {
  return {
    async findUserByEmail(email: string, tx: Db = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      return row;
    },
    async findUserById(id: string, tx: Db = db): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    async findCompany(id: string, tx: Db = db): Promise<CompanyRow | undefined> {
      const [row] = await tx.select().from(companies).where(eq(companies.id, id)).limit(1);
      return row;
    },
    async startWorkingWindow(companyId: string, start: Date): Promise<void> {
      await db.update(companies).set({ restrictionWorkingStart: start }).where(eq(companies.id, companyId));
    },
    /** Groups of the user's own company only, as the request principal counts them (plugins/auth.ts). */
    async groupNames(userId: string, tx: Db = db): Promise<string[]> {
      const rows = await tx
        .select({ name: groups.name })
        .from(groupMembers)
        .innerJoin(groups, eq(groups.id, groupMembers.groupId))
        .innerJoin(users, and(eq(users.id, groupMembers.userId), eq(users.companyId, groups.companyId)))
        .where(eq(groupMembers.userId, userId));
      return rows.map((r) => r.name).sort();
    },
    async findLegacyAccount(login: string) {
      const [row] = await db
        .select()
        .from(legacyAccounts)
        .where(sql`lower(${legacyAccounts.login}) = ${login.trim().toLowerCase()}`)
        .limit(1);
      return row;
    },
    async findLegacyAccountById(id: string, tx: Db = db) {
      const [row] = await tx.select().from(legacyAccounts).where(eq(legacyAccounts.id, id)).limit(1);
      return row;
    },

    // Session families and refresh tokens.
    async createFamily(values: typeof refreshTokenFamilies.$inferInsert, tx: Db = db) {
      const [row] = await tx.insert(refreshTokenFamilies).values(values).returning();
      return row!;
    },
    async insertRefreshToken(values: typeof refreshTokens.$inferInsert, tx: Db = db): Promise<void> {
      await tx.insert(refreshTokens).values(values);
    },
    async findRefreshToken(tokenHash: string) {
      const [row] = await db
        .select({ token: refreshTokens, family: refreshTokenFamilies })
        .from(refreshTokens)
        .innerJoin(refreshTokenFamilies, eq(refreshTokenFamilies.id, refreshTokens.familyId))
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },
    /** Marks a token used; false when another request used it first (a race is treated as reuse). */
    async markRefreshTokenUsed(id: string, at: Date, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .update(refreshTokens)
        .set({ usedAt: at })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
        .returning({ id: refreshTokens.id });
      return rows.length === 1;
    },
    async revokeFamily(familyId: string, reason: string, at: Date): Promise<void> {
      await db
        .update(refreshTokenFamilies)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(refreshTokenFamilies.id, familyId), isNull(refreshTokenFamilies.revokedAt)));
    },
    /** Every session of the user, and every impersonation the user started as an admin. */
    async revokeAllFamilies(userId: string, reason: string, at: Date, tx: Db = db): Promise<void> {
      await tx
        .update(refreshTokenFamilies)
        .set({ revokedAt: at, revokedReason: reason })
        .where(
          and(
            or(eq(refreshTokenFamilies.userId, userId), eq(refreshTokenFamilies.impersonatorId, userId)),
            isNull(refreshTokenFamilies.revokedAt),
          ),
        );
    },

    // One-time tokens.
    async insertOneTimeToken(values: typeof oneTimeTokens.$inferInsert, tx: Db = db): Promise<void> {
      await tx.insert(oneTimeTokens).values(values);
    },
    async findOneTimeToken(tokenHash: string, purposes: OneTimePurpose[], tx: Db = db) {
      const [row] = await tx
        .select()
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.tokenHash, tokenHash), inArray(oneTimeTokens.purpose, purposes)))
        .limit(1);
      return row;
    },
    /** Spends a token exactly once, even under concurrent requests. */
    async consumeOneTimeToken(id: string, at: Date, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .update(oneTimeTokens)
        .set({ usedAt: at })
        .where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, at)))
        .returning({ id: oneTimeTokens.id });
      return rows.length === 1;
    },
    /** Spends every open link of the user for these purposes (after a password change they must not undo it). */
    async spendOpenLinks(userId: string, purposes: OneTimePurpose[], at: Date, tx: Db = db): Promise<void> {
      await tx
        .update(oneTimeTokens)
        .set({ usedAt: at })
        .where(
          and(eq(oneTimeTokens.userId, userId), inArray(oneTimeTokens.purpose, purposes), isNull(oneTimeTokens.usedAt)),
        );
    },
    async lastOneTimeTokenAt(userId: string, purpose: OneTimePurpose): Promise<Date | undefined> {
      const [row] = await db
        .select({ at: max(oneTimeTokens.createdAt) })
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose)));
      return row?.at ?? undefined;
    },

    // Brute-force counters, read from the audit log.
    async countEvents(event: string, key: { login?: string; ip?: string }, since: Date) {
      const where = [eq(auditLog.event, event), gt(auditLog.at, since)];
      if (key.login !== undefined) where.push(eq(auditLog.login, key.login.toLowerCase()));
      if (key.ip !== undefined) where.push(eq(auditLog.ip, key.ip));
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
    async recentEventTimes(event: string, key: { login?: string; ip?: string }, since: Date, limit: number) {
      const where = [eq(auditLog.event, event), gt(auditLog.at, since)];
      if (key.login !== undefined) where.push(eq(auditLog.login, key.login.toLowerCase()));
      if (key.ip !== undefined) where.push(eq(auditLog.ip, key.ip));
      const rows = await db
        .select({ at: auditLog.at })
        .from(auditLog)
        .where(and(...where))
        .orderBy(desc(auditLog.at))
        .limit(limit);
      return rows.map((r) => r.at);
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
