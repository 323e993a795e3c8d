/**
 * The canonical document body: one shape for every standard (UN/EDIFACT now; KSeF FA(3), UBL, CII and e-TTN later),
 * shown by the document view and written back out by the authoring screens (decision 0018).
 *
 * Codes are those of the UN/CEFACT code lists (UNTDID) that EDIFACT carries and that EN 16931 (UBL and CII) reuses:
 * a date's qualifier is a 2005 code (137 document date, 2 requested delivery), a reference's a 1153 code (ON order
 * number), a party's role a 3035 code (BY buyer, SU supplier, DP delivery point), a quantity's a 6063 code (21
 * ordered, 12 despatched), an amount's a 5025 code (203 line amount, 79 lines total). Money, quantities, prices and
 * rates are decimal strings with the digits as they were sent (a `,` decimal mark becomes `.`), never binary floats.
 * Lists are always present (maybe empty) at the top of the body and on each line; rarer details are optional.
 */
import { z } from 'zod';

/** The business kind of a document; the list, the filters and the chain read this, not the standard's type. */
export const DOCUMENT_KINDS = [
  'order',
  'order_response',
  'despatch_advice',
  'invoice',
  'credit_note',
  'receiving_advice',
  'price_catalogue',
  'application_error',
  'syntax_report',
  'other',
] as const;
export const DocumentKindSchema = z.enum(DOCUMENT_KINDS);
export type DocumentKind = z.infer<typeof DocumentKindSchema>;

/**
 * The kind each UN/EDIFACT message type maps to. INVOIC is an invoice or, by its document name code, a credit note
 * ({@link CREDIT_NOTE_CODES}); any type not listed is `other`.
 */
export const EDIFACT_MESSAGE_KINDS: Readonly<Record<string, DocumentKind>> = {
  ORDERS: 'order',
  ORDRSP: 'order_response',
  DESADV: 'despatch_advice',
  INVOIC: 'invoice',
  RECADV: 'receiving_advice',
  PRICAT: 'price_catalogue',
  APERAK: 'application_error',
  CONTRL: 'syntax_report',
};

/** UNCL 1001 document name codes of a credit note: the list EN 16931 gives for the UBL CreditNote and CII alike. */
export const CREDIT_NOTE_CODES: ReadonlySet<string> = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);

/** A decimal as sent: optional minus, digits, optionally `.` and digits. Never a JS number. */
export const DecimalSchema = z.string().regex(/^-?\d+(\.\d+)?$/);
export type Decimal = z.infer<typeof DecimalSchema>;

/**
 * A date with its qualifier (UNCL 2005). `value` is ISO 8601 when the format allows: `2024-01-15` (date),
 * `2024-01-15T09:30`, `…:00` or `…+01:00` (dateTime), `2024-01-15/2024-01-20` (period); otherwise (`raw`) the value
 * exactly as sent, with its format code (UNCL 2379) so that nothing is lost.
 */
export const DateValueSchema = z.object({
  qualifier: z.string(),
  type: z.enum(['date', 'dateTime', 'period', 'raw']),
  value: z.string(),
  format: z.string().optional(),
});
export type DateValue = z.infer<typeof DateValueSchema>;

/** An amount with its qualifier (UNCL 5025: 203 line amount, 79 lines total, 77 invoice total, 124 tax, 125 taxable…). */
export const AmountSchema = z.object({
  qualifier: z.string(),
  value: DecimalSchema,
  currency: z.string().optional(),
});
export type Amount = z.infer<typeof AmountSchema>;

/** A quantity with its qualifier (UNCL 6063: 21 ordered, 12 despatched, 47 invoiced, 48 received, 59 per pack…) and unit (UN/ECE Rec. 20). */
export const QuantitySchema = z.object({
  qualifier: z.string(),
  value: DecimalSchema,
  unit: z.string().optional(),
});
export type Quantity = z.infer<typeof QuantitySchema>;

