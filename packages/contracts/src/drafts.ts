import { z } from 'zod';
import type { DocumentTypeCode } from './documents.ts';
import { EdifactFindingSchema } from './edifact.ts';
import { isValidIban, VAT_ALGORITHMS } from './profile.ts';
import { isValidGtin, isVatRate, PRICE_PATTERN, UNIT_PATTERN } from './products.ts';
import { isValidGln, text } from './rules.ts';
import { ListQuerySchema, ListSearchSchema } from './lists.ts';

/**
 * Documents written in the browser (issue 12): the new-document menu, the forms and their drafts, Check and Send.
 *
 * A form's values are saved as typed (`DraftFormSchema`: lengths and counts only, so a half-typed quantity is kept),
 * and judged by `draftProblems` before a Check or a Send: the same rules in the browser, next to each field, and on
 * the server, as a 400 naming the same fields. The EANCOM written from the form is then judged by the EDIFACT engine.
 */

/** What the forms write; each is one EANCOM message type. */
export const DRAFT_KINDS = [
  'order',
  'order_response',
  'despatch_advice',
  'invoice',
  'credit_note',
  'receiving_advice',
] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];
export const DraftKindSchema = z.enum(DRAFT_KINDS, { error: 'oneOf' });

/** The message type of each kind (what a partner's `docTypesOut` and the restrictions name). */
export const DRAFT_MESSAGE_TYPES: Readonly<Record<DraftKind, DocumentTypeCode>> = {
  order: 'ORDERS',
  order_response: 'ORDRSP',
  despatch_advice: 'DESADV',
  invoice: 'INVOIC',
  credit_note: 'INVOIC',
  receiving_advice: 'RECADV',
};

