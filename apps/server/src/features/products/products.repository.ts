import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { ProductSort, ProductValues } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { qualified as col, searchWords } from '../../db/sql.ts';
import { products } from './products.table.ts';

export type ProductRow = typeof products.$inferSelect;
export type ProductFilters = { search?: string | undefined };
export type ProductOrder = { sort: ProductSort; direction: 'asc' | 'desc' };

/** The sort expression of each sort: text, never null, so that (key, id) orders every row exactly once. */
const SORT_KEYS: Record<ProductSort, SQL> = {
  description: sql`lower(${col(products, products.description)})`,
  gtin: sql`coalesce(${col(products, products.gtin)}, '')`,
  supplierArticleNumber: sql`coalesce(lower(${col(products, products.supplierArticleNumber)}), '')`,
  createdAt: sql`(${col(products, products.createdAt)})::text`,
};

function filtersOf(companyId: string, filters: ProductFilters): SQL[] {
  const where: SQL[] = [eq(products.companyId, companyId)];
  for (const word of searchWords(filters.search)) {
    where.push(
      sql`strpos(lower(concat_ws(' ', ${col(products, products.gtin)}, ${col(products, products.supplierArticleNumber)},
        ${col(products, products.buyerArticleNumber)}, ${col(products, products.description)})), ${word}) > 0`,
    );
  }
  return where;
}

const rowOf = (companyId: string, values: ProductValues, at: Date) => ({
  ...values,
  companyId,
  createdAt: at,
  updatedAt: at,
});

export function createProductsRepository(db: Db) {
  return {
    /** One page in the given order, after the key of the previous page's last row. */
    async list(
      companyId: string,
      filters: ProductFilters,
      order: ProductOrder,
      after: { key: string; id: string } | undefined,
      limit: number,
    ): Promise<(ProductRow & { sortKey: string })[]> {
      const key = SORT_KEYS[order.sort];
      const where = filtersOf(companyId, filters);
      if (after) {
        where.push(
          order.direction === 'asc'
            ? sql`(${key}, ${col(products, products.id)}) > (${after.key}, ${after.id}::uuid)`
            : sql`(${key}, ${col(products, products.id)}) < (${after.key}, ${after.id}::uuid)`,
        );
      }
      const by = order.direction === 'asc' ? asc : desc;
      return db
        .select({ ...getTableColumns(products), sortKey: sql<string>`${key}` })
        .from(products)
        .where(and(...where))
        .orderBy(by(key), by(products.id))
        .limit(limit);
    },

    async count(companyId: string, filters: ProductFilters): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(products)
        .where(and(...filtersOf(companyId, filters)));
      return row?.n ?? 0;
    },

    async find(companyId: string, id: string, tx: Db = db): Promise<ProductRow | undefined> {
      const [row] = await tx
        .select()
        .from(products)
        .where(and(eq(products.companyId, companyId), eq(products.id, id)))
        .limit(1);
      return row;
    },

    /** The company's products of these GTINs (except the one being edited), by GTIN. */
    async byGtins(
      companyId: string,
      gtins: readonly string[],
      exceptId?: string,
      tx: Db = db,
    ): Promise<Map<string, ProductRow>> {
      if (gtins.length === 0) return new Map();
      const where = [eq(products.companyId, companyId), inArray(products.gtin, [...gtins])];
      if (exceptId) where.push(sql`${products.id} <> ${exceptId}::uuid`);
      const rows = await tx
        .select()
        .from(products)
        .where(and(...where));
      return new Map(rows.map((row) => [row.gtin!, row]));
    },

    async insert(companyId: string, values: ProductValues, at: Date, tx: Db = db): Promise<ProductRow> {
      const [row] = await tx
        .insert(products)
        .values(rowOf(companyId, values, at))
        .returning();
      return row!;
    },

    /** Inserts many products in one statement per thousand (the import runs inside one transaction). */
    async insertMany(companyId: string, entries: readonly ProductValues[], at: Date, tx: Db): Promise<number> {
      for (let i = 0; i < entries.length; i += 1000) {
        await tx.insert(products).values(entries.slice(i, i + 1000).map((values) => rowOf(companyId, values, at)));
      }
      return entries.length;
    },

    async update(
      companyId: string,
      id: string,
      values: ProductValues,
      at: Date,
      tx: Db = db,
    ): Promise<ProductRow | undefined> {
      const [row] = await tx
        .update(products)
        .set({ ...values, updatedAt: at })
        .where(and(eq(products.companyId, companyId), eq(products.id, id)))
        .returning();
      return row;
    },

    async remove(companyId: string, id: string, tx: Db = db): Promise<ProductRow | undefined> {
      const [row] = await tx
        .delete(products)
        .where(and(eq(products.companyId, companyId), eq(products.id, id)))
        .returning();
      return row;
    },
  };
}
export type ProductsRepository = ReturnType<typeof createProductsRepository>;
