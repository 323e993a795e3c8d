import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { idsOfCompany, nameTakenInCompany, qualified as col, searchWords } from '../../db/sql.ts';
import { users } from '../users/users.table.ts';
import { groupMembers, groups } from './groups.table.ts';

export type Membership = { name: string; permissions: string[] };

/**
 * `memberships` as a correlated subquery of a query over `users`: a JSON array of the names and permissions of the
 * user's groups of the user's own company (the authentication hook's one round trip, decision 0043).
 */
export function membershipsJson(): SQL<Membership[]> {
  return sql<Membership[]>`coalesce((
    select json_agg(json_build_object('name', ${col(groups, groups.name)}, 'permissions', ${col(groups, groups.permissions)}))
    from ${groupMembers} join ${groups} on ${col(groups, groups.id)} = ${col(groupMembers, groupMembers.groupId)}
    where ${col(groupMembers, groupMembers.userId)} = ${col(users, users.id)}
      and ${col(groups, groups.companyId)} = ${col(users, users.companyId)}
  ), '[]'::json)`;
}

export type GroupRow = { id: string; name: string; permissions: string[]; createdAt: Date; memberCount: number };
export type GroupKey = { name: string; id: string };

const groupColumns = {
  id: groups.id,
  name: groups.name,
  permissions: groups.permissions,
  createdAt: groups.createdAt,
  // Members count only when they are users of the group's company.
  memberCount: sql<number>`(
    select count(*)::int from ${groupMembers} join ${users} on ${col(users, users.id)} = ${col(groupMembers, groupMembers.userId)}
    where ${col(groupMembers, groupMembers.groupId)} = ${col(groups, groups.id)}
      and ${col(users, users.companyId)} = ${col(groups, groups.companyId)}
  )`.mapWith(Number),
};

function groupFilters(companyId: string, search: string | undefined): SQL[] {
  const where: SQL[] = [eq(groups.companyId, companyId)];
  for (const word of searchWords(search)) where.push(sql`strpos(lower(${groups.name}), ${word}) > 0`);
  return where;
}

