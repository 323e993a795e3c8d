import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { refreshTokenFamilies, refreshTokens } from '../auth/auth.table.ts';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

export type UserRow = typeof users.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;

export function createImpersonationRepository(db: Db) {
  return {
    async findUser(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      return row;
    },
    async findCompany(id: string): Promise<CompanyRow | undefined> {
      const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
      return row;
    },
    /** The session a refresh token belongs to, rotated or not. */
    async findFamilyOfToken(tokenHash: string) {
      const [row] = await db
        .select({
          id: refreshTokenFamilies.id,
          userId: refreshTokenFamilies.userId,
          impersonatorId: refreshTokenFamilies.impersonatorId,
        })
        .from(refreshTokens)
        .innerJoin(refreshTokenFamilies, eq(refreshTokenFamilies.id, refreshTokens.familyId))
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },
    async revokeFamily(id: string, at: Date): Promise<number> {
      const rows = await db
        .update(refreshTokenFamilies)
        .set({ revokedAt: at, revokedReason: 'impersonation_ended' })
        .where(and(eq(refreshTokenFamilies.id, id), isNull(refreshTokenFamilies.revokedAt)))
        .returning({ id: refreshTokenFamilies.id });
      return rows.length;
    },
    /** Every open session an impersonator holds as a user. */
    async revokeImpersonations(userId: string, impersonatorId: string, at: Date): Promise<number> {
      const rows = await db
        .update(refreshTokenFamilies)
        .set({ revokedAt: at, revokedReason: 'impersonation_ended' })
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
  };
}

export type ImpersonationRepository = ReturnType<typeof createImpersonationRepository>;