/** The Polish kinds of an invoice (description, section 9): VAT, self-billed, prepayment, settlement, simplified. */
export const INVOICE_TYPES = ['INV', 'SB', 'ZAL', 'ROZ', 'UPR'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

/** An order response's answer to the whole order (UNCL 1225: 29 accepted, 4 changed, 27 not accepted). */
export const RESPONSE_TYPES = ['accepted', 'changed', 'rejected'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** An order response's answer to a line (UNCL 1229: 5 accepted, 3 changed, 7 not accepted). */
export const LINE_ACTIONS = ['accepted', 'changed', 'rejected'] as const;
export type LineAction = (typeof LINE_ACTIONS)[number];

/** Package types a despatch advice offers (UN/ECE Rec. 21): pallet, carton, box, roll container. */
export const PACKAGE_TYPES = ['201', 'CT', 'BX', 'RO'] as const;

/**
 * The reasons a line's allowance or charge may give (UNCL 7161, special services, the short list a form offers):
 * discount, quantity discount, promotional allowance, freight charge, packing, delivery.
 */
export const ALLOWANCE_REASONS = ['DI', 'QD', 'PAD', 'FC', 'PC', 'DL'] as const;
export type AllowanceReason = (typeof ALLOWANCE_REASONS)[number];

/** The kinds whose lines carry prices, and so allowances and charges (ALC in their EANCOM guides). */
export const DRAFT_ALLOWANCE_KINDS: readonly DraftKind[] = ['order', 'order_response', 'invoice', 'credit_note'];
/** A line holds at most this many allowances and charges (EANCOM's ALC group repeats up to 15 times per line). */
export const DRAFT_MAX_ALLOWANCES = 15;

/**
 * The payment terms a form offers (PAT 4279): due on a fixed date (3), or net a number of days after the invoice
 * date (1, with C112 5 invoice date, 3 after, D days).
 */
export const PAYMENT_TERMS = ['fixed_date', 'net_days'] as const;
export type PaymentTermsType = (typeof PAYMENT_TERMS)[number];

/**
 * The payment means a form offers (UNCL 4461, PAI C534): 30 credit transfer, 42 payment to bank account, 10 in cash,
 * 20 cheque, 48 bank card. 48 is in D01B's list, not D96A's (an EANCOM 97 partner's Check says so); SEPA credit
 * transfer (58) is in neither directory the portal writes.
 */
export const PAYMENT_MEANS = ['30', '42', '10', '20', '48'] as const;
export type PaymentMeans = (typeof PAYMENT_MEANS)[number];

/** The kinds whose EANCOM guide has a free text in the header (a despatch or receiving advice has none). */
export const DRAFT_NOTE_KINDS: readonly DraftKind[] = ['order', 'order_response', 'invoice', 'credit_note'];

/** A form holds at most this many lines and packages: a long order is a file upload's work, not a form's. */
export const DRAFT_MAX_LINES = 500;
export const DRAFT_MAX_PACKAGES = 100;
/** Drafts a company keeps at most (each is a form of up to 500 lines). */
export const DRAFTS_MAX_PER_COMPANY = 1000;

/** A value as typed: any storable text up to `max`, trimmed; empty is ''. */
const typed = (max: number) => text().trim().max(max, 'tooLong').default('');

/** A party of the form: picked from the partners or the address book, or typed. */
export const DraftPartySchema = z.object({
  gln: typed(13),
  name: typed(175),
  street: typed(140),
  city: typed(35),
  postalCode: typed(17),
  country: typed(2),
  vatId: typed(35),
  taxId: typed(35),
});
export type DraftParty = z.output<typeof DraftPartySchema>;

/** A line's allowance or charge: its reason, and a percentage of the line's gross amount or a fixed amount. */
export const DraftAllowanceSchema = z.object({
  type: z.enum(['allowance', 'charge'], { error: 'oneOf' }).default('allowance'),
  /** UNCL 7161, one of {@link ALLOWANCE_REASONS}. */
  reason: typed(3),
  calculation: z.enum(['percentage', 'amount'], { error: 'oneOf' }).default('percentage'),
  /** The percentage (0–100) or the amount for the whole line, as typed. */
  value: typed(20),
});
export type DraftAllowance = z.output<typeof DraftAllowanceSchema>;

/** An invoice's payment terms beyond the due date: terms, early payment discount, means and the payee's account. */
export const DraftPaymentSchema = z.object({
  terms: z.enum(['', ...PAYMENT_TERMS] as const, { error: 'oneOf' }).default(''),
  /** Days after the invoice date (net days). */
  days: typed(3),
  /** An early payment discount: this percentage when paid within `discountDays` of the invoice date. */
  discountPercentage: typed(8),
  discountDays: typed(3),
  means: z.enum(['', ...PAYMENT_MEANS] as const, { error: 'oneOf' }).default(''),
  /** The payee's (supplier's) bank account, an IBAN; written in the supplier's FII. */
  iban: typed(42),
});
export type DraftPayment = z.output<typeof DraftPaymentSchema>;

export const DraftLineSchema = z.object({
  gtin: typed(14),
  buyerArticleNumber: typed(35),
  supplierArticleNumber: typed(35),
  description: typed(350),
  /** Ordered (order), confirmed (response), despatched (despatch advice), invoiced, received. */
  quantity: typed(20),
  /** What the answered document said (the order's quantity; the despatched one for a receiving advice). */
  expectedQuantity: typed(20),
  unit: typed(3),
  price: typed(20),
  vatRate: typed(6),
  /** An order response's answer to the line. */
  action: z.enum(LINE_ACTIONS, { error: 'oneOf' }).optional(),
  /** The answered order's line number. */
  orderLineNumber: typed(6),
  /** The package (1-based index in `packages`) the line is packed in, for a despatch advice. */
  packageNumber: typed(4),
  allowances: z.array(DraftAllowanceSchema).max(DRAFT_MAX_ALLOWANCES, 'tooBig').default([]),
});
export type DraftLine = z.output<typeof DraftLineSchema>;

export const DraftPackageSchema = z.object({
  /** The SSCC (18 digits, GS1 check digit). */
  sscc: typed(18),
  type: typed(3),
});
export type DraftPackage = z.output<typeof DraftPackageSchema>;

/** The values of every form; each kind uses its part (an order has no invoice type, an invoice no packages). */
export const DraftFormSchema = z.object({
  number: typed(35),
  /** ISO dates (yyyy-mm-dd). */
  documentDate: typed(10),
  /** Requested delivery (order, response), despatch (despatch advice), delivery (invoice), receipt (receiving advice). */
  deliveryDate: typed(10),
  /** The order answered or invoiced, and its date. */
  orderNumber: typed(35),
  orderDate: typed(10),
  /** The despatch advice an invoice or a receiving advice follows. */
  despatchNumber: typed(35),
  /** The invoice a credit note corrects, and its date. */
  invoiceNumber: typed(35),
  invoiceDate: typed(10),
  invoiceType: z.enum(INVOICE_TYPES, { error: 'oneOf' }).default('INV'),
  responseType: z.enum(RESPONSE_TYPES, { error: 'oneOf' }).default('accepted'),
  currency: typed(3),
  paymentDueDate: typed(10),
  payment: DraftPaymentSchema.default(DraftPaymentSchema.parse({})),
  note: typed(512),
  buyer: DraftPartySchema.default(DraftPartySchema.parse({})),
  supplier: DraftPartySchema.default(DraftPartySchema.parse({})),
  deliveryPoint: DraftPartySchema.default(DraftPartySchema.parse({})),
  invoicee: DraftPartySchema.default(DraftPartySchema.parse({})),
  lines: z.array(DraftLineSchema).max(DRAFT_MAX_LINES, 'tooBig').default([]),
  packages: z.array(DraftPackageSchema).max(DRAFT_MAX_PACKAGES, 'tooBig').default([]),
});
export type DraftFormInput = z.input<typeof DraftFormSchema>;
export type DraftForm = z.output<typeof DraftFormSchema>;

/** An empty form of a kind, as the menu opens it. */
export const emptyDraftForm = (): DraftForm => DraftFormSchema.parse({});

/** A problem of a form: the field's path (`buyer.gln`, `lines.2.quantity`) and the `validation` code. */
export type DraftProblem = { field: string; code: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day (not 2026-02-30, which Date would roll over into March). */
const isIsoDate = (v: string): boolean => {
  if (!ISO_DATE.test(v)) return false;
  const day = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v;
};
/** An amount of money as typed: up to 15 digits and 2 decimals, `,` or `.` as the mark. */
const AMOUNT = /^\d{1,15}([.,]\d{1,2})?$/;
/** A percentage as typed: up to 3 digits and 4 decimals; 0–100 is checked apart. */
const PERCENTAGE = /^\d{1,3}([.,]\d{1,4})?$/;
const isPercentage = (v: string) => PERCENTAGE.test(v) && Number(v.replace(',', '.')) <= 100;
/** Whole days: 0–999. */
const DAYS = /^\d{1,3}$/;

/** A quantity: up to 15 digits and 3 decimals; a credit note's may be negative. */
const QUANTITY = /^-?\d{1,15}([.,]\d{1,3})?$/;
const isSscc = (v: string) => /^\d{18}$/.test(v) && sscc(v);
/** The GS1 check digit over all 18 digits (weights 3, 1 from the right). */
function sscc(v: string): boolean {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(v[16 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(v[17]);
}

/** Which references and parts each kind must carry. */
const NEEDS = {
  order: { order: false, prices: false, despatch: false, packages: false },
  order_response: { order: true, prices: false, despatch: false, packages: false },
  despatch_advice: { order: true, prices: false, despatch: false, packages: true },
  invoice: { order: false, prices: true, despatch: false, packages: false },
  credit_note: { order: false, prices: true, despatch: false, packages: false },
  receiving_advice: { order: false, prices: false, despatch: true, packages: false },
} as const satisfies Record<DraftKind, Record<string, boolean>>;

/**
 * What stands between a form and a Send: required values, formats and GS1 check digits. The same list shows next to
 * the fields in the browser and comes back as the server's 400 details; the EDIFACT engine judges the rest.
 */
export function draftProblems(kind: DraftKind, form: DraftForm): DraftProblem[] {
  const problems: DraftProblem[] = [];
  const need = NEEDS[kind];
  const add = (field: string, code: string) => problems.push({ field, code });
  const requireText = (field: string, value: string) => (value ? true : (add(field, 'required'), false));
  const date = (field: string, value: string, required: boolean) => {
    if (!value) {
      if (required) add(field, 'required');
    } else if (!isIsoDate(value)) add(field, 'date');
  };
  requireText('number', form.number);
  date('documentDate', form.documentDate, true);
  date('deliveryDate', form.deliveryDate, false);
  date('orderDate', form.orderDate, false);
  date('invoiceDate', form.invoiceDate, false);
  date('paymentDueDate', form.paymentDueDate, false);
  if (need.order) requireText('orderNumber', form.orderNumber);
  if (need.despatch) requireText('despatchNumber', form.despatchNumber);
  if (kind === 'credit_note') requireText('invoiceNumber', form.invoiceNumber);
  if (form.currency && !/^[A-Z]{3}$/.test(form.currency)) add('currency', 'currency');

  const party = (name: 'buyer' | 'supplier' | 'deliveryPoint' | 'invoicee', required: boolean) => {
    const p = form[name];
    if (!p.gln) {
      if (required) add(`${name}.gln`, 'required');
    } else if (!isValidGln(p.gln)) add(`${name}.gln`, 'gln');
    if (p.country && !/^[A-Z]{2}$/.test(p.country)) add(`${name}.country`, 'country');
  };
  party('buyer', true);
  party('supplier', true);
  party('deliveryPoint', false);
  party('invoicee', false);

  if (form.lines.length === 0) add('lines', 'linesRequired');
  form.lines.forEach((line, i) => {
    const at = `lines.${i}`;
    if (!line.gtin && !line.buyerArticleNumber && !line.supplierArticleNumber && !line.description) {
      add(`${at}.gtin`, 'articleRequired');
    }
    if (line.gtin && !isValidGtin(line.gtin)) add(`${at}.gtin`, 'gtin');
    const negative = kind === 'credit_note';
    if (!line.quantity) add(`${at}.quantity`, 'required');
    else if (!QUANTITY.test(line.quantity) || (!negative && line.quantity.startsWith('-'))) {
      add(`${at}.quantity`, 'quantity');
    }
    if (line.expectedQuantity && !QUANTITY.test(line.expectedQuantity)) add(`${at}.expectedQuantity`, 'quantity');
    if (line.unit && !UNIT_PATTERN.test(line.unit)) add(`${at}.unit`, 'unit');
    const price = line.price.replace(',', '.');
    if (!price) {
      if (need.prices) add(`${at}.price`, 'required');
    } else if (!PRICE_PATTERN.test(price)) add(`${at}.price`, 'price');
    if (!line.vatRate) {
      if (need.prices) add(`${at}.vatRate`, 'required');
    } else if (!isVatRate(line.vatRate.replace(',', '.').toLowerCase())) add(`${at}.vatRate`, 'vatRate');
    if (DRAFT_ALLOWANCE_KINDS.includes(kind)) {
      line.allowances.forEach((allowance, j) => {
        const where = `${at}.allowances.${j}`;
        if (!allowance.reason) add(`${where}.reason`, 'required');
        else if (!(ALLOWANCE_REASONS as readonly string[]).includes(allowance.reason)) add(`${where}.reason`, 'oneOf');
        if (!allowance.value) add(`${where}.value`, 'required');
        else if (allowance.calculation === 'percentage' && !isPercentage(allowance.value)) {
          add(`${where}.value`, 'percentage');
        } else if (allowance.calculation === 'amount' && !AMOUNT.test(allowance.value)) add(`${where}.value`, 'amount');
      });
    }
    if (need.packages) {
      const n = Number(line.packageNumber);
      if (!line.packageNumber) add(`${at}.packageNumber`, 'required');
      else if (!Number.isInteger(n) || n < 1 || n > form.packages.length) add(`${at}.packageNumber`, 'package');
    }
  });
  if (need.prices) paymentProblems(form, add);
  if (need.packages) {
    if (form.packages.length === 0) add('packages', 'packagesRequired');
    const seen = new Set<string>();
    form.packages.forEach((pkg, i) => {
      if (!pkg.sscc) add(`packages.${i}.sscc`, 'required');
      else if (!isSscc(pkg.sscc)) add(`packages.${i}.sscc`, 'sscc');
      else if (seen.has(pkg.sscc)) add(`packages.${i}.sscc`, 'duplicate');
      seen.add(pkg.sscc);
    });
  }
  return problems;
}

/** An invoice's payment terms: what each terms type needs, a discount's percentage with its days, the IBAN. */
function paymentProblems(form: DraftForm, add: (field: string, code: string) => void): void {
  const { payment } = form;
  if (payment.terms === 'fixed_date' && !form.paymentDueDate) add('paymentDueDate', 'required');
  if (payment.terms === 'net_days') {
    if (!payment.days) add('payment.days', 'required');
    else if (!DAYS.test(payment.days)) add('payment.days', 'days');
  } else if (payment.days && !DAYS.test(payment.days)) add('payment.days', 'days');
  const discount = payment.discountPercentage || payment.discountDays;
  if (discount) {
    if (!payment.discountPercentage) add('payment.discountPercentage', 'required');
    else if (!isPercentage(payment.discountPercentage)) add('payment.discountPercentage', 'percentage');
    if (!payment.discountDays) add('payment.discountDays', 'required');
    else if (!DAYS.test(payment.discountDays)) add('payment.discountDays', 'days');
  }
  if (payment.iban && !isValidIban(payment.iban)) add('payment.iban', 'iban');
}

/** `POST /api/drafts`: a new draft of a kind, empty, or made from a document it answers (turnaround). */
export const CreateDraftRequestSchema = z.object({
  kind: DraftKindSchema,
  partnerId: z.uuid({ error: 'uuid' }).nullable().optional(),
  /** The document it answers: its parties, references and lines are carried over (turnaround). */
  sourceDocumentId: z.uuid({ error: 'uuid' }).optional(),
  form: DraftFormSchema.optional(),
});
export type CreateDraftRequest = z.input<typeof CreateDraftRequestSchema>;

/** `PUT /api/drafts/:id`: the form as it is now, with the version it was read at. */
export const UpdateDraftRequestSchema = z.object({
  version: z.number({ error: 'number' }).int('number').min(1, 'number'),
  partnerId: z.uuid({ error: 'uuid' }).nullable(),
  form: DraftFormSchema,
});
export type UpdateDraftRequest = z.input<typeof UpdateDraftRequestSchema>;

/** `POST /api/drafts/:id/send`: the version the user checked (a newer save in between is a 409). */
export const SendDraftRequestSchema = z.object({
  version: z.number({ error: 'number' }).int('number').min(1, 'number'),
});

export const DraftStateSchema = z.enum(['draft', 'sent']);

export const DraftSchema = z.object({
  id: z.uuid(),
  kind: DraftKindSchema,
  state: DraftStateSchema,
  version: z.number().int(),
  partnerId: z.uuid().nullable(),
  partnerName: z.string().nullable(),
  sourceDocumentId: z.uuid().nullable(),
  sentDocumentId: z.uuid().nullable(),
  form: DraftFormSchema,
  /** The VAT calculation algorithm of the user's additional settings, which the totals follow. */
  vatAlgorithm: z.enum(VAT_ALGORITHMS),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Draft = z.infer<typeof DraftSchema>;

export const DraftListItemSchema = z.object({
  id: z.uuid(),
  kind: DraftKindSchema,
  number: z.string(),
  partnerName: z.string().nullable(),
  lineCount: z.number().int(),
  updatedAt: z.string(),
});
export type DraftListItem = z.infer<typeof DraftListItemSchema>;
export const DraftListSchema = z.object({ items: z.array(DraftListItemSchema) });

/** `GET /api/drafts/kinds`: what the new-document menu offers, with the partners each kind may go to. */
export const DraftKindsSchema = z.object({
  kinds: z.array(
    z.object({
      kind: DraftKindSchema,
      partners: z.array(z.object({ id: z.uuid(), name: z.string(), gln: z.string() })),
    }),
  ),
});
export type DraftKinds = z.infer<typeof DraftKindsSchema>;

/** An EDIFACT engine finding about the written message, with the form field it concerns when one is known. */
export const DraftFindingSchema = EdifactFindingSchema.extend({ field: z.string().nullable() });
export type DraftFinding = z.infer<typeof DraftFindingSchema>;

/** `POST /api/drafts/:id/check`: the form's problems, the engine's findings, and the message it would send. */
export const DraftCheckSchema = z.object({
  ok: z.boolean(),
  problems: z.array(z.object({ field: z.string(), code: z.string() })),
  findings: z.array(DraftFindingSchema),
  /** What a partner-less or invalid form could not be written as: omitted (e.g. prices in a despatch advice). */
  omitted: z.array(z.string()),
  edifact: z.string().nullable(),
  messageType: z.string(),
  directory: z.string().nullable(),
});
export type DraftCheck = z.infer<typeof DraftCheckSchema>;

/** `POST /api/drafts/:id/send`: the outbox document it became (the same one for every repeat). */
export const DraftSentSchema = z.object({ documentId: z.uuid(), repeated: z.boolean() });
export type DraftSent = z.infer<typeof DraftSentSchema>;

/**
 * `GET /api/drafts/partners/:id/delivery-points`: a platform partner's delivery points, searched by name or GLN. A
 * picker shows the first matches, so there is no cursor.
 */
export const PartnerDeliveryPointsQuerySchema = ListQuerySchema.pick({ limit: true }).extend({
  search: ListSearchSchema,
});
export type PartnerDeliveryPointsQuery = z.infer<typeof PartnerDeliveryPointsQuerySchema>;
