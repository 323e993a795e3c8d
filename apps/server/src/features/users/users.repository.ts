import { and, asc, count, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { UserStatus } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { idsOfCompany, likePattern, qualified as col, searchWords } from '../../db/sql.ts';
import { auditLog } from '../audit/audit.table.ts';
import { companies } from '../companies/companies.table.ts';
import { groupMembers, groups } from '../groups/groups.table.ts';
import { userListColumns, users } from './users.table.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type UserWithCompanyName = UserRow & { companyName: string | null };
export type UserPageRow = UserWithCompanyName & { sortKey: string };

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
export type UserFilters = {
  search?: string | undefined;
  status?: UserStatus | undefined;
  groupId?: string | undefined;
};
/** The keyset position after which a page starts: the last row of the previous page. */
export type UserKey = { lastName: string; firstName: string; id: string };

const toDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** The last successful login of a user: the audit index on (event, login, at) answers it per row. */
const lastLoginAt = sql<Date | string | null>`(
  select max(${col(auditLog, auditLog.at)}) from ${auditLog}
  where ${col(auditLog, auditLog.event)} = 'auth.login_succeeded'
    and ${col(auditLog, auditLog.login)} = lower(${col(users, users.email)})
    and ${col(auditLog, auditLog.subjectUserId)} = ${col(users, users.id)}
)`;

const companyUserColumns = {
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

function companyUserFilters(companyId: string, filters: UserFilters): SQL[] {
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

/** The queries of the `users` table; every other feature reaches it through the users service. */
export function createUsersRepository(db: Db) {
  return {
    async findById(id: string, tx: Db = db): Promise<UserRow | undefined> {
      const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    /** E-mail addresses are unique regardless of case. */
    async findByEmail(email: string, tx: Db = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
        .limit(1);
      return row;
    },
    /**
     * The read of the user of an access token (the placeholder `userId`), with their company and what other owners
     * add as correlated subqueries over this `users` row (the session's liveness, the groups, the restrictions): the
     * authentication hook's one round trip per request (decision 0043). A named statement, so PostgreSQL parses and
     * plans it once per connection rather than on every request (planning was most of its cost).
     */
    preparePrincipal<Extras extends Record<string, SQL>>(name: string, extras: Extras) {
      const query = db
        .select({
          user: {
            email: users.email,
            companyId: users.companyId,
            roles: users.roles,
            language: users.language,
            disabledAt: users.disabledAt,
            emailVerifiedAt: users.emailVerifiedAt,
          },
          company: companies,
          ...extras,
        })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, sql.placeholder('userId')))
        .limit(1)
        .prepare(name);
      return async (params: { userId: string } & Record<string, unknown>) => (await query.execute(params))[0];
    },
    async findWithCompanyName(id: string, tx: Db = db): Promise<UserWithCompanyName | undefined> {
      const [row] = await tx
        .select({ user: users, companyName: companies.name })
        .from(users)
        .leftJoin(companies, eq(companies.id, users.companyId))
        .where(eq(users.id, id))
        .limit(1);
      return row ? { ...row.user, companyName: row.companyName } : undefined;
    },
    async insert(values: NewUser, tx: Db = db): Promise<UserRow> {
      const [row] = await tx.insert(users).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<NewUser>, tx: Db = db): Promise<void> {
      await tx.update(users).set(values).where(eq(users.id, id));
    },

    // All users (the admin area), ordered by lower(email), id.
    async list(filter: {
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

    // Users of one company (user management).

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

    async listOfCompany(
      companyId: string,
      filters: UserFilters,
      after: UserKey | undefined,
      limit: number,
      tx: Db = db,
    ): Promise<CompanyUserRow[]> {
      const where = companyUserFilters(companyId, filters);
      if (after) {
        where.push(
          sql`(lower(${users.lastName}), lower(${users.firstName}), ${users.id}) > (lower(${after.lastName}), lower(${after.firstName}), ${after.id}::uuid)`,
        );
      }
      const rows = await tx
        .select(companyUserColumns)
        .from(users)
        .where(and(...where))
        .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id))
        .limit(limit);
      return rows.map((r): CompanyUserRow => ({ ...r, lastLoginAt: toDate(r.lastLoginAt) }));
    },

    async countOfCompany(companyId: string, filters: UserFilters): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(users)
        .where(and(...companyUserFilters(companyId, filters)));
      return row?.n ?? 0;
    },

    async findOfCompany(companyId: string, id: string, tx: Db = db): Promise<CompanyUserRow | undefined> {
      const [row] = await tx
        .select(companyUserColumns)
        .from(users)
        .where(and(eq(users.companyId, companyId), eq(users.id, id)))
        .limit(1);
      return row ? { ...row, lastLoginAt: toDate(row.lastLoginAt) } : undefined;
    },

    /** The columns a user chose for a list, or undefined when they kept the defaults. */
    async findListColumns(userId: string, list: string, tx: Db = db): Promise<string[] | undefined> {
      const [row] = await tx
        .select({ columns: userListColumns.columns })
        .from(userListColumns)
        .where(and(eq(userListColumns.userId, userId), eq(userListColumns.list, list)))
        .limit(1);
      return row?.columns;
    },
    async saveListColumns(userId: string, list: string, columns: string[], at: Date, tx: Db = db): Promise<void> {
      await tx
        .insert(userListColumns)
        .values({ userId, list, columns, updatedAt: at })
        .onConflictDoUpdate({
          target: [userListColumns.userId, userListColumns.list],
          set: { columns, updatedAt: at },
        });
    },

    /** Of the given ids, those of users of the company. */
    idsOfCompany: (companyId: string, ids: readonly string[], tx: Db = db) => idsOfCompany(tx, users, companyId, ids),

    async updateOfCompany(
      companyId: string,
      id: string,
      values: Partial<Pick<NewUser, 'firstName' | 'lastName' | 'telephone' | 'disabledAt'>>,
      at: Date,
      tx: Db = db,
    ): Promise<void> {
      await tx
        .update(users)
        .set({ ...values, updatedAt: at })
        .where(and(eq(users.companyId, companyId), eq(users.id, id)));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
