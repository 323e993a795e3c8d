import { and, eq, exists, gt, inArray, isNull, max, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { qualified as col } from '../../db/sql.ts';
import { users } from '../users/users.table.ts';
import { legacyAccounts, oneTimeTokens, refreshTokenFamilies, refreshTokens, signingKeys } from './auth.table.ts';

export type LegacyAccountRow = typeof legacyAccounts.$inferSelect;
export type SigningKeyRow = typeof signingKeys.$inferSelect;
export type OneTimePurpose = 'verify_email' | 'reset' | 'invite' | 'registration' | 'unlock';

/**
 * Whether the session (refresh-token family) of the placeholder `sessionId` (a uuid, or null for none) is live at the
 * placeholder `at` for the user of the enclosing query's `users` row, as a correlated subquery (the authentication
 * hook's one round trip, decision 0043): not revoked, within its absolute lifetime, of that user, and, for an
 * impersonation, with an impersonator who is still an enabled admin.
 */
export function sessionLiveSql(): SQL<boolean> {
  const f = (column: AnyColumn) => col(refreshTokenFamilies, column);
  const impersonator = (column: AnyColumn) => sql.raw(`"impersonators"."${column.name}"`);
  return sql<boolean>`exists (
    select 1 from ${refreshTokenFamilies}
    left join ${users} as "impersonators" on ${impersonator(users.id)} = ${f(refreshTokenFamilies.impersonatorId)}
    where ${f(refreshTokenFamilies.id)} = ${sql.placeholder('sessionId')}::uuid
      and ${f(refreshTokenFamilies.revokedAt)} is null
      and ${f(refreshTokenFamilies.userId)} = ${col(users, users.id)}
      and ${f(refreshTokenFamilies.absoluteExpiresAt)} > ${sql.placeholder('at')}::timestamptz
      and (
        ${f(refreshTokenFamilies.impersonatorId)} is null
        or (${impersonator(users.disabledAt)} is null and 'admin' = any(${impersonator(users.roles)}))
      )
  )`;
}

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
