import type { Product, ProductsImportResult, ProductsPage, ProductsQuery, ProductValues } from '@portal/contracts';
import { DEFAULT_CURRENCY, DEFAULT_UNIT, PRODUCT_FIELDS, PRODUCT_SORTS } from '@portal/contracts';
import type { CanonicalDocument, CatalogueItem } from '@portal/documents';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import type { CpuPool } from '../../cpu/pool.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf } from '../../lib/company-scope.ts';
import { decodeCursor, takePage, uuid, type KeyPart } from '../../lib/keyset.ts';
import { applyCsvImport, csvExportRows } from '../../lib/csv-import.ts';
import { productsFromPriceCatalogue, type SkippedLine } from './products.pricat.ts';
import { createProductsRepository, type ProductRow, type ProductsRepository } from './products.repository.ts';

export type ProductsCaller = { userId: string; companyId: string | null };

const gtinTaken = () => new AppError('products.gtin_taken', { details: [{ field: 'gtin', code: 'gtinTaken' }] });

/** numeric(19, 4) reads back as `12.5000`: shown with the insignificant zeros cut, keeping two decimals. */
export function priceText(value: string | null): string | null {
  if (value === null) return null;
  const [whole, fraction = ''] = value.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    gtin: row.gtin,
    supplierArticleNumber: row.supplierArticleNumber,
    buyerArticleNumber: row.buyerArticleNumber,
    description: row.description,
    unit: row.unit,
    price: priceText(row.price),
    currency: row.currency,
    vatRate: row.vatRate,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const valuesOf = (row: ProductRow): ProductValues => ({
  gtin: row.gtin,
  supplierArticleNumber: row.supplierArticleNumber,
  buyerArticleNumber: row.buyerArticleNumber,
  description: row.description,
  unit: row.unit,
  price: priceText(row.price),
  currency: row.currency,
  vatRate: row.vatRate,
});

/** What filling from a price catalogue did. */
export type PriceCatalogueFill = { created: number; updated: number; skipped: SkippedLine[] };

const SORT_NAMES: KeyPart = (part) => (PRODUCT_SORTS as readonly string[]).includes(part);
const ORDERS: KeyPart = (part) => part === 'asc' || part === 'desc';
const SORT_VALUE: KeyPart = (part) => part.length <= 400;

export function createProductsService(deps: {
  db: Db;
  /** The database's by default; a test may pass another. */
  repo?: ProductsRepository;
  clock: Clock;
  /** For the CSV import; the demo seed, which only fills products, has none. */
  cpu?: CpuPool;
}) {
  const { db, clock, cpu } = deps;
  const repo = deps.repo ?? createProductsRepository(db);

  const inTransaction = <T>(run: (tx: Db) => Promise<T>, tx?: Db): Promise<T> =>
    (tx ? run(tx) : db.transaction((t) => run(t as unknown as Db))).catch((error: unknown) => {
      // Two saves of one GTIN at the same moment: the unique index answers like the check.
      if (isUniqueViolation(error)) throw gtinTaken();
      throw error;
    });

  return {
    async list(caller: ProductsCaller, query: ProductsQuery): Promise<ProductsPage> {
      const q = query;
      const companyId = companyOf(caller);
      // The cursor carries its sort, so that a cursor of one order is never read as a position in another.
      const key = decodeCursor(q.cursor, [SORT_NAMES, ORDERS, SORT_VALUE, uuid]);
      if (key && (key[0] !== q.sort || key[1] !== q.order)) {
        throw new AppError('validation.failed', { details: [{ field: 'cursor', code: 'cursor' }] });
      }
      const after = key ? { key: key[2]!, id: key[3]! } : undefined;
      const filters = { search: q.search };
      const rows = await repo.list(companyId, filters, { sort: q.sort, direction: q.order }, after, q.limit + 1);
      const page = takePage(rows, q.limit, (r) => [q.sort, q.order, r.sortKey, r.id]);
      return {
        items: page.rows.map(toProduct),
        nextCursor: page.nextCursor,
        ...(q.includeTotal ? { total: await repo.count(companyId, filters) } : {}),
      };
    },

    async get(caller: ProductsCaller, id: string): Promise<Product> {
      const row = await repo.find(companyOf(caller), id);
      if (!row) throw notFound();
      return toProduct(row);
    },

    async create(caller: ProductsCaller, input: ProductValues): Promise<Product> {
      const companyId = companyOf(caller);
      return inTransaction(async (tx) => {
        if (input.gtin && (await repo.byGtins(companyId, [input.gtin], undefined, tx)).size > 0) throw gtinTaken();
        return toProduct(await repo.insert(companyId, input, clock.now(), tx));
      });
    },

    async update(caller: ProductsCaller, id: string, input: ProductValues): Promise<Product> {
      const companyId = companyOf(caller);
      return inTransaction(async (tx) => {
        if (!(await repo.find(companyId, id, tx))) throw notFound();
        if (input.gtin && (await repo.byGtins(companyId, [input.gtin], id, tx)).size > 0) throw gtinTaken();
        return toProduct((await repo.update(companyId, id, input, clock.now(), tx))!);
      });
    },

    async remove(caller: ProductsCaller, id: string): Promise<void> {
      const companyId = companyOf(caller);
      await inTransaction(async (tx) => {
        if (!(await repo.remove(companyId, id, tx))) throw notFound();
      });
    },

    /**
     * Reads a CSV on the CPU pool, then, unless it is a dry run or any row has a problem, saves every product in one
     * transaction: all or nothing, as the address book's import. A GTIN already in the catalogue is a problem.
     */
    async import(caller: ProductsCaller, bytes: Uint8Array, dryRun: boolean): Promise<ProductsImportResult> {
      const companyId = companyOf(caller);
      if (!cpu) throw new Error('The products service has no CPU pool');
      const parsed = await cpu.run({ name: 'products.parseCsv', bytes });
      return applyCsvImport({
        parsed,
        dryRun,
        db,
        inTransaction: (run) => inTransaction(run),
        existing: {
          field: 'gtin',
          code: 'gtinTaken',
          find: (gtins, tx) => repo.byGtins(companyId, gtins, undefined, tx),
        },
        invalid: 'products.import_invalid',
        save: (values, tx) => repo.insertMany(companyId, values, clock.now(), tx),
      });
    },

    /** The whole catalogue as CSV rows (header first), read in keyset pages so memory stays flat. */
    async *exportRows(caller: ProductsCaller): AsyncGenerator<string[]> {
      const companyId = companyOf(caller);
      const page = (after: { key: string; id: string } | undefined, limit: number) =>
        repo.list(companyId, {}, { sort: 'description', direction: 'asc' }, after, limit);
      yield* csvExportRows(PRODUCT_FIELDS, page, valuesOf);
    },

    /** Adds products as given, already checked (the demo seed's catalogue), in the caller's transaction. */
    async addMany(companyId: string, values: readonly ProductValues[], tx: Db): Promise<number> {
      return repo.insertMany(companyId, values, clock.now(), tx);
    },

    /**
     * Fills the company's products from a received price catalogue (PRICAT, kind `price_catalogue`): each line with a
     * valid GTIN updates the product of that GTIN with what the line gives, or adds one (which needs a description).
     * For the documents' ingest to call in its transaction (`tx`); other kinds change nothing.
     */
    /** The company's products of these GTINs, for a form's lines (the drafts' turnaround fills what a source lacks). */
    async catalogue(companyId: string, gtins: readonly string[]): Promise<Map<string, CatalogueItem>> {
      const rows = await repo.byGtins(companyId, [...new Set(gtins)].slice(0, 1000));
      return new Map(
        [...rows.values()].map((row) => [
          row.gtin!,
          {
            description: row.description,
            ...(row.supplierArticleNumber ? { supplierArticleNumber: row.supplierArticleNumber } : {}),
            unit: row.unit,
            ...(row.price === null ? {} : { price: priceText(row.price)! }),
            ...(row.vatRate === null ? {} : { vatRate: row.vatRate }),
          },
        ]),
      );
    },

    async fillFromPriceCatalogue(companyId: string, body: CanonicalDocument, tx?: Db): Promise<PriceCatalogueFill> {
      if (body.kind !== 'price_catalogue') return { created: 0, updated: 0, skipped: [] };
      const { patches, skipped } = productsFromPriceCatalogue(body);
      return inTransaction(async (t) => {
        const existing = await repo.byGtins(
          companyId,
          patches.map((p) => p.gtin),
          undefined,
          t,
        );
        const at = clock.now();
        const fresh: ProductValues[] = [];
        let updated = 0;
        for (const patch of patches) {
          const row = existing.get(patch.gtin);
          if (row) {
            await repo.update(companyId, row.id, { ...valuesOf(row), ...patch }, at, t);
            updated++;
          } else if (patch.description) {
            fresh.push({
              supplierArticleNumber: null,
              buyerArticleNumber: null,
              unit: DEFAULT_UNIT,
              price: null,
              currency: DEFAULT_CURRENCY,
              vatRate: null,
              ...patch,
              description: patch.description,
            });
          } else {
            skipped.push({ lineNumber: null, gtin: patch.gtin, reason: 'descriptionMissing' });
          }
        }
        const created = fresh.length > 0 ? await repo.insertMany(companyId, fresh, at, t) : 0;
        return { created, updated, skipped };
      }, tx);
    },
  };
}
export type ProductsService = ReturnType<typeof createProductsService>;
