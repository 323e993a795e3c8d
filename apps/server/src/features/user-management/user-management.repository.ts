import { and, asc, count, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { UserStatus } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { idsOfCompany, nameTakenInCompany, qualified as col, searchWords } from '../../db/sql.ts';
import { auditLog } from '../audit/audit.table.ts';
import { oneTimeTokens } from '../auth/auth.table.ts';
import { companies } from '../companies/companies.table.ts';
import { groupMembers, groups } from '../groups/groups.table.ts';
import { restrictionAssignments, restrictions } from '../restrictions/restrictions.table.ts';
import { users } from '../users/users.table.ts';

/** A user of a company as the lists show it, before the groups are attached. */
export type CompanyUserRow = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  telephone: string | null;
  language: string;
  passwordHash: string | null;
  disabledAt: Date | null;
  createdAt: Date;
  lastLoginAt: Date | null;
};
export type GroupRow = { id: string; name: string; permissions: string[]; createdAt: Date; memberCount: number };
export type UserFilters = {
  search?: string | undefined;
  status?: UserStatus | undefined;
  groupId?: string | undefined;
};
/** The keyset position after which a page starts: the last row of the previous page. */
export type UserKey = { lastName: string; firstName: string; id: string };
export type GroupKey = { name: string; id: string };

const toDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** The last successful login of a user: the audit index on (event, login, at) answers it per row. */
const lastLoginAt = sql<Date | string | null>`(
  select max(${col(auditLog, auditLog.at)}) from ${auditLog}
  where ${col(auditLog, auditLog.event)} = 'auth.login_succeeded'
    and ${col(auditLog, auditLog.login)} = lower(${col(users, users.email)})
    and ${col(auditLog, auditLog.subjectUserId)} = ${col(users, users.id)}
)`;

const userColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  telephone: users.telephone,
  language: users.language,
  passwordHash: users.passwordHash,
  disabledAt: users.disabledAt,
  createdAt: users.createdAt,
  lastLoginAt,
};

function statusCondition(status: UserStatus): SQL | undefined {
  if (status === 'disabled') return isNotNull(users.disabledAt);
  if (status === 'invited') return and(isNull(users.disabledAt), isNull(users.passwordHash));
  return and(isNull(users.disabledAt), isNotNull(users.passwordHash));
}

function userFilters(companyId: string, filters: UserFilters): SQL[] {
  const where: SQL[] = [eq(users.companyId, companyId)];
  for (const word of searchWords(filters.search)) {
    where.push(sql`strpos(lower(concat_ws(' ', ${users.firstName}, ${users.lastName}, ${users.email})), ${word}) > 0`);
  }
  if (filters.status) where.push(statusCondition(filters.status)!);
  if (filters.groupId) {
    where.push(
      sql`exists (select 1 from ${groupMembers} join ${groups} on ${col(groups, groups.id)} = ${col(groupMembers, groupMembers.groupId)}
        where ${col(groupMembers, groupMembers.userId)} = ${col(users, users.id)}
          and ${col(groupMembers, groupMembers.groupId)} = ${filters.groupId}
          and ${col(groups, groups.companyId)} = ${companyId})`,
    );
  }
  return where;
}

/** Users of the company holding a permission through a group of the same company. */
const holds = (companyId: string, permission: string) =>
  sql`exists (select 1 from ${groupMembers} join ${groups} on ${col(groups, groups.id)} = ${col(groupMembers, groupMembers.groupId)}
    where ${col(groupMembers, groupMembers.userId)} = ${col(users, users.id)}
      and ${col(groups, groups.companyId)} = ${companyId}
      and ${permission} = any(${col(groups, groups.permissions)}))`;

