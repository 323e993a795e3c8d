import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { AddressBookEntryValues, AddressBookSort } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { qualified as col, searchWords } from '../../db/sql.ts';
import { addressBookEntries as book } from './address-book.table.ts';

export type AddressBookRow = typeof book.$inferSelect;
export type AddressBookFilters = {
  search?: string | undefined;
  country?: string | undefined;
  personType?: string | undefined;
};
export type AddressBookOrder = { sort: AddressBookSort; direction: 'asc' | 'desc' };

/** The sort expression of each sort: text, never null, so that (key, id) orders every row exactly once. */
const SORT_KEYS: Record<AddressBookSort, SQL> = {
  name: sql`lower(${col(book, book.name)})`,
  city: sql`coalesce(lower(${col(book, book.city)}), '')`,
  country: sql`${col(book, book.country)}`,
  createdAt: sql`(${col(book, book.createdAt)})::text`,
};

function filtersOf(companyId: string, filters: AddressBookFilters): SQL[] {
  const where: SQL[] = [eq(book.companyId, companyId)];
  for (const word of searchWords(filters.search)) {
    where.push(
      sql`strpos(lower(concat_ws(' ', ${col(book, book.name)}, ${col(book, book.displayedName)}, ${col(book, book.gln)},
        ${col(book, book.taxId)}, ${col(book, book.city)})), ${word}) > 0`,
    );
  }
  if (filters.country) where.push(eq(book.country, filters.country));
  if (filters.personType) where.push(eq(book.personType, filters.personType));
  return where;
}

export function createAddressBookRepository(db: Db) {
  return {
    /** One page in the given order, after the key of the previous page's last row. */
    async list(
      companyId: string,
      filters: AddressBookFilters,
      order: AddressBookOrder,
      after: { key: string; id: string } | undefined,
      limit: number,
    ): Promise<(AddressBookRow & { sortKey: string })[]> {
      const key = SORT_KEYS[order.sort];
      const where = filtersOf(companyId, filters);
      if (after) {
        where.push(
          order.direction === 'asc'
            ? sql`(${key}, ${col(book, book.id)}) > (${after.key}, ${after.id}::uuid)`
            : sql`(${key}, ${col(book, book.id)}) < (${after.key}, ${after.id}::uuid)`,
        );
      }
      const by = order.direction === 'asc' ? asc : desc;
      return db
        .select({ ...getTableColumns(book), sortKey: sql<string>`${key}` })
        .from(book)
        .where(and(...where))
        .orderBy(by(key), by(book.id))
        .limit(limit);
    },

    async count(companyId: string, filters: AddressBookFilters): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(book)
        .where(and(...filtersOf(companyId, filters)));
      return row?.n ?? 0;
    },

    async find(companyId: string, id: string, tx: Db = db): Promise<AddressBookRow | undefined> {
      const [row] = await tx
        .select()
        .from(book)
        .where(and(eq(book.companyId, companyId), eq(book.id, id)))
        .limit(1);
      return row;
    },

    /** Of the GLNs, those already in the company's book (except the entry being edited). */
    async glnsTaken(companyId: string, glns: readonly string[], exceptId?: string, tx: Db = db): Promise<Set<string>> {
      if (glns.length === 0) return new Set();
      const where = [eq(book.companyId, companyId), inArray(book.gln, [...glns])];
      if (exceptId) where.push(sql`${book.id} <> ${exceptId}::uuid`);
      const rows = await tx
        .select({ gln: book.gln })
        .from(book)
        .where(and(...where));
      return new Set(rows.map((r) => r.gln!));
    },

    /** The company's entries of these GLNs (the documents' enrichment), 1,000 GLNs a query. */
    async byGlns(companyId: string, glns: readonly string[], tx: Db = db): Promise<AddressBookRow[]> {
      const out: AddressBookRow[] = [];
      for (let i = 0; i < glns.length; i += 1000) {
        out.push(
          ...(await tx
            .select()
            .from(book)
            .where(and(eq(book.companyId, companyId), inArray(book.gln, glns.slice(i, i + 1000))))),
        );
      }
      return out;
    },

    async insert(companyId: string, values: AddressBookEntryValues, at: Date, tx: Db = db): Promise<AddressBookRow> {
      const [row] = await tx
        .insert(book)
        .values({ ...values, companyId, createdAt: at, updatedAt: at })
        .returning();
      return row!;
    },

    /** Inserts many entries in one statement per thousand (the import runs inside one transaction). */
    async insertMany(companyId: string, entries: readonly AddressBookEntryValues[], at: Date, tx: Db): Promise<number> {
      for (let i = 0; i < entries.length; i += 1000) {
        await tx
          .insert(book)
          .values(entries.slice(i, i + 1000).map((values) => ({ ...values, companyId, createdAt: at, updatedAt: at })));
      }
      return entries.length;
    },

    async update(
      companyId: string,
      id: string,
      values: AddressBookEntryValues,
      at: Date,
      tx: Db = db,
    ): Promise<AddressBookRow | undefined> {
      const [row] = await tx
        .update(book)
        .set({ ...values, updatedAt: at })
        .where(and(eq(book.companyId, companyId), eq(book.id, id)))
        .returning();
      return row;
    },

    async remove(companyId: string, id: string, tx: Db = db): Promise<AddressBookRow | undefined> {
      const [row] = await tx
        .delete(book)
        .where(and(eq(book.companyId, companyId), eq(book.id, id)))
        .returning();
      return row;
    },
  };
}
export type AddressBookRepository = ReturnType<typeof createAddressBookRepository>;