/** A price (UNCL 5125: AAA net, AAB gross) for `basis` units (5284) of `unit`, with its type (5375) when given. */
export const PriceSchema = z.object({
  qualifier: z.string(),
  value: DecimalSchema,
  type: z.string().optional(),
  basis: DecimalSchema.optional(),
  unit: z.string().optional(),
});
export type Price = z.infer<typeof PriceSchema>;

/** A reference to another document (UNCL 1153: ON order, DQ delivery note, AAK despatch advice, IV invoice, CT contract, VN supplier's order…). */
export const ReferenceSchema = z.object({
  qualifier: z.string(),
  /** Absent when only the line is given (a line's `ON::1`: line 1 of the order). */
  value: z.string().optional(),
  lineNumber: z.string().optional(),
  dates: z.array(DateValueSchema).optional(),
});
export type Reference = z.infer<typeof ReferenceSchema>;

/** Free text with its subject (UNCL 4451: DEL delivery, AAI general, AAO error description…). */
export const TextSchema = z.object({ qualifier: z.string(), text: z.string() });
export type Text = z.infer<typeof TextSchema>;

/** An identifier with its qualifier or type: other article numbers (UNCL 7143), package marks (UNCL 7405: BX batch, BN serial). */
export const IdentifierSchema = z.object({ qualifier: z.string(), value: z.string() });
export type Identifier = z.infer<typeof IdentifierSchema>;

/** A tax (UNCL 5283 function, 7 = tax; 5153 type, e.g. VAT) with its rate, category (5305: S standard, Z, E, AE…) and amounts. */
export const TaxSchema = z.object({
  qualifier: z.string(),
  type: z.string().optional(),
  rate: DecimalSchema.optional(),
  category: z.string().optional(),
  amounts: z.array(AmountSchema),
});
export type Tax = z.infer<typeof TaxSchema>;

/** An allowance or a charge with its reason (UNCL 7161 or 5189), percentage and amounts. */
export const AllowanceChargeSchema = z.object({
  type: z.enum(['allowance', 'charge']),
  /** The calculation step it belongs to (UNCL 1227: 1 first…). */
  sequence: z.string().optional(),
  reasonCode: z.string().optional(),
  description: z.string().optional(),
  percentage: DecimalSchema.optional(),
  amounts: z.array(AmountSchema),
  quantities: z.array(QuantitySchema).optional(),
  taxes: z.array(TaxSchema).optional(),
});
export type AllowanceCharge = z.infer<typeof AllowanceChargeSchema>;

/** A payment term: its type (UNCL 4279), the period after a reference event (2475, 2009, 2151 and a count), dates, discount. */
export const PaymentTermSchema = z.object({
  type: z.string().optional(),
  code: z.string().optional(),
  description: z.string().optional(),
  timeReference: z.string().optional(),
  timeRelation: z.string().optional(),
  periodUnit: z.string().optional(),
  periodCount: z.string().optional(),
  dates: z.array(DateValueSchema).optional(),
  percentage: DecimalSchema.optional(),
  amounts: z.array(AmountSchema).optional(),
});
export type PaymentTerm = z.infer<typeof PaymentTermSchema>;

/**
 * A party's account at a financial institution (FII): its role (UNCL 3035: RB the receiving bank, the payee's
 * account), the account number (C078 3194, an IBAN), and the institution's identifier (C088 3433, a BIC) when given.
 */
export const FinancialAccountSchema = z.object({
  qualifier: z.string(),
  account: z.string().optional(),
  institution: z.string().optional(),
});
export type FinancialAccount = z.infer<typeof FinancialAccountSchema>;

/** A contact of a party (UNCL 3139 function) with its channels (UNCL 3155: TE phone, EM e-mail, FX fax). */
export const ContactSchema = z.object({
  function: z.string().optional(),
  department: z.string().optional(),
  name: z.string().optional(),
  communications: z.array(z.object({ channel: z.string(), value: z.string() })).optional(),
});
export type Contact = z.infer<typeof ContactSchema>;

