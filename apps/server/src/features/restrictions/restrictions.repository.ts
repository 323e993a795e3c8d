import { and, asc, count, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { nameTakenInCompany, qualified as col, searchWords } from '../../db/sql.ts';
import { groupMembers, groups } from '../groups/groups.table.ts';
import { users } from '../users/users.table.ts';
import { restrictionAssignments, restrictions } from './restrictions.table.ts';

export type RestrictionRow = typeof restrictions.$inferSelect;
export type RestrictionValues = Pick<
  typeof restrictions.$inferInsert,
  'name' | 'description' | 'partners' | 'deliveryPointGlns' | 'documentTypes' | 'directions'
>;
export type RestrictionFilters = {
  search?: string | undefined;
  userId?: string | undefined;
  groupId?: string | undefined;
};
export type RestrictionKey = { name: string; id: string };

function filtersOf(companyId: string, filters: RestrictionFilters): SQL[] {
  const where: SQL[] = [eq(restrictions.companyId, companyId)];
  for (const word of searchWords(filters.search)) {
    where.push(
      sql`strpos(lower(concat_ws(' ', ${col(restrictions, restrictions.name)}, ${col(restrictions, restrictions.description)})), ${word}) > 0`,
    );
  }
  const assigned = (column: AnyColumn, id: string) =>
    sql`exists (select 1 from ${restrictionAssignments}
      where ${col(restrictionAssignments, restrictionAssignments.restrictionId)} = ${col(restrictions, restrictions.id)}
        and ${col(restrictionAssignments, column)} = ${id})`;
  if (filters.userId) where.push(assigned(restrictionAssignments.userId, filters.userId));
  if (filters.groupId) where.push(assigned(restrictionAssignments.groupId, filters.groupId));
  return where;
}

/**
 * The restriction (the row of `restrictions` in scope) is assigned to the user of the enclosing query's `users` row,
 * directly or through a group of that user's company.
 */
function assignedToUser(): SQL {
  const userId = col(users, users.id);
  const userCompany = col(users, users.companyId);
  return sql`exists (
    select 1 from ${restrictionAssignments}
    where ${col(restrictionAssignments, restrictionAssignments.restrictionId)} = ${col(restrictions, restrictions.id)}
      and (
        ${col(restrictionAssignments, restrictionAssignments.userId)} = ${userId}
        or ${col(restrictionAssignments, restrictionAssignments.groupId)} in (
          select ${col(groupMembers, groupMembers.groupId)} from ${groupMembers}
          join ${groups} on ${col(groups, groups.id)} = ${col(groupMembers, groupMembers.groupId)}
          where ${col(groupMembers, groupMembers.userId)} = ${userId}
            and ${col(groups, groups.companyId)} = ${userCompany}
        )
      )
  )`;
}

/** The restrictions of effectiveFor as they come out of effectiveRestrictionsJson. */
export type RestrictionJson = Pick<
  RestrictionRow,
  'id' | 'name' | 'partners' | 'deliveryPointGlns' | 'documentTypes' | 'directions'
>;

/**
 * effectiveFor as a correlated subquery of a query over `users`: a JSON array of the user's restrictions, in the
 * same order, for a read that wants them in the same round trip (the authentication hook, decision 0043).
 */
export function effectiveRestrictionsJson(): SQL<RestrictionJson[]> {
  const r = (column: AnyColumn) => col(restrictions, column);
  return sql<RestrictionJson[]>`coalesce((
    select json_agg(json_build_object(
      'id', ${r(restrictions.id)}, 'name', ${r(restrictions.name)}, 'partners', ${r(restrictions.partners)},
      'deliveryPointGlns', ${r(restrictions.deliveryPointGlns)}, 'documentTypes', ${r(restrictions.documentTypes)},
      'directions', ${r(restrictions.directions)}
    ) order by lower(${r(restrictions.name)}), ${r(restrictions.id)})
    from ${restrictions}
    where ${r(restrictions.companyId)} = ${col(users, users.companyId)} and ${assignedToUser()}
  ), '[]'::json)`;
}

export function createRestrictionsRepository(db: Db) {
  return {
    async list(companyId: string, filters: RestrictionFilters, after: RestrictionKey | undefined, limit: number) {
      const where = filtersOf(companyId, filters);
      if (after) {
        where.push(
          sql`(lower(${col(restrictions, restrictions.name)}), ${col(restrictions, restrictions.id)}) > (lower(${after.name}), ${after.id}::uuid)`,
        );
      }
      return db
        .select()
        .from(restrictions)
        .where(and(...where))
        .orderBy(sql`lower(${restrictions.name})`, asc(restrictions.id))
        .limit(limit);
    },

    async count(companyId: string, filters: RestrictionFilters): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(restrictions)
        .where(and(...filtersOf(companyId, filters)));
      return row?.n ?? 0;
    },

    async find(companyId: string, id: string, tx: Db = db): Promise<RestrictionRow | undefined> {
      const [row] = await tx
        .select()
        .from(restrictions)
        .where(and(eq(restrictions.companyId, companyId), eq(restrictions.id, id)))
        .limit(1);
      return row;
    },

    nameTaken: (companyId: string, name: string, exceptId: string | undefined, tx: Db = db) =>
      nameTakenInCompany(tx, restrictions, companyId, name, exceptId),

    /** Assigned users and groups of each restriction, only those of the restriction's company. */
    async assigneesOf(companyId: string, restrictionIds: readonly string[], tx: Db = db) {
      const result = new Map<
        string,
        {
          users: { id: string; email: string; firstName: string; lastName: string }[];
          groups: { id: string; name: string }[];
        }
      >();
      if (restrictionIds.length === 0) return result;
      for (const id of restrictionIds) result.set(id, { users: [], groups: [] });
      const userRows = await tx
        .select({
          restrictionId: restrictionAssignments.restrictionId,
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
        })
        .from(restrictionAssignments)
        .innerJoin(users, eq(users.id, restrictionAssignments.userId))
        .where(and(inArray(restrictionAssignments.restrictionId, [...restrictionIds]), eq(users.companyId, companyId)))
        .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id));
      for (const { restrictionId, ...user } of userRows) result.get(restrictionId)?.users.push(user);
      const groupRows = await tx
        .select({ restrictionId: restrictionAssignments.restrictionId, id: groups.id, name: groups.name })
        .from(restrictionAssignments)
        .innerJoin(groups, eq(groups.id, restrictionAssignments.groupId))
        .where(and(inArray(restrictionAssignments.restrictionId, [...restrictionIds]), eq(groups.companyId, companyId)))
        .orderBy(sql`lower(${groups.name})`, asc(groups.id));
      for (const { restrictionId, ...group } of groupRows) result.get(restrictionId)?.groups.push(group);
      return result;
    },

    /** Restrictions of the company assigned to the user directly. */
    async ofUser(companyId: string, userId: string) {
      return db
        .select({ id: restrictions.id, name: restrictions.name })
        .from(restrictionAssignments)
        .innerJoin(restrictions, eq(restrictions.id, restrictionAssignments.restrictionId))
        .where(and(eq(restrictions.companyId, companyId), eq(restrictionAssignments.userId, userId)))
        .orderBy(sql`lower(${restrictions.name})`, asc(restrictions.id));
    },

    async insert(companyId: string, values: RestrictionValues, at: Date, tx: Db): Promise<string> {
      const [row] = await tx
        .insert(restrictions)
        .values({ ...values, companyId, createdAt: at, updatedAt: at })
        .returning({ id: restrictions.id });
      return row!.id;
    },

    async update(companyId: string, id: string, values: RestrictionValues, at: Date, tx: Db): Promise<void> {
      await tx
        .update(restrictions)
        .set({ ...values, updatedAt: at })
        .where(and(eq(restrictions.companyId, companyId), eq(restrictions.id, id)));
    },

    async remove(companyId: string, id: string, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .delete(restrictions)
        .where(and(eq(restrictions.companyId, companyId), eq(restrictions.id, id)))
        .returning({ id: restrictions.id });
      return rows.length === 1;
    },

    /** Replaces who a restriction applies to (the caller checked the ids belong to the company). */
    async setAssignees(
      restrictionId: string,
      userIds: readonly string[],
      groupIds: readonly string[],
      tx: Db,
    ): Promise<void> {
      await tx.delete(restrictionAssignments).where(eq(restrictionAssignments.restrictionId, restrictionId));
      const rows = [
        ...userIds.map((userId) => ({ restrictionId, userId, groupId: null })),
        ...groupIds.map((groupId) => ({ restrictionId, userId: null, groupId })),
      ];
      if (rows.length > 0) await tx.insert(restrictionAssignments).values(rows);
    },

    /**
     * Restrictions of the user's company assigned to the user directly or to a group of that company the user is
     * in, each once, by name.
     */
    async effectiveFor(userId: string): Promise<RestrictionRow[]> {
      return db
        .select({ restriction: restrictions })
        .from(restrictions)
        .innerJoin(users, eq(users.companyId, restrictions.companyId))
        .where(and(eq(users.id, userId), assignedToUser()))
        .orderBy(sql`lower(${restrictions.name})`, asc(restrictions.id))
        .then((rows) => rows.map((r) => r.restriction));
    },
  };
}

export type RestrictionsRepository = ReturnType<typeof createRestrictionsRepository>;
