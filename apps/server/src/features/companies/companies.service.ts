import { FEATURE_PERMISSIONS, type FeaturePermission } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { createCompaniesRepository, type CompanyRow, type NewCompany } from './companies.repository.ts';
import { createCompanyLocationsService } from './company-locations.service.ts';

export type { CompanyListRow, CompanyPageRow, CompanyRow, NewCompany } from './companies.repository.ts';
export type { CompanyLocationsService, LocationCaller } from './company-locations.service.ts';
export { evaluateCompanyStatus, type StatusVerdict } from './company-status.ts';

/** The group a new company starts with: every feature permission except e-TTN, which is a separate module. */
export const ADMINISTRATORS_GROUP = 'Administrators';
export const ADMINISTRATOR_PERMISSIONS: readonly FeaturePermission[] = FEATURE_PERMISSIONS.filter((p) => p !== 'ETTN');

/** What creating a company needs of the groups feature (its service, passed in: groups belong to companies). */
export type GroupCreator = {
  insert(
    companyId: string,
    values: { name: string; permissions: string[] },
    at: Date | undefined,
    tx: Db,
  ): Promise<string>;
};

/**
 * Locks the company's row until the caller's transaction ends, serialising changes of one company. A function of the
 * transaction rather than of the service, so the groups service can use it without a service of its own.
 */
export const lockCompany = (companyId: string, tx: Db): Promise<void> =>
  createCompaniesRepository(tx).lock(companyId, tx);

export type CompaniesService = ReturnType<typeof createCompaniesService>;

/** The owner of the `companies` table (decision 0013). */
export function createCompaniesService(deps: { db: Db; groups: GroupCreator }) {
  const repo = createCompaniesRepository(deps.db);
  const locations = createCompanyLocationsService({ db: deps.db });
  return {
    ...repo,

    /** The company's GLNs and delivery points (decision 0020). */
    locations,

    /**
     * The company a GLN belongs to, whether it is one of the company's own GLNs or one of its delivery points; null
     * when no company on the platform holds it.
     */
    async findCompanyByGln(gln: string, tx?: Db): Promise<{ id: string; name: string } | null> {
      return (await locations.findOwner(gln, tx)) ?? null;
    },

    /**
     * A new company and the group its first users administer it with, in the caller's transaction or one of its
     * own: registration, the admin area and the demo seed all start a company here. The group is "Administrators"
     * with every permission but e-TTN unless the caller names another.
     */
    async createCompany(
      values: NewCompany,
      options: { administrators?: { name: string; permissions: readonly FeaturePermission[] }; tx?: Db } = {},
    ): Promise<{ company: CompanyRow; administratorsGroupId: string }> {
      const run = async (tx: Db) => {
        const company = await repo.insert(values, tx);
        const group = options.administrators ?? { name: ADMINISTRATORS_GROUP, permissions: ADMINISTRATOR_PERMISSIONS };
        const administratorsGroupId = await deps.groups.insert(
          company.id,
          { name: group.name, permissions: [...group.permissions] },
          undefined,
          tx,
        );
        return { company, administratorsGroupId };
      };
      if (options.tx) return run(options.tx);
      return deps.db.transaction((tx) => run(tx as unknown as Db));
    },
  };
}
