import { and, asc, count, desc, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PartnerSort } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { qualified as col, searchWords } from '../../db/sql.ts';
import { partners, type PartnerNotificationRow } from './partners.table.ts';

export type PartnerRow = typeof partners.$inferSelect;
export type PartnerValues = {
  name: string;
  linkedCompanyId: string | null;
  vatId: string | null;
  country: string | null;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  status: string;
  testMode: boolean;
  edifactDirectory: string;
  syntaxIdentifier: string;
  una: boolean;
  docTypesIn: string[];
  docTypesOut: string[];
};
/**
 * Which partners a reader may see: each list is one restriction's partners (ids or GLNs), and a partner must be in
 * every list (restrictions narrow). No lists: every partner of the company.
 */
export type PartnerScope = readonly (readonly string[])[];
export type PartnerFilters = {
  search?: string | undefined;
  status?: string | undefined;
  testMode?: boolean | undefined;
};
export type PartnerOrder = { sort: PartnerSort; direction: 'asc' | 'desc' };

/** The sort expression of each sort: text, never null, so that (key, id) orders every row exactly once. */
const SORT_KEYS: Record<PartnerSort, SQL> = {
  name: sql`lower(${col(partners, partners.name)})`,
  gln: sql`${col(partners, partners.gln)}`,
  status: sql`${col(partners, partners.status)}`,
  createdAt: sql`(${col(partners, partners.createdAt)})::text`,
  lastExchangeAt: sql`coalesce((${col(partners, partners.lastExchangeAt)})::text, '')`,
};

function scoped(companyId: string, scope: PartnerScope): SQL[] {
  const where: SQL[] = [eq(partners.companyId, companyId)];
  for (const list of scope) {
    // Ids are uuids, GLNs digits: the id compared as text, so a GLN in the list never fails a uuid cast.
    where.push(or(inArray(sql`${partners.id}::text`, [...list]), inArray(partners.gln, [...list]))!);
  }
  return where;
}

function filtersOf(companyId: string, scope: PartnerScope, filters: PartnerFilters): SQL[] {
  const where = scoped(companyId, scope);
  for (const word of searchWords(filters.search)) {
    where.push(
      sql`strpos(lower(concat_ws(' ', ${col(partners, partners.name)}, ${col(partners, partners.gln)},
        ${col(partners, partners.vatId)})), ${word}) > 0`,
    );
  }
  if (filters.status) where.push(eq(partners.status, filters.status));
  if (filters.testMode !== undefined) where.push(eq(partners.testMode, filters.testMode));
  return where;
}

