import { and, eq, exists, gt, inArray, isNull, max, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { users } from '../users/users.table.ts';
import { legacyAccounts, oneTimeTokens, refreshTokenFamilies, refreshTokens, signingKeys } from './auth.table.ts';

export type LegacyAccountRow = typeof legacyAccounts.$inferSelect;
export type SigningKeyRow = typeof signingKeys.$inferSelect;
export type OneTimePurpose = 'verify_email' | 'reset' | 'invite' | 'registration' | 'unlock';

export function createAuthRepository(db: Db) {
  return {
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
    async insertLegacyAccount(values: typeof legacyAccounts.$inferInsert, tx: Db = db): Promise<void> {
      await tx.insert(legacyAccounts).values(values);
    },
    /** Moves a legacy account to its new user; false when another registration moved it first. */
    async moveLegacyAccount(id: string, userId: string, at: Date, tx: Db): Promise<boolean> {
      const moved = await tx
        .update(legacyAccounts)
        .set({ userId, migratedAt: at })
        .where(and(eq(legacyAccounts.id, id), isNull(legacyAccounts.migratedAt)))
        .returning({ id: legacyAccounts.id });
      return moved.length === 1;
    },

    // Keys that sign access tokens.
    async findActiveSigningKey(): Promise<SigningKeyRow | undefined> {
      const [row] = await db.select().from(signingKeys).where(isNull(signingKeys.retiredAt)).limit(1);
      return row;
    },
    /** Stores a key unless one with its id exists (two processes starting at once may both generate one). */
    async insertSigningKey(values: typeof signingKeys.$inferInsert): Promise<void> {
      await db.insert(signingKeys).values(values).onConflictDoNothing();
    },
    async findSigningKey(kid: string): Promise<SigningKeyRow | undefined> {
      const [row] = await db.select().from(signingKeys).where(eq(signingKeys.kid, kid));
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
    /** Revokes a session unless already revoked; 1 when this call revoked it, else 0. */
    async revokeFamily(familyId: string, reason: string, at: Date, tx: Db = db): Promise<number> {
      const rows = await tx
        .update(refreshTokenFamilies)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(refreshTokenFamilies.id, familyId), isNull(refreshTokenFamilies.revokedAt)))
        .returning({ id: refreshTokenFamilies.id });
      return rows.length;
    },
    /** Every open session an impersonator holds as a user; how many were open. */
    async revokeImpersonations(userId: string, impersonatorId: string, reason: string, at: Date): Promise<number> {
      const rows = await db
        .update(refreshTokenFamilies)
        .set({ revokedAt: at, revokedReason: reason })
        .where(
          and(
            eq(refreshTokenFamilies.userId, userId),
            eq(refreshTokenFamilies.impersonatorId, impersonatorId),
            isNull(refreshTokenFamilies.revokedAt),
          ),
        )
        .returning({ id: refreshTokenFamilies.id });
      return rows.length;
    },
    /** Every open session of the user but `keepFamilyId` (the one changing the password keeps working). */
    async revokeOtherFamilies(
      userId: string,
      keepFamilyId: string | undefined,
      reason: string,
      at: Date,
      tx: Db = db,
    ): Promise<void> {
      const where = [eq(refreshTokenFamilies.userId, userId), isNull(refreshTokenFamilies.revokedAt)];
      if (keepFamilyId) where.push(ne(refreshTokenFamilies.id, keepFamilyId));
      await tx
        .update(refreshTokenFamilies)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(...where));
    },
    /** The session (refresh-token family) a refresh token belongs to, rotated or not. */
    async findFamilyOfToken(tokenHash: string) {
      const [row] = await db
        .select({
          id: refreshTokenFamilies.id,
          userId: refreshTokenFamilies.userId,
          impersonatorId: refreshTokenFamilies.impersonatorId,
          revokedAt: refreshTokenFamilies.revokedAt,
        })
        .from(refreshTokens)
        .innerJoin(refreshTokenFamilies, eq(refreshTokenFamilies.id, refreshTokens.familyId))
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },
    /**
     * Of these sessions, those still live at `at`: not revoked, within their absolute lifetime, and holding a refresh
     * token not yet used nor expired (a session idle past its token's expiry is over).
     */
    async liveFamilies(familyIds: readonly string[], at: Date): Promise<string[]> {
      if (familyIds.length === 0) return [];
      const rows = await db
        .select({ id: refreshTokenFamilies.id })
        .from(refreshTokenFamilies)
        .where(
          and(
            inArray(refreshTokenFamilies.id, [...familyIds]),
            isNull(refreshTokenFamilies.revokedAt),
            gt(refreshTokenFamilies.absoluteExpiresAt, at),
            exists(
              db
                .select({ one: sql`1` })
                .from(refreshTokens)
                .where(
                  and(
                    eq(refreshTokens.familyId, refreshTokenFamilies.id),
                    isNull(refreshTokens.usedAt),
                    gt(refreshTokens.expiresAt, at),
                  ),
                ),
            ),
          ),
        );
      return rows.map((r) => r.id);
    },
    /** A session with what its impersonator (if any) is now, in one primary-key join. */
    async findSession(familyId: string) {
      const impersonators = alias(users, 'impersonators');
      const [row] = await db
        .select({
          revokedAt: refreshTokenFamilies.revokedAt,
          absoluteExpiresAt: refreshTokenFamilies.absoluteExpiresAt,
          userId: refreshTokenFamilies.userId,
          impersonatorId: refreshTokenFamilies.impersonatorId,
          impersonatorDisabledAt: impersonators.disabledAt,
          impersonatorRoles: impersonators.roles,
        })
        .from(refreshTokenFamilies)
        .leftJoin(impersonators, eq(impersonators.id, refreshTokenFamilies.impersonatorId))
        .where(eq(refreshTokenFamilies.id, familyId))
        .limit(1);
      return row;
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
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
