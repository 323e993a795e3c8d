import type { Db } from '../../db/client.ts';
import { createPartnersRepository } from './partners.repository.ts';

/** One side of a demo trading relationship: the company, its partner's GLN and company, and what goes each way. */
export type DemoPartner = {
  companyId: string;
  gln: string;
  name: string;
  linkedCompanyId: string;
  docTypesIn: string[];
  docTypesOut: string[];
};

/**
 * The demo's trading partners (`npm start`; the tests start without them): Demo Retailer and Demo Supplier are each
 * other's partner, so the new-document menu offers what each sends the other from the first login.
 */
export async function seedDemoPartners(db: Db, pairs: readonly DemoPartner[], tx: Db = db): Promise<void> {
  const repo = createPartnersRepository(db);
  const at = new Date();
  for (const p of pairs) {
    await repo.insert(
      p.companyId,
      p.gln,
      {
        name: p.name,
        linkedCompanyId: p.linkedCompanyId,
        vatId: null,
        country: 'PL',
        contactName: null,
        contactEmail: null,
        contactPhone: null,
        status: 'active',
        testMode: false,
        edifactDirectory: 'D96A',
        // Polish letters in names and notes: ISO 8859-2.
        syntaxIdentifier: 'UNOD',
        una: true,
        docTypesIn: p.docTypesIn,
        docTypesOut: p.docTypesOut,
      },
      at,
      tx,
    );
  }
}
