import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { likePattern } from '../../db/sql.ts';
import { companies } from './companies.table.ts';

export type CompanyRow = typeof companies.$inferSelect;
export type NewCompany = typeof companies.$inferInsert;
export type CompanyListRow = CompanyRow & { userCount: number };
export type CompanyPageRow = CompanyListRow & { sortKey: string };

// Correlated subqueries name their tables outright: Drizzle renders a bare column name inside sql``.
const userCount = sql<number>`(select count(*)::int from "users" as "u" where "u"."company_id" = "companies"."id")`;

/** The queries of the `companies` table; every other feature reaches it through the companies service. */
export function createCompaniesRepository(db: Db) {
  return {
    async find(id: string, tx: Db = db): Promise<CompanyRow | undefined> {
      const [row] = await tx.select().from(companies).where(eq(companies.id, id)).limit(1);
      return row;
    },
    /** The names of these companies by id (a list shows the current name of the companies it links to). */
    async namesOf(ids: readonly string[], tx: Db = db): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(inArray(companies.id, [...new Set(ids)]));
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    async insert(values: NewCompany, tx: Db = db): Promise<CompanyRow> {
      const [row] = await tx.insert(companies).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<NewCompany>, tx: Db = db): Promise<CompanyRow | undefined> {
      const [row] = await tx.update(companies).set(values).where(eq(companies.id, id)).returning();
      return row;
    },
    async startWorkingWindow(companyId: string, start: Date): Promise<void> {
      await db.update(companies).set({ restrictionWorkingStart: start }).where(eq(companies.id, companyId));
    },
    /**
     * Serialises changes of one company (row lock on the company until the transaction ends), so two concurrent
     * changes cannot together break an invariant of the company (the lock-out guard).
     */
    async lock(companyId: string, tx: Db): Promise<void> {
      await tx.execute(sql`select 1 from ${companies} where ${companies.id} = ${companyId} for update`);
    },

    // The admin area's list, ordered by lower(name), id.
    async list(filter: {
      search?: string | undefined;
      after?: string[] | undefined;
      limit: number;
    }): Promise<CompanyPageRow[]> {
      const where: SQL[] = [];
      if (filter.search) {
        const p = likePattern(filter.search);
        where.push(
          or(
            sql`${companies.name} ilike ${p}`,
            sql`${companies.vatId} ilike ${p}`,
            sql`${companies.taxId} ilike ${p}`,
          )!,
        );
      }
      if (filter.after) {
        const [name, id] = filter.after;
        where.push(sql`(lower(${companies.name}), ${companies.id}) > (${name}, ${id}::uuid)`);
      }
      return db
        .select({ ...companyColumns(), userCount, sortKey: sql<string>`lower(${companies.name})` })
        .from(companies)
        .where(where.length ? and(...where) : undefined)
        .orderBy(sql`lower(${companies.name})`, asc(companies.id))
        .limit(filter.limit + 1);
    },
    async findWithUserCount(id: string, tx: Db = db): Promise<CompanyListRow | undefined> {
      const [row] = await tx
        .select({ ...companyColumns(), userCount })
        .from(companies)
        .where(eq(companies.id, id))
        .limit(1);
      return row;
    },
  };
}

function companyColumns() {
  return {
    id: companies.id,
    name: companies.name,
    vatId: companies.vatId,
    taxId: companies.taxId,
    country: companies.country,
    profile: companies.profile,
    loginStatus: companies.loginStatus,
    restrictionWaitTime: companies.restrictionWaitTime,
    restrictionWorkingTime: companies.restrictionWorkingTime,
    restrictionWorkingStart: companies.restrictionWorkingStart,
    restrictionMessage: companies.restrictionMessage,
    toggles: companies.toggles,
    overduePayment: companies.overduePayment,
    createdAt: companies.createdAt,
    updatedAt: companies.updatedAt,
  };
}

export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