export function createUserManagementRepository(db: Db) {
  return {
    /**
     * Serialises the user-management changes of one company (row lock on the company until the transaction ends),
     * so two concurrent changes cannot together pass the lock-out guard.
     */
    async lockCompany(companyId: string, tx: Db): Promise<void> {
      await tx.execute(sql`select 1 from ${companies} where ${companies.id} = ${companyId} for update`);
    },

    /** Users who can sign in and hold both USERS_MODIFY and GROUPS_MODIFY: those who can manage the company. */
    async countManagers(companyId: string, tx: Db = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(users)
        .where(
          and(
            eq(users.companyId, companyId),
            isNull(users.disabledAt),
            isNotNull(users.passwordHash),
            isNotNull(users.emailVerifiedAt),
            holds(companyId, 'USERS_MODIFY'),
            holds(companyId, 'GROUPS_MODIFY'),
          ),
        );
      return row?.n ?? 0;
    },

    async findCompanyName(companyId: string): Promise<string | undefined> {
      const [row] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
      return row?.name;
    },

    // Users.

    async listUsers(companyId: string, filters: UserFilters, after: UserKey | undefined, limit: number, tx: Db = db) {
      const where = userFilters(companyId, filters);
      if (after) {
        where.push(
          sql`(lower(${users.lastName}), lower(${users.firstName}), ${users.id}) > (lower(${after.lastName}), lower(${after.firstName}), ${after.id}::uuid)`,
        );
      }
      const rows = await tx
        .select(userColumns)
        .from(users)
        .where(and(...where))
        .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id))
        .limit(limit);
      return rows.map((r): CompanyUserRow => ({ ...r, lastLoginAt: toDate(r.lastLoginAt) }));
    },

    async countUsers(companyId: string, filters: UserFilters): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(users)
        .where(and(...userFilters(companyId, filters)));
      return row?.n ?? 0;
    },

    async findUser(companyId: string, id: string, tx: Db = db): Promise<CompanyUserRow | undefined> {
      const [row] = await tx
        .select(userColumns)
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(users.id, id)))
        .limit(1);
      return row ? { ...row, lastLoginAt: toDate(row.lastLoginAt) } : undefined;
    },

    /** Of the given ids, those of users of the company. */
    existingUserIds: (companyId: string, ids: readonly string[], tx: Db = db) =>
      idsOfCompany(tx, users, companyId, ids),

    /** The account of an e-mail in any company (or none), for an invitation to an address that has one. */
    async findAccountByEmail(email: string, tx: Db = db) {
      const [row] = await tx
        .select({
          id: users.id,
          companyId: users.companyId,
          email: users.email,
          firstName: users.firstName,
          language: users.language,
        })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      return row;
    },

    /** Groups of the company among the ids, with their names and permissions, sorted like a user's groups. */
    async groupsByIds(companyId: string, ids: readonly string[], tx: Db = db) {
      if (ids.length === 0) return [];
      return tx
        .select({ id: groups.id, name: groups.name, permissions: groups.permissions })
        .from(groups)
        .where(and(eq(groups.companyId, companyId), inArray(groups.id, [...ids])))
        .orderBy(sql`lower(${groups.name})`, asc(groups.id));
    },

    async findUserName(id: string): Promise<{ firstName: string; lastName: string } | undefined> {
      const [row] = await db
        .select({ firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(eq(users.id, id));
      return row;
    },

    async insertInvitedUser(
      values: {
        companyId: string;
        email: string;
        firstName: string;
        lastName: string;
        language: string;
        at: Date;
      },
      tx: Db,
    ): Promise<string> {
      const [row] = await tx
        .insert(users)
        .values({
          companyId: values.companyId,
          email: values.email,
          firstName: values.firstName,
          lastName: values.lastName,
          language: values.language,
          passwordHash: null,
          emailVerifiedAt: null,
          createdAt: values.at,
          updatedAt: values.at,
        })
        .returning({ id: users.id });
      return row!.id;
    },

    async updateUser(
      companyId: string,
      id: string,
      values: Partial<Pick<typeof users.$inferInsert, 'firstName' | 'lastName' | 'telephone' | 'disabledAt'>>,
      at: Date,
      tx: Db = db,
    ): Promise<void> {
      await tx
        .update(users)
        .set({ ...values, updatedAt: at })
        .where(and(eq(users.companyId, companyId), eq(users.id, id)));
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

    /** Restrictions of the company assigned to the user directly. */
    async restrictionsOfUser(companyId: string, userId: string) {
      return db
        .select({ id: restrictions.id, name: restrictions.name })
        .from(restrictionAssignments)
        .innerJoin(restrictions, eq(restrictions.id, restrictionAssignments.restrictionId))
        .where(and(eq(restrictions.companyId, companyId), eq(restrictionAssignments.userId, userId)))
        .orderBy(sql`lower(${restrictions.name})`, asc(restrictions.id));
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

    // Invitations.

    /** Ends the user's pending invitation links, so only the newest one works. */
    async expireInvitations(userId: string, at: Date, tx: Db = db): Promise<void> {
      await tx
        .update(oneTimeTokens)
        .set({ usedAt: at })
        .where(
          and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'invite'), isNull(oneTimeTokens.usedAt)),
        );
    },

    // Groups.

    async listGroups(companyId: string, search: string | undefined, after: GroupKey | undefined, limit: number) {
      const where = groupFilters(companyId, search);
      if (after) where.push(sql`(lower(${groups.name}), ${groups.id}) > (lower(${after.name}), ${after.id}::uuid)`);
      return db
        .select(groupColumns)
        .from(groups)
        .where(and(...where))
        .orderBy(sql`lower(${groups.name})`, asc(groups.id))
        .limit(limit);
    },

    async countGroups(companyId: string, search: string | undefined): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(groups)
        .where(and(...groupFilters(companyId, search)));
      return row?.n ?? 0;
    },

    async findGroup(companyId: string, id: string, tx: Db = db): Promise<GroupRow | undefined> {
      const [row] = await tx
        .select(groupColumns)
        .from(groups)
        .where(and(eq(groups.companyId, companyId), eq(groups.id, id)))
        .limit(1);
      return row;
    },

    groupNameTaken: (companyId: string, name: string, exceptId: string | undefined, tx: Db = db) =>
      nameTakenInCompany(tx, groups, companyId, name, exceptId),

    /** Of the given ids, those of groups of the company. */
    existingGroupIds: (companyId: string, ids: readonly string[], tx: Db = db) =>
      idsOfCompany(tx, groups, companyId, ids),

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

    async insertGroup(
      companyId: string,
      values: { name: string; permissions: string[] },
      at: Date,
      tx: Db,
    ): Promise<string> {
      const [row] = await tx
        .insert(groups)
        .values({ companyId, name: values.name, permissions: values.permissions, createdAt: at })
        .returning({ id: groups.id });
      return row!.id;
    },

    async updateGroup(
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

    async deleteGroup(companyId: string, id: string, tx: Db): Promise<void> {
      await tx.delete(groups).where(and(eq(groups.companyId, companyId), eq(groups.id, id)));
    },

    /** Replaces the members of a group (the caller checked that the group and the users are of the company). */
    async setGroupMembers(groupId: string, userIds: readonly string[], tx: Db): Promise<void> {
      await tx.delete(groupMembers).where(eq(groupMembers.groupId, groupId));
      if (userIds.length > 0) {
        await tx
          .insert(groupMembers)
          .values(userIds.map((userId) => ({ groupId, userId })))
          .onConflictDoNothing();
      }
    },
  };
}

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

export type UserManagementRepository = ReturnType<typeof createUserManagementRepository>;
