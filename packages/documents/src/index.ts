/**
 * `@portal/documents`: the canonical document model and the mappings of each standard to it. Pure code, no I/O;
 * runs in browsers too.
 *
 * - {@link CanonicalDocumentSchema}: the body of every document, whatever its standard (decision 0018).
 * - {@link DocumentSummarySchema} / {@link summarizeDocument}: the document list's row.
 * - {@link mapEdifactMessage} / {@link mapEdifactInterchanges}: a parsed UN/EDIFACT message to the body, its summary
 *   and {@link MappingNote}s of what was skipped.
 * - {@link computeTotals}: line nets, VAT by the user's algorithm and the totals, as exact decimals (decision 0032).
 * - {@link writeEancomMessage} / {@link writeInterchange}: the body back to an EANCOM message and interchange.
 *
 * @packageDocumentation
 */
export * from './canonical.ts';
export { MAPPING_NOTE_CODES, MAX_MAPPING_NOTES, type MappingNote, type MappingNoteCode } from './notes.ts';
export { dayOf, summarizeDocument, type DocumentEnvelope } from './summary.ts';
export { toDateValue } from './edifact/dates.ts';
export { toDecimal } from './edifact/segments.ts';
export { kindOfMessage } from './edifact/map-message.ts';
export { mapEdifactInterchanges, mapEdifactMessage, type EdifactContext, type MappedDocument } from './edifact/map.ts';
export {
  canonicalTotals,
  computeTotals,
  POLISH_VAT_CATEGORIES,
  roundMoney,
  VAT_ALGORITHMS,
  vatCategoryOf,
  type LineTotals,
  type MoneyAdjustment,
  type MoneyLine,
  type RateTotals,
  type Totals,
  type VatAlgorithm,
  type VatRate,
} from './money.ts';
export { gs1CheckDigit, isValidGtin, isValidSscc, ssccWithCheckDigit } from './gs1.ts';
export {
  APPLICATION_REJECTION_CODE,
  APPLICATION_RESPONSE_FUNCTIONS,
  applicationResponse,
  type ApplicationDecision,
  type ApplicationResponseInput,
} from './application-response.ts';
export {
  APERAK_REFERENCE_QUALIFIERS,
  EANCOM_ASSOCIATIONS,
  EANCOM_MESSAGE_TYPES,
  POLISH_INVOICE_TYPES,
  polishInvoiceTypeOf,
  writeEancomMessage,
  type EancomDirectory,
  type EancomMessageType,
  type PolishInvoiceType,
  type WriteMessageOptions,
  type WrittenMessage,
} from './edifact/write-message.ts';
export {
  buildInterchange,
  writeInterchange,
  type InterchangeParty,
  type WriteInterchangeOptions,
} from './edifact/write-interchange.ts';
export { formToCanonical, moneyLinesOf, turnaroundForm, TURNAROUNDS, type CatalogueItem } from './authoring.ts';
