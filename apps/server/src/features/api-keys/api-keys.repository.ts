import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { companyApiKeys as keys } from './api-keys.table.ts';

export type ApiKeyRow = typeof keys.$inferSelect;
/** A row of the list, with the e-mails of the users who created and revoked it, and its key for the next page. */
export type ApiKeyListRow = ApiKeyRow & { createdByEmail: string | null; revokedByEmail: string | null; at: string };

/** The e-mail of the user a column names, for the list (a join of the users' table for a column it shows). */
const emailOf = (column: AnyPgColumn) =>
  sql<string | null>`(select "u"."email" from "users" as "u" where "u"."id" = ${column})`;
const listed = {
  row: keys,
  createdByEmail: emailOf(keys.createdBy),
  revokedByEmail: emailOf(keys.revokedBy),
  at: sql<string>`${keys.createdAt}::text`,
};
const toListRow = (r: { row: ApiKeyRow; createdByEmail: string | null; revokedByEmail: string | null; at: string }) =>
  ({ ...r.row, createdByEmail: r.createdByEmail, revokedByEmail: r.revokedByEmail, at: r.at }) satisfies ApiKeyListRow;

/** The queries of `company_api_keys`; only the API keys service calls them. */
export function createApiKeysRepository(db: Db) {
  return {
    /** Newest first (created_at, id), after the previous page's last row. */
    async list(companyId: string, after: { at: string; id: string } | undefined, limit: number, tx: Db = db) {
      const where = [eq(keys.companyId, companyId)];
      if (after) where.push(sql`(${keys.createdAt}, ${keys.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`);
      const rows = await tx
        .select(listed)
        .from(keys)
        .where(and(...where))
        .orderBy(desc(keys.createdAt), desc(keys.id))
        .limit(limit);
      return rows.map(toListRow);
    },

    async find(companyId: string, id: string, tx: Db = db): Promise<ApiKeyListRow | undefined> {
      const [row] = await tx
        .select(listed)
        .from(keys)
        .where(and(eq(keys.companyId, companyId), eq(keys.id, id)))
        .limit(1);
      return row ? toListRow(row) : undefined;
    },

    /** The key of a prefix, revoked or not, whatever its company: the caller compares the secret's hash. */
    async findByPrefix(prefix: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.select().from(keys).where(eq(keys.prefix, prefix)).limit(1);
      return row;
    },

    async countActive(companyId: string, tx: Db = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(keys)
        .where(and(eq(keys.companyId, companyId), isNull(keys.revokedAt)));
      return row?.n ?? 0;
    },

    /** Inserts the key, or nothing when its prefix is taken (a 48-bit coincidence: the caller draws again). */
    async insert(values: typeof keys.$inferInsert, tx: Db = db): Promise<ApiKeyRow | undefined> {
      const [row] = await tx.insert(keys).values(values).onConflictDoNothing({ target: keys.prefix }).returning();
      return row;
    },

    /** Revokes a key of the company that is not revoked yet; undefined when there is none such. */
    async revoke(companyId: string, id: string, by: string, at: Date, tx: Db = db): Promise<ApiKeyRow | undefined> {
      const [row] = await tx
        .update(keys)
        .set({ revokedAt: at, revokedBy: by })
        .where(and(eq(keys.companyId, companyId), eq(keys.id, id), isNull(keys.revokedAt)))
        .returning();
      return row;
    },

    /**
     * Records a use. Written at most once a minute per key, so a busy integration does not turn every call into a
     * row update.
     */
    async touch(id: string, at: Date): Promise<void> {
      await db
        .update(keys)
        .set({ lastUsedAt: at })
        .where(
          and(
            eq(keys.id, id),
            sql`(${keys.lastUsedAt} is null or ${keys.lastUsedAt} < ${at.toISOString()}::timestamptz - interval '1 minute')`,
          ),
        );
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
