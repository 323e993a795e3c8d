import type { Db } from '../../db/client.ts';

/**
 * What the documents need of two other features, as narrow types: the company that holds a GLN (the companies
 * service's `findCompanyByGln`) and the company's partner of a GLN (the partners service's `ensurePartner`, which
 * creates an unknown partner). app.ts and the job worker pass those services.
 */
export type DocumentCompanies = {
  findCompanyByGln(gln: string): Promise<{ id: string; name: string } | null>;
};

export type DocumentPartners = {
  ensurePartner(companyId: string, gln: string, options: { at?: Date; tx?: Db }): Promise<{ id: string | null }>;
};