/** The queries of the `groups` and `group_members` tables; others reach them through the groups service. */
export function createGroupsRepository(db: Db) {
  return {
    async list(companyId: string, search: string | undefined, after: GroupKey | undefined, limit: number) {
      const where = groupFilters(companyId, search);
      if (after) where.push(sql`(lower(${groups.name}), ${groups.id}) > (lower(${after.name}), ${after.id}::uuid)`);
      return db
        .select(groupColumns)
        .from(groups)
        .where(and(...where))
        .orderBy(sql`lower(${groups.name})`, asc(groups.id))
        .limit(limit);
    },

    async count(companyId: string, search: string | undefined): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(groups)
        .where(and(...groupFilters(companyId, search)));
      return row?.n ?? 0;
    },

    async find(companyId: string, id: string, tx: Db = db): Promise<GroupRow | undefined> {
      const [row] = await tx
        .select(groupColumns)
        .from(groups)
        .where(and(eq(groups.companyId, companyId), eq(groups.id, id)))
        .limit(1);
      return row;
    },

    /** Every group of a company with its member count, by name (the admin area's company detail). */
    async ofCompany(companyId: string) {
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

    nameTaken: (companyId: string, name: string, exceptId: string | undefined, tx: Db = db) =>
      nameTakenInCompany(tx, groups, companyId, name, exceptId),

    /** Of the given ids, those of groups of the company. */
    idsOfCompany: (companyId: string, ids: readonly string[], tx: Db = db) => idsOfCompany(tx, groups, companyId, ids),

    /** Groups of the company among the ids, with their names and permissions, sorted like a user's groups. */
    async byIds(companyId: string, ids: readonly string[], tx: Db = db) {
      if (ids.length === 0) return [];
      return tx
        .select({ id: groups.id, name: groups.name, permissions: groups.permissions })
        .from(groups)
        .where(and(eq(groups.companyId, companyId), inArray(groups.id, [...ids])))
        .orderBy(sql`lower(${groups.name})`, asc(groups.id));
    },

    /** Members of a group who are users of its company, sorted like the users list. */
    async membersOf(companyId: string, groupId: string, tx: Db = db) {
      return tx
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          passwordHash: users.passwordHash,
          disabledAt: users.disabledAt,
        })
        .from(groupMembers)
        .innerJoin(users, eq(users.id, groupMembers.userId))
        .where(and(eq(groupMembers.groupId, groupId), eq(users.companyId, companyId)))
        .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id));
    },

    async insert(
      companyId: string,
      values: { name: string; permissions: string[] },
      at: Date | undefined,
      tx: Db = db,
    ): Promise<string> {
      const [row] = await tx
        .insert(groups)
        .values({ companyId, name: values.name, permissions: values.permissions, createdAt: at })
        .returning({ id: groups.id });
      return row!.id;
    },

    async update(
      companyId: string,
      id: string,
      values: { name: string; permissions: string[] },
      tx: Db,
    ): Promise<void> {
      await tx
        .update(groups)
        .set(values)
        .where(and(eq(groups.companyId, companyId), eq(groups.id, id)));
    },

    async remove(companyId: string, id: string, tx: Db): Promise<void> {
      await tx.delete(groups).where(and(eq(groups.companyId, companyId), eq(groups.id, id)));
    },

    /** Replaces the members of a group (the caller checked that the group and the users are of the company). */
    async setMembers(groupId: string, userIds: readonly string[], tx: Db): Promise<void> {
      await tx.delete(groupMembers).where(eq(groupMembers.groupId, groupId));
      if (userIds.length > 0) {
        await tx
          .insert(groupMembers)
          .values(userIds.map((userId) => ({ groupId, userId })))
          .onConflictDoNothing();
      }
    },

    // Memberships of a user.

    /** Adds the user to the groups (already a member: left as it is). */
    async addMember(userId: string, groupIds: readonly string[], tx: Db = db): Promise<void> {
      if (groupIds.length === 0) return;
      await tx
        .insert(groupMembers)
        .values(groupIds.map((groupId) => ({ groupId, userId })))
        .onConflictDoNothing();
    },

    /** Replaces the user's memberships in groups of the company (groups of other companies are left alone). */
    async setUserGroups(companyId: string, userId: string, groupIds: readonly string[], tx: Db): Promise<void> {
      const own = tx.select({ id: groups.id }).from(groups).where(eq(groups.companyId, companyId));
      await tx.delete(groupMembers).where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, own)));
      if (groupIds.length > 0) {
        await tx
          .insert(groupMembers)
          .values(groupIds.map((groupId) => ({ groupId, userId })))
          .onConflictDoNothing();
      }
    },

    /** Groups of the company each user is in, sorted by name. */
    async groupsOfUsers(companyId: string, userIds: readonly string[], tx: Db = db) {
      const result = new Map<string, { id: string; name: string }[]>();
      if (userIds.length === 0) return result;
      const rows = await tx
        .select({ userId: groupMembers.userId, id: groups.id, name: groups.name })
        .from(groupMembers)
        .innerJoin(groups, eq(groups.id, groupMembers.groupId))
        .where(and(eq(groups.companyId, companyId), inArray(groupMembers.userId, [...userIds])))
        .orderBy(sql`lower(${groups.name})`, asc(groups.id));
      for (const r of rows) {
        const list = result.get(r.userId) ?? [];
        list.push({ id: r.id, name: r.name });
        result.set(r.userId, list);
      }
      return result;
    },

    /** Names of the user's groups of the user's own company only, as the request principal counts them. */
    async groupNames(userId: string, tx: Db = db): Promise<string[]> {
      const rows = await tx
        .select({ name: groups.name })
        .from(groupMembers)
        .innerJoin(groups, eq(groups.id, groupMembers.groupId))
        .innerJoin(users, and(eq(users.id, groupMembers.userId), eq(users.companyId, groups.companyId)))
        .where(eq(groupMembers.userId, userId));
      return rows.map((r) => r.name).sort();
    },

    /** Names and permissions of the user's groups of the given company (whatever other rows exist). */
    async memberships(userId: string, companyId: string, tx: Db = db) {
      return tx
        .select({ name: groups.name, permissions: groups.permissions })
        .from(groupMembers)
        .innerJoin(groups, eq(groups.id, groupMembers.groupId))
        .where(and(eq(groupMembers.userId, userId), eq(groups.companyId, companyId)));
    },
  };
}

export type GroupsRepository = ReturnType<typeof createGroupsRepository>;
