import {
  COMPANY_LOCATIONS_MAX,
  type CompanyLocation,
  type CompanyLocationPage,
  type CompanyLocationValues,
  type CompanyLocationsQuery,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { decodeCursor, takePage, type KeyPart } from '../../lib/keyset.ts';
import { createCompaniesRepository } from './companies.repository.ts';
import { createCompanyLocationsRepository, type CompanyLocationRow } from './company-locations.repository.ts';

/** Whose locations: the company, resolved by the caller (the profile: the user's own; the admin area: the path's). */
export type LocationCaller = { companyId: string };

/** The GLN is registered already: by this company (`glnAlreadyListed`) or by another (`glnOfAnotherCompany`). */
const glnTaken = (ours: boolean) =>
  new AppError('companies.gln_taken', {
    details: [{ field: 'gln', code: ours ? 'glnAlreadyListed' : 'glnOfAnotherCompany' }],
  });

function toLocation(row: CompanyLocationRow): CompanyLocation {
  return {
    gln: row.gln,
    kind: row.kind as CompanyLocation['kind'],
    name: row.name,
    street: row.street,
    postalCode: row.postalCode,
    city: row.city,
    country: row.country,
    code: row.code,
    createdAt: row.createdAt.toISOString(),
  };
}

const KINDS: KeyPart = (part) => part === 'company' || part === 'delivery_point';
const GLNS: KeyPart = (part) => /^\d{13}$/.test(part);

export type CompanyLocationsService = ReturnType<typeof createCompanyLocationsService>;

/**
 * A company's GLNs and delivery points (decision 0020). Every function works inside the given company: a GLN of
 * another company is unknown there (404), and registering one is a conflict (409).
 */
export function createCompanyLocationsService(deps: { db: Db }) {
  const { db } = deps;
  const repo = createCompanyLocationsRepository(db);
  const companies = createCompaniesRepository(db);

  /**
   * In a transaction holding the company's lock, so the count limit holds under concurrent adds: the caller's (the
   * demo seed's) or one of its own.
   */
  const inCompany = <T>(companyId: string, run: (tx: Db) => Promise<T>, outer?: Db): Promise<T> => {
    const locked = async (tx: Db) => {
      await companies.lock(companyId, tx);
      return run(tx);
    };
    if (outer) return locked(outer);
    return db
      .transaction((txRaw) => locked(txRaw as unknown as Db))
      .catch((error: unknown) => {
        // Two companies registering one GLN at the same moment: the primary key answers like the check.
        if (isUniqueViolation(error)) throw glnTaken(false);
        throw error;
      });
  };

  /** Refuses a GLN some company already holds. */
  async function ensureFree(companyId: string, gln: string, tx: Db): Promise<void> {
    const owner = await repo.findOwner(gln, tx);
    if (owner) throw glnTaken(owner.id === companyId);
  }

  return {
    findOwner: (gln: string, tx?: Db) => repo.findOwner(gln, tx),

    async list(caller: LocationCaller, query: CompanyLocationsQuery): Promise<CompanyLocationPage> {
      const key = decodeCursor(query.cursor, [KINDS, GLNS]);
      const after = key ? { kind: key[0]!, gln: key[1]! } : undefined;
      const filters = { search: query.search, kind: query.kind };
      const rows = await repo.list(caller.companyId, filters, after, query.limit + 1);
      const page = takePage(rows, query.limit, (r) => [r.kind, r.gln]);
      return {
        items: page.rows.map(toLocation),
        nextCursor: page.nextCursor,
        ...(query.includeTotal ? { total: await repo.count(caller.companyId, filters) } : {}),
      };
    },

    async get(caller: LocationCaller, gln: string): Promise<CompanyLocation> {
      const row = await repo.find(caller.companyId, gln);
      if (!row) throw notFound();
      return toLocation(row);
    },

    async create(caller: LocationCaller, input: CompanyLocationValues, at: Date, tx?: Db): Promise<CompanyLocation> {
      return inCompany(
        caller.companyId,
        async (tx) => {
          await ensureFree(caller.companyId, input.gln, tx);
          if ((await repo.count(caller.companyId, {}, tx)) >= COMPANY_LOCATIONS_MAX) {
            throw new AppError('companies.too_many_locations', { data: { max: COMPANY_LOCATIONS_MAX } });
          }
          return toLocation(await repo.insert(caller.companyId, input, at, tx));
        },
        tx,
      );
    },

    /** Replaces a location; a new GLN must be free like a new location's. */
    async update(caller: LocationCaller, gln: string, input: CompanyLocationValues): Promise<CompanyLocation> {
      return inCompany(caller.companyId, async (tx) => {
        if (!(await repo.find(caller.companyId, gln, tx))) throw notFound();
        if (input.gln !== gln) await ensureFree(caller.companyId, input.gln, tx);
        return toLocation((await repo.update(caller.companyId, gln, input, tx))!);
      });
    },

    async remove(caller: LocationCaller, gln: string): Promise<CompanyLocation> {
      const row = await repo.remove(caller.companyId, gln);
      if (!row) throw notFound();
      return toLocation(row);
    },
  };
}
