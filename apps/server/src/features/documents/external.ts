import type { Db } from '../../db/client.ts';
import type { CompaniesService } from '../companies/companies.service.ts';

/**
 * What the documents need of two features that other branches of issue 10 build: the company that holds a GLN (the
 * companies service's `findCompanyByGln`, i10-ids) and the company's partner of a GLN (the partners service's
 * `ensurePartner`, i10-partners). The documents feature depends on these two types only.
 *
 * STAND-INS, to be replaced when those branches are merged: until then a GLN is known only when it is one of the demo
 * companies' GLNs below (the values i10-ids seeds), and no partner row is made (the document keeps the partner's GLN,
 * which the access scope matches as well as an id).
 */
export type DocumentCompanies = {
  findCompanyByGln(gln: string): Promise<{ id: string; name: string } | null>;
};

export type DocumentPartners = {
  ensurePartner(companyId: string, gln: string, options: { at?: Date; tx?: Db }): Promise<{ id: string | null }>;
};

/** Stand-in: the demo companies' GLNs and delivery points, as i10-ids seeds them. */
const STAND_IN_GLNS: Readonly<Record<string, string>> = {
  '5901234000017': 'Demo Supplier',
  '4012345000016': 'Demo Retailer',
  '4012345000023': 'Demo Retailer',
  '4012345000030': 'Demo Retailer',
  '4012345000047': 'Demo Retailer',
  '5901234000024': 'Demo KSeF',
  '5901234000031': 'Demo Sandbox',
};

/** Stand-in for the companies service's `findCompanyByGln` (i10-ids). */
export function standInCompanies(companies: Pick<CompaniesService, 'list'>): DocumentCompanies {
  return {
    async findCompanyByGln(gln) {
      const name = STAND_IN_GLNS[gln];
      if (!name) return null;
      const rows = await companies.list({ search: name, limit: 5 });
      const row = rows.find((r) => r.name === name);
      return row ? { id: row.id, name: row.name } : null;
    },
  };
}

/** Stand-in for the partners service's `ensurePartner` (i10-partners): no partner row yet. */
export const standInPartners: DocumentPartners = {
  ensurePartner: async () => ({ id: null }),
};
