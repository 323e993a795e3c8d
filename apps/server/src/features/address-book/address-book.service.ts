import type {
  AddressBookEntry,
  AddressBookEntryValues,
  AddressBookImportResult,
  AddressBookPage,
  AddressBookQuery,
} from '@portal/contracts';
import { ADDRESS_BOOK_FIELDS, ADDRESS_BOOK_SORTS } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import type { CpuPool } from '../../cpu/pool.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf } from '../../lib/company-scope.ts';
import { decodeCursor, takePage, uuid, type KeyPart } from '../../lib/keyset.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { applyCsvImport, csvExportRows } from '../../lib/csv-import.ts';
import {
  createAddressBookRepository,
  type AddressBookRepository,
  type AddressBookRow,
} from './address-book.repository.ts';

export type AddressBookCaller = { userId: string; companyId: string | null };

const glnTaken = () => new AppError('address_book.gln_taken', { details: [{ field: 'gln', code: 'glnTaken' }] });

function toEntry(row: AddressBookRow): AddressBookEntry {
  return {
    id: row.id,
    name: row.name,
    displayedName: row.displayedName,
    gln: row.gln,
    personType: row.personType as AddressBookEntry['personType'],
    taxId: row.taxId,
    residenceType: row.residenceType as AddressBookEntry['residenceType'],
    phone: row.phone,
    street: row.street,
    postalCode: row.postalCode,
    city: row.city,
    province: row.province,
    accountNumber: row.accountNumber,
    country: row.country,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const SORT_NAMES: KeyPart = (part) => (ADDRESS_BOOK_SORTS as readonly string[]).includes(part);
const ORDERS: KeyPart = (part) => part === 'asc' || part === 'desc';
const SORT_VALUE: KeyPart = (part) => part.length <= 300;

/** What the book keeps of a GLN, as the documents' enrichment reads it. */
export type AddressBookParty = {
  name?: string | null;
  street?: string | null;
  city?: string | null;
  postalCode?: string | null;
  region?: string | null;
  country?: string | null;
  taxId?: string | null;
};

export function createAddressBookService(deps: {
  db: Db;
  repo?: AddressBookRepository;
  audit: AuditService;
  clock: Clock;
  cpu: CpuPool;
}) {
  const { db, audit, clock, cpu } = deps;
  const repo = deps.repo ?? createAddressBookRepository(db);

  const inTransaction = <T>(run: (tx: Db) => Promise<T>): Promise<T> =>
    db
      .transaction((tx) => run(tx as unknown as Db))
      .catch((error: unknown) => {
        // Two saves of one GLN at the same moment: the unique index answers like the check.
        if (isUniqueViolation(error)) throw glnTaken();
        throw error;
      });

  async function record(
    caller: AddressBookCaller,
    companyId: string,
    details: Record<string, unknown>,
    meta: RequestMeta,
    tx: Db,
  ): Promise<void> {
    await audit.record(
      {
        event: 'address_book.changed',
        actorUserId: caller.userId,
        companyId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details,
      },
      tx,
    );
  }

  return {
    /**
     * What the company's book keeps of these GLNs, for the documents' enrichment (the ingest acts for the receiving
     * company, not for a user; the caller checks the company's toggle).
     */
    async byGlns(companyId: string, glns: readonly string[], tx?: Db): Promise<Map<string, AddressBookParty>> {
      const rows = await repo.byGlns(companyId, glns, tx);
      return new Map(
        rows.map((r) => [
          r.gln!,
          {
            name: r.name,
            street: r.street,
            city: r.city,
            postalCode: r.postalCode,
            region: r.province,
            country: r.country,
            taxId: r.taxId,
          },
        ]),
      );
    },

    async list(caller: AddressBookCaller, query: AddressBookQuery): Promise<AddressBookPage> {
      const q = query;
      const companyId = companyOf(caller);
      // The cursor carries its sort, so that a cursor of one order is never read as a position in another.
      const key = decodeCursor(q.cursor, [SORT_NAMES, ORDERS, SORT_VALUE, uuid]);
      if (key && (key[0] !== q.sort || key[1] !== q.order)) {
        throw new AppError('validation.failed', { details: [{ field: 'cursor', code: 'cursor' }] });
      }
      const after = key ? { key: key[2]!, id: key[3]! } : undefined;
      const filters = { search: q.search, country: q.country, personType: q.personType };
      const rows = await repo.list(companyId, filters, { sort: q.sort, direction: q.order }, after, q.limit + 1);
      const page = takePage(rows, q.limit, (r) => [q.sort, q.order, r.sortKey, r.id]);
      return {
        items: page.rows.map(toEntry),
        nextCursor: page.nextCursor,
        ...(q.includeTotal ? { total: await repo.count(companyId, filters) } : {}),
      };
    },

    async get(caller: AddressBookCaller, id: string): Promise<AddressBookEntry> {
      const row = await repo.find(companyOf(caller), id);
      if (!row) throw notFound();
      return toEntry(row);
    },

    async create(
      caller: AddressBookCaller,
      input: AddressBookEntryValues,
      meta: RequestMeta,
    ): Promise<AddressBookEntry> {
      const companyId = companyOf(caller);
      return inTransaction(async (tx) => {
        if (input.gln && (await repo.glnsTaken(companyId, [input.gln], undefined, tx)).size > 0) throw glnTaken();
        const row = await repo.insert(companyId, input, clock.now(), tx);
        await record(caller, companyId, { change: 'created', entryId: row.id, name: row.name, gln: row.gln }, meta, tx);
        return toEntry(row);
      });
    },

    async update(
      caller: AddressBookCaller,
      id: string,
      input: AddressBookEntryValues,
      meta: RequestMeta,
    ): Promise<AddressBookEntry> {
      const companyId = companyOf(caller);
      return inTransaction(async (tx) => {
        if (!(await repo.find(companyId, id, tx))) throw notFound();
        if (input.gln && (await repo.glnsTaken(companyId, [input.gln], id, tx)).size > 0) throw glnTaken();
        const row = (await repo.update(companyId, id, input, clock.now(), tx))!;
        await record(caller, companyId, { change: 'updated', entryId: id, name: row.name, gln: row.gln }, meta, tx);
        return toEntry(row);
      });
    },

    async remove(caller: AddressBookCaller, id: string, meta: RequestMeta): Promise<void> {
      const companyId = companyOf(caller);
      await inTransaction(async (tx) => {
        const row = await repo.remove(companyId, id, tx);
        if (!row) throw notFound();
        await record(caller, companyId, { change: 'deleted', entryId: id, name: row.name, gln: row.gln }, meta, tx);
      });
    },

    /**
     * Reads a CSV (on the CPU pool: parsing and checking 5,000 rows is work for a thread, not the event loop), then,
     * unless it is a dry run or any row has a problem, saves every entry in one transaction: all or nothing.
     */
    async import(
      caller: AddressBookCaller,
      bytes: Uint8Array,
      dryRun: boolean,
      meta: RequestMeta,
    ): Promise<AddressBookImportResult> {
      const companyId = companyOf(caller);
      const parsed = await cpu.run({ name: 'addressBook.parseCsv', bytes });
      return applyCsvImport({
        parsed,
        dryRun,
        db,
        inTransaction,
        existing: {
          field: 'gln',
          code: 'glnTaken',
          find: (glns, tx) => repo.glnsTaken(companyId, glns, undefined, tx),
        },
        invalid: 'address_book.import_invalid',
        save: async (values, tx) => {
          const created = await repo.insertMany(companyId, values, clock.now(), tx);
          await record(caller, companyId, { change: 'imported', count: created }, meta, tx);
          return created;
        },
      });
    },

    /** The whole book as CSV rows (header first), read in keyset pages so memory stays flat however long it is. */
    async *exportRows(caller: AddressBookCaller): AsyncGenerator<string[]> {
      const companyId = companyOf(caller);
      const page = (after: { key: string; id: string } | undefined, limit: number) =>
        repo.list(companyId, {}, { sort: 'name', direction: 'asc' }, after, limit);
      yield* csvExportRows(ADDRESS_BOOK_FIELDS, page, (row) => row);
    },
  };
}
export type AddressBookService = ReturnType<typeof createAddressBookService>;
