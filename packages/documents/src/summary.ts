/**
 * The document list's row, read from a canonical body and its envelope. Standard-neutral: every mapping to the
 * canonical body gets its summary from here.
 */
import type { CanonicalDocument, DateValue, DocumentKind, DocumentSummary, Party } from './canonical.ts';

/** What the body does not hold: the standard, its message type and version, and the envelope's test flag. */
export type DocumentEnvelope = Pick<
  DocumentSummary,
  'standard' | 'messageType' | 'version' | 'associationCode' | 'test'
>;

/**
 * Date qualifiers (UNCL 2005) read as the expected delivery date, best first: estimated (17), promised (69),
 * requested (2), earliest and latest (64, 63), actual (35), goods received (50).
 */
const DELIVERY_DATES = ['17', '69', '2', '64', '63', '35', '50'];
/** Document date (137), else invoice (3) or order date (4). */
const BUSINESS_DATES = ['137', '3', '4'];

/** The day a date value falls on (the start, for a period); none for a value kept raw. */
export const dayOf = (date: DateValue): string | undefined =>
  date.type === 'raw' ? undefined : date.value.slice(0, 10);

const firstDay = (dates: DateValue[], qualifiers: string[]): string | undefined => {
  for (const qualifier of qualifiers) {
    for (const date of dates) if (date.qualifier === qualifier && dayOf(date)) return dayOf(date);
  }
  return undefined;
};

const party = (parties: Party[], roles: string[]): Party | undefined => {
  for (const role of roles) {
    const found = parties.find((p) => p.role === role);
    if (found) return found;
  }
  return undefined;
};

/** The reference qualifiers (UNCL 1153) whose value is the document's "reference number", best first. */
const referenceQualifiers = (kind: DocumentKind): string[] => (kind === 'credit_note' ? ['IV', 'ON'] : ['ON']);

const referenceNumber = (document: CanonicalDocument): string | undefined => {
  if (document.kind === 'syntax_report') return document.acknowledgement?.interchangeReference;
  for (const qualifier of referenceQualifiers(document.kind)) {
    const found = document.references.find((r) => r.qualifier === qualifier && r.value);
    if (found) return found.value;
  }
  return document.references.find((r) => r.value)?.value;
};

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

export const summarizeDocument = (document: CanonicalDocument, envelope: DocumentEnvelope): DocumentSummary => {
  const buyer = party(document.parties, ['BY']);
  const supplier = party(document.parties, ['SU', 'SE']);
  return defined({
    kind: document.kind,
    number: document.header.number,
    referenceNumber: referenceNumber(document),
    documentNameCode: document.header.documentNameCode,
    functionCode: document.header.functionCode,
    ...envelope,
    buyerGln: buyer?.gln,
    supplierGln: supplier?.gln,
    deliveryPointGln: party(document.parties, ['DP', 'ST'])?.gln,
    buyerTaxId: buyer?.vatId ?? buyer?.taxId,
    sellerTaxId: supplier?.vatId ?? supplier?.taxId,
    expectedDeliveryDate: firstDay(document.header.dates, DELIVERY_DATES),
    businessDate: firstDay(document.header.dates, BUSINESS_DATES),
  });
};
