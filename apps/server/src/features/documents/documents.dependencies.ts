import type { CanonicalDocument } from '@portal/documents';
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
  /** E-mails the partner's notification recipients of this event, in the document's transaction. */
  notifyPartnerEvent(
    companyId: string,
    partnerId: string,
    event: 'received' | 'failed',
    document: { documentType: string; number?: string | null; direction: 'in' | 'out'; reason?: string | null },
    options: { tx?: Db },
  ): Promise<number>;
};

/** The user's language and profile settings (file encoding and naming), from the users service's `findById`. */
export type DocumentUsers = {
  findById(id: string): Promise<{ language: string; settings: Record<string, string> } | undefined>;
};

/**
 * What happens to a company's outbox documents once stored (the ksef feature's `queueSubmissions`: an invoice of a
 * company with KSeF goes there too), in the ingest's transaction, so the follow-up exists exactly when the document
 * does.
 */
export type DocumentOutbox = {
  afterStored(rows: readonly { documentId: string; companyId: string; kind: string }[], tx: Db): Promise<void>;
};

/**
 * The receiving company's product catalogue (the products service's `fillFromPriceCatalogue`): a received price
 * catalogue adds or updates its products by GTIN, in the document's transaction (issue 12).
 */
export type DocumentProducts = {
  fillFromPriceCatalogue(companyId: string, body: CanonicalDocument, tx?: Db): Promise<unknown>;
};

/**
 * KOD I of an invoice that is in KSeF, for its PDF (the ksef service's `verificationOf`): the KSeF number and the
 * verification link, or null for a document KSeF does not hold. `original` reads the stored original (a received
 * FA(3)) only when the link needs its hash.
 */
export type DocumentKsef = {
  verificationOf(doc: {
    id: string;
    companyId: string;
    direction: 'in' | 'out';
    standard: string;
    referenceNumber: string | null;
    sellerTaxId: string | null;
    issueDate: string | null;
    original: () => Promise<Uint8Array>;
  }): Promise<{ ksefNumber: string; url: string | null } | null>;
};