/**
 * A party in its role (UNCL 3035: BY buyer, SU supplier, DP delivery point, IV invoicee, UC ultimate consignee, SH
 * shipper, MS/MR sender and recipient of a report…). `gln` when the party is identified by a GS1 GLN; any other
 * identifier in `id` with its code list and agency (UNCL 3055).
 */
export const PartySchema = z.object({
  role: z.string(),
  gln: z.string().optional(),
  id: z.object({ value: z.string(), codeList: z.string().optional(), agency: z.string().optional() }).optional(),
  name: z.string().optional(),
  /** Unstructured name and address lines, when sent so. */
  addressLines: z.array(z.string()).optional(),
  street: z.string().optional(),
  city: z.string().optional(),
  region: z.string().optional(),
  postalCode: z.string().optional(),
  country: z.string().optional(),
  /** The VAT registration number (RFF VA). */
  vatId: z.string().optional(),
  /** The fiscal or tax number (RFF FC), e.g. a NIP or EDRPOU. */
  taxId: z.string().optional(),
  references: z.array(ReferenceSchema).optional(),
  contacts: z.array(ContactSchema).optional(),
  /** Its bank accounts (FII), e.g. the supplier's account an invoice is paid to. */
  accounts: z.array(FinancialAccountSchema).optional(),
});
export type Party = z.infer<typeof PartySchema>;

/** One line item. `gtin` is the trade item's GTIN; the buyer's and supplier's article numbers beside it. */
export const LineSchema = z.object({
  lineNumber: z.string().optional(),
  /** The line this is a sub-line of. */
  parentLineNumber: z.string().optional(),
  /** What the sender asks or answers for this line (UNCL 1229: 5 accepted, 3 changed, 7 not accepted…). */
  action: z.string().optional(),
  gtin: z.string().optional(),
  buyerArticleNumber: z.string().optional(),
  supplierArticleNumber: z.string().optional(),
  /** Further article numbers with their type (UNCL 7143). */
  itemIds: z.array(IdentifierSchema).optional(),
  description: z.string().optional(),
  quantities: z.array(QuantitySchema),
  prices: z.array(PriceSchema),
  amounts: z.array(AmountSchema),
  taxes: z.array(TaxSchema).optional(),
  allowances: z.array(AllowanceChargeSchema).optional(),
  dates: z.array(DateValueSchema).optional(),
  references: z.array(ReferenceSchema).optional(),
  parties: z.array(PartySchema).optional(),
  texts: z.array(TextSchema).optional(),
  /** Marks of this line's goods: SSCC (BJ), batch (BX), serial numbers (BN)… */
  identifiers: z.array(IdentifierSchema).optional(),
  /** The package ({@link PackageSchema} `id`) this line is packed in, for a despatch or receiving advice. */
  packageId: z.string().optional(),
});
export type Line = z.infer<typeof LineSchema>;

/** A kind of packaging within a package level: how many, of which type (UNECE Rec. 21, e.g. 201 pallet), and their SSCCs. */
export const PackagingSchema = z.object({
  count: DecimalSchema.optional(),
  type: z.string().optional(),
  description: z.string().optional(),
  level: z.string().optional(),
  quantities: z.array(QuantitySchema).optional(),
  sscc: z.array(z.string()),
  /** Other marks (UNCL 7405) than the SSCC. */
  identifiers: z.array(IdentifierSchema).optional(),
});
export type Packaging = z.infer<typeof PackagingSchema>;

/**
 * One level of the packing hierarchy (the shipment, a pallet, the cartons on it…). `parentId` names the enclosing
 * package; lines name their package in `packageId`.
 */
export const PackageSchema = z.object({
  id: z.string(),
  parentId: z.string().optional(),
  packaging: z.array(PackagingSchema),
});
export type Package = z.infer<typeof PackageSchema>;

/** An error reported by an application error message or a syntax report: its code, text and where it points. */
export const ErrorReportSchema = z.object({
  code: z.string(),
  text: z.string().optional(),
  /** The message (or other reference) the error is about. */
  reference: z.string().optional(),
  /** Segment and element position the error points at, e.g. `4` or `4/2:1`. */
  position: z.string().optional(),
});
export type ErrorReport = z.infer<typeof ErrorReportSchema>;

