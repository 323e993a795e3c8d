import type { CanonicalDocument, Party } from '@portal/documents';
import type { Db } from '../../db/client.ts';

/** What a company keeps of a GLN: a name, an address and tax ids, each optional. */
export type KnownParty = {
  name?: string | null;
  street?: string | null;
  city?: string | null;
  postalCode?: string | null;
  region?: string | null;
  country?: string | null;
  vatId?: string | null;
  taxId?: string | null;
};

/**
 * The enrichment toggle (issue 12, part 4): what the receiving company keeps of the GLNs of a received document's
 * parties, or null when the company does not have the toggle ENRICHMENT.
 */
export type DocumentEnrichment = {
  partiesFor(companyId: string, glns: readonly string[], tx: Db): Promise<ReadonlyMap<string, KnownParty> | null>;
};

const FIELDS = ['name', 'street', 'city', 'postalCode', 'region', 'country', 'vatId', 'taxId'] as const;
const ADDRESS: ReadonlySet<string> = new Set(['street', 'city', 'postalCode', 'region']);

/**
 * The enrichment from the features that keep parties: the company's address book first (it holds whole addresses),
 * then its partners (name, VAT id, country) for what the book lacks.
 */
export function createDocumentEnrichment(deps: {
  companies: { find(id: string, tx?: Db): Promise<{ toggles: readonly string[] } | undefined> };
  addressBook: {
    byGlns(companyId: string, glns: readonly string[], tx?: Db): Promise<ReadonlyMap<string, KnownParty>>;
  };
  partners: { byGlns(companyId: string, glns: readonly string[], tx?: Db): Promise<ReadonlyMap<string, KnownParty>> };
}): DocumentEnrichment {
  return {
    async partiesFor(companyId, glns, tx) {
      const company = await deps.companies.find(companyId, tx);
      if (!company?.toggles.includes('ENRICHMENT')) return null;
      if (glns.length === 0) return new Map();
      const book = await deps.addressBook.byGlns(companyId, glns, tx);
      const partners = await deps.partners.byGlns(companyId, glns, tx);
      const out = new Map<string, KnownParty>();
      for (const gln of glns) {
        const merged: KnownParty = {};
        for (const source of [book.get(gln), partners.get(gln)]) {
          for (const field of FIELDS) if (!merged[field] && source?.[field]) merged[field] = source[field];
        }
        if (FIELDS.some((f) => merged[f])) out.set(gln, merged);
      }
      return out;
    },
  };
}

/** The GLNs of a body's parties (the header's and the lines') that lack a name, an address or a tax id. */
export function glnsToEnrich(body: CanonicalDocument): string[] {
  const out = new Set<string>();
  const visit = (p: Party) => {
    if (p.gln && FIELDS.some((f) => !p[f])) out.add(p.gln);
  };
  body.parties.forEach(visit);
  for (const line of body.lines) line.parties?.forEach(visit);
  return [...out];
}

/**
 * Fills in what the sender left out of each party with a GLN, never replacing what it gave. True when anything was
 * filled in: the document then takes the additional status Enriched.
 */
export function enrichBody(body: CanonicalDocument, known: ReadonlyMap<string, KnownParty>): boolean {
  let changed = false;
  const fill = (p: Party) => {
    const found = p.gln ? known.get(p.gln) : undefined;
    if (!found) return;
    // An address sent as unstructured lines is the sender's whole address: only its name and tax ids are filled.
    const unstructured = Boolean(p.addressLines?.length);
    for (const field of FIELDS) {
      const value = found[field];
      if (unstructured && ADDRESS.has(field)) continue;
      if (!p[field] && value) {
        p[field] = value;
        changed = true;
      }
    }
  };
  body.parties.forEach(fill);
  for (const line of body.lines) line.parties?.forEach(fill);
  return changed;
}
