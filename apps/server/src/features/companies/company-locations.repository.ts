import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { CompanyLocationKind, CompanyLocationValues } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { qualified as col, searchWords } from '../../db/sql.ts';
import { companies } from './companies.table.ts';
import { companyLocations as loc } from './company-locations.table.ts';

export type CompanyLocationRow = typeof loc.$inferSelect;
export type CompanyLocationFilters = { search?: string | undefined; kind?: CompanyLocationKind | undefined };

function filtersOf(companyId: string, filters: CompanyLocationFilters): SQL[] {
  const where: SQL[] = [eq(loc.companyId, companyId)];
  for (const word of searchWords(filters.search)) {
    where.push(
      sql`strpos(lower(concat_ws(' ', ${col(loc, loc.gln)}, ${col(loc, loc.name)}, ${col(loc, loc.city)},
        ${col(loc, loc.code)})), ${word}) > 0`,
    );
  }
  if (filters.kind) where.push(eq(loc.kind, filters.kind));
  return where;
}

/** The queries of the `company_locations` table (GLNs and delivery points); only the companies service calls them. */
export function createCompanyLocationsRepository(db: Db) {
  return {
    /** One page ordered by kind (company GLNs first), then GLN, after the previous page's last (kind, gln). */
    async list(
      companyId: string,
      filters: CompanyLocationFilters,
      after: { kind: string; gln: string } | undefined,
      limit: number,
    ): Promise<CompanyLocationRow[]> {
      const where = filtersOf(companyId, filters);
      if (after) where.push(sql`(${loc.kind}, ${loc.gln}) > (${after.kind}, ${after.gln})`);
      return db
        .select()
        .from(loc)
        .where(and(...where))
        .orderBy(asc(loc.kind), asc(loc.gln))
        .limit(limit);
    },

    async count(companyId: string, filters: CompanyLocationFilters = {}, tx: Db = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(loc)
        .where(and(...filtersOf(companyId, filters)));
      return row?.n ?? 0;
    },

    async find(companyId: string, gln: string, tx: Db = db): Promise<CompanyLocationRow | undefined> {
      const [row] = await tx
        .select()
        .from(loc)
        .where(and(eq(loc.companyId, companyId), eq(loc.gln, gln)))
        .limit(1);
      return row;
    },

    /** The company a GLN belongs to (its own GLN or one of its delivery points), on the whole platform. */
    async findOwner(gln: string, tx: Db = db): Promise<{ id: string; name: string } | undefined> {
      const [row] = await tx
        .select({ id: companies.id, name: companies.name })
        .from(loc)
        .innerJoin(companies, eq(companies.id, loc.companyId))
        .where(eq(loc.gln, gln))
        .limit(1);
      return row;
    },

    async insert(companyId: string, values: CompanyLocationValues, at: Date, tx: Db = db): Promise<CompanyLocationRow> {
      const [row] = await tx
        .insert(loc)
        .values({ ...values, companyId, createdAt: at })
        .returning();
      return row!;
    },

    /** Replaces a location, its GLN included (the GLN is the key, so a new one moves the row). */
    async update(
      companyId: string,
      gln: string,
      values: CompanyLocationValues,
      tx: Db = db,
    ): Promise<CompanyLocationRow | undefined> {
      const [row] = await tx
        .update(loc)
        .set(values)
        .where(and(eq(loc.companyId, companyId), eq(loc.gln, gln)))
        .returning();
      return row;
    },

    async remove(companyId: string, gln: string, tx: Db = db): Promise<CompanyLocationRow | undefined> {
      const [row] = await tx
        .delete(loc)
        .where(and(eq(loc.companyId, companyId), eq(loc.gln, gln)))
        .returning();
      return row;
    },
  };
}
export type CompanyLocationsRepository = ReturnType<typeof createCompanyLocationsRepository>;