/** What a syntax report says about a whole interchange: its control reference and the action (UNCL 0083: 4 rejected, 7 acknowledged, 8 received). */
export const AcknowledgementSchema = z.object({
  interchangeReference: z.string().optional(),
  action: z.string().optional(),
  messages: z.array(z.object({ reference: z.string(), type: z.string().optional(), action: z.string().optional() })),
});
export type Acknowledgement = z.infer<typeof AcknowledgementSchema>;

export const DocumentHeaderSchema = z.object({
  number: z.string().optional(),
  /** UNCL 1001 document name code (220 order, 380 invoice, 381 credit note, 351 despatch advice…). */
  documentNameCode: z.string().optional(),
  documentName: z.string().optional(),
  /** UNCL 1225 message function code (9 original, 5 replace, 1 cancellation, 4 change, 27 not accepted…). */
  functionCode: z.string().optional(),
  /** UNCL 4343 response type code, when the sender asks for or gives a response. */
  responseType: z.string().optional(),
  dates: z.array(DateValueSchema),
  texts: z.array(TextSchema),
});
export type DocumentHeader = z.infer<typeof DocumentHeaderSchema>;

export const CanonicalDocumentSchema = z.object({
  kind: DocumentKindSchema,
  header: DocumentHeaderSchema,
  references: z.array(ReferenceSchema),
  parties: z.array(PartySchema),
  /** ISO 4217 code of the document's currency. */
  currency: z.string().optional(),
  paymentTerms: z.array(PaymentTermSchema),
  /** How the document is to be paid (PAI C534 4461, UNCL 4461: 30 credit transfer, 10 in cash, 48 bank card…). */
  paymentMeans: z.string().optional(),
  lines: z.array(LineSchema),
  /** Allowances and charges of the whole document. */
  allowances: z.array(AllowanceChargeSchema),
  /** The document's taxes: its tax breakdown and taxes stated in the header. */
  taxes: z.array(TaxSchema),
  /** The document's totals (UNCL 5025: 79 lines, 86 message, 77 invoice, 125 taxable, 176 tax, 9 payable…). */
  totals: z.array(AmountSchema),
  packages: z.array(PackageSchema),
  errors: z.array(ErrorReportSchema),
  acknowledgement: AcknowledgementSchema.optional(),
});
export type CanonicalDocument = z.infer<typeof CanonicalDocumentSchema>;

/** A body of a kind with every list present and empty: where a mapper or a form starts. */
export const emptyDocument = (kind: DocumentKind): CanonicalDocument => ({
  kind,
  header: { dates: [], texts: [] },
  references: [],
  parties: [],
  paymentTerms: [],
  lines: [],
  allowances: [],
  taxes: [],
  totals: [],
  packages: [],
  errors: [],
});

/** The row of the document list: what the list shows and filters on, taken from the body and its envelope. */
export const DocumentSummarySchema = z.object({
  kind: DocumentKindSchema,
  number: z.string().optional(),
  /** The document this one answers or follows (the order, for a response, despatch advice or invoice). */
  referenceNumber: z.string().optional(),
  documentNameCode: z.string().optional(),
  functionCode: z.string().optional(),
  standard: z.enum(['edifact']),
  /** The standard's message type, e.g. `ORDERS`. */
  messageType: z.string(),
  /** The standard's version, e.g. `D96A`. */
  version: z.string(),
  /** The implementation guide, e.g. `EAN008` (UNH 0057). */
  associationCode: z.string().optional(),
  buyerGln: z.string().optional(),
  supplierGln: z.string().optional(),
  deliveryPointGln: z.string().optional(),
  buyerTaxId: z.string().optional(),
  sellerTaxId: z.string().optional(),
  /** ISO date. */
  expectedDeliveryDate: z.string().optional(),
  /** ISO date. */
  businessDate: z.string().optional(),
  test: z.boolean(),
});
export type DocumentSummary = z.infer<typeof DocumentSummarySchema>;