export function createPartnersRepository(db: Db) {
  return {
    /** One page in the given order, after the key of the previous page's last row. */
    async list(
      companyId: string,
      scope: PartnerScope,
      filters: PartnerFilters,
      order: PartnerOrder,
      after: { key: string; id: string } | undefined,
      limit: number,
    ): Promise<(PartnerRow & { sortKey: string })[]> {
      const key = SORT_KEYS[order.sort];
      const where = filtersOf(companyId, scope, filters);
      if (after) {
        where.push(
          order.direction === 'asc'
            ? sql`(${key}, ${col(partners, partners.id)}) > (${after.key}, ${after.id}::uuid)`
            : sql`(${key}, ${col(partners, partners.id)}) < (${after.key}, ${after.id}::uuid)`,
        );
      }
      const by = order.direction === 'asc' ? asc : desc;
      return db
        .select({ ...getTableColumns(partners), sortKey: sql<string>`${key}` })
        .from(partners)
        .where(and(...where))
        .orderBy(by(key), by(partners.id))
        .limit(limit);
    },

    async count(companyId: string, scope: PartnerScope, filters: PartnerFilters): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(partners)
        .where(and(...filtersOf(companyId, scope, filters)));
      return row?.n ?? 0;
    },

    async find(companyId: string, scope: PartnerScope, id: string, tx: Db = db): Promise<PartnerRow | undefined> {
      const [row] = await tx
        .select()
        .from(partners)
        .where(and(...scoped(companyId, scope), eq(partners.id, id)))
        .limit(1);
      return row;
    },

    /** The company's partners of these ids (at most a page of them). */
    async findByIds(companyId: string, ids: readonly string[], tx: Db = db): Promise<PartnerRow[]> {
      if (ids.length === 0) return [];
      return tx
        .select()
        .from(partners)
        .where(and(eq(partners.companyId, companyId), inArray(partners.id, [...ids])));
    },

    /** The company's partners of these GLNs (the documents' enrichment), 1,000 GLNs a query. */
    async byGlns(companyId: string, glns: readonly string[], tx: Db = db): Promise<PartnerRow[]> {
      const out: PartnerRow[] = [];
      for (let i = 0; i < glns.length; i += 1000) {
        out.push(
          ...(await tx
            .select()
            .from(partners)
            .where(and(eq(partners.companyId, companyId), inArray(partners.gln, glns.slice(i, i + 1000))))),
        );
      }
      return out;
    },

    async findByGln(companyId: string, gln: string, tx: Db = db): Promise<PartnerRow | undefined> {
      const [row] = await tx
        .select()
        .from(partners)
        .where(and(eq(partners.companyId, companyId), eq(partners.gln, gln)))
        .limit(1);
      return row;
    },

    async insert(
      companyId: string,
      gln: string,
      values: PartnerValues,
      at: Date,
      tx: Db = db,
      lastExchangeAt: Date | null = null,
    ): Promise<PartnerRow> {
      const [row] = await tx
        .insert(partners)
        .values({ ...values, companyId, gln, createdAt: at, updatedAt: at, lastExchangeAt })
        .returning();
      return row!;
    },

    /**
     * The partner of a GLN met in a document's exchange: created with the values given when the company has none
     * (two documents at once meet the unique index and the second updates), its last exchange moved forward.
     */
    async upsertExchange(
      companyId: string,
      gln: string,
      values: PartnerValues,
      at: Date,
      tx: Db = db,
    ): Promise<PartnerRow & { inserted: boolean }> {
      const [row] = await tx
        .insert(partners)
        .values({ ...values, companyId, gln, createdAt: at, updatedAt: at, lastExchangeAt: at })
        .onConflictDoUpdate({
          target: [partners.companyId, partners.gln],
          set: {
            lastExchangeAt: sql`greatest(${col(partners, partners.lastExchangeAt)}, excluded.last_exchange_at)`,
            // A linked partner's copy of its company's name follows the company.
            name: sql`case when ${col(partners, partners.linkedCompanyId)} is not null
              and excluded.linked_company_id = ${col(partners, partners.linkedCompanyId)}
              then excluded.name else ${col(partners, partners.name)} end`,
          },
        })
        .returning({ ...getTableColumns(partners), inserted: sql<boolean>`(xmax = 0)` });
      return row!;
    },

    async update(
      companyId: string,
      id: string,
      values: Partial<PartnerValues>,
      at: Date,
      tx: Db = db,
    ): Promise<PartnerRow | undefined> {
      const [row] = await tx
        .update(partners)
        .set({ ...values, updatedAt: at })
        .where(and(eq(partners.companyId, companyId), eq(partners.id, id)))
        .returning();
      return row;
    },

    async setNotifications(
      companyId: string,
      id: string,
      notifications: PartnerNotificationRow[],
      at: Date,
      tx: Db = db,
    ): Promise<PartnerRow | undefined> {
      const [row] = await tx
        .update(partners)
        .set({ notifications, updatedAt: at })
        .where(and(eq(partners.companyId, companyId), eq(partners.id, id)))
        .returning();
      return row;
    },

    async remove(companyId: string, id: string, tx: Db = db): Promise<PartnerRow | undefined> {
      const [row] = await tx
        .delete(partners)
        .where(and(eq(partners.companyId, companyId), eq(partners.id, id)))
        .returning();
      return row;
    },
  };
}
export type PartnersRepository = ReturnType<typeof createPartnersRepository>;
