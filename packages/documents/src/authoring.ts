/**
 * The forms' values to the canonical body, and a received or sent body to the form that answers it (turnaround).
 * Pure, for the browser (the preview of the totals) and the server (Check and Send) alike. What the body holds per
 * kind follows the EANCOM guides the writer serves (decision 0032): an order's lines carry ordered quantities (21),
 * a despatch advice's despatched ones (12) in SSCC-marked packages, an invoice's invoiced ones (47) with their net
 * amounts and VAT, a receiving advice's received ones (48).
 */
import type { DraftAllowance, DraftForm, DraftKind, DraftLine, DraftParty, InvoiceType } from '@portal/contracts';
import {
  emptyDocument,
  type AllowanceCharge,
  type CanonicalDocument,
  type DateValue,
  type Line,
  type Party,
  type PaymentTerm,
  type Reference,
} from './canonical.ts';
import { POLISH_INVOICE_TYPES } from './edifact/write-message.ts';
import {
  canonicalTotals,
  computeTotals,
  POLISH_VAT_CATEGORIES,
  type MoneyAdjustment,
  type MoneyLine,
  type VatAlgorithm,
} from './money.ts';

const RESPONSE_FUNCTION_CODES = { accepted: '29', changed: '4', rejected: '27' } as const;
const LINE_ACTION_CODES = { accepted: '5', changed: '3', rejected: '7' } as const;
const DOCUMENT_NAME_CODES = {
  order: '220',
  order_response: '231',
  despatch_advice: '351',
  receiving_advice: '352',
  credit_note: '381',
} as const;
/** The date each kind's `deliveryDate` is (UNCL 2005): requested delivery, despatch, actual delivery, receipt. */
const DELIVERY_DATE_QUALIFIERS: Record<DraftKind, string> = {
  order: '2',
  order_response: '2',
  despatch_advice: '11',
  invoice: '35',
  credit_note: '35',
  receiving_advice: '50',
};
/** The quantity each kind's lines state (UNCL 6063): ordered, despatched, invoiced, received. */
const QUANTITY_QUALIFIERS: Record<DraftKind, string> = {
  order: '21',
  order_response: '21',
  despatch_advice: '12',
  invoice: '47',
  credit_note: '47',
  receiving_advice: '48',
};

const decimal = (value: string): string => value.trim().replace(',', '.');
const date = (qualifier: string, value: string): DateValue => ({ qualifier, type: 'date', value, format: '102' });

/** A form's party in its role; empty values are left out. Undefined when it has no GLN (an optional party left empty). */
const partyOf = (role: string, party: DraftParty): Party | undefined => {
  if (!party.gln) return undefined;
  const out: Party = { role, gln: party.gln };
  for (const key of ['name', 'street', 'city', 'postalCode', 'country', 'vatId', 'taxId'] as const) {
    if (party[key]) out[key] = party[key];
  }
  return out;
};

const reference = (qualifier: string, value: string, dated?: string): Reference[] =>
  value ? [{ qualifier, value, ...(dated ? { dates: [date('171', dated)] } : {}) }] : [];

/** The VAT rate as a form types it (`23`, `8,5`, `ZW`) in the money module's form (`23`, `8.5`, `zw`). */
const rateOf = (vatRate: string): string => decimal(vatRate).toLowerCase();

const adjustmentOf = (allowance: DraftAllowance): MoneyAdjustment =>
  allowance.calculation === 'amount'
    ? { type: allowance.type, amount: decimal(allowance.value) }
    : { type: allowance.type, percentage: decimal(allowance.value) };

/** The money lines of a form, for `computeTotals` (the browser's running totals and the written invoice alike). */
export const moneyLinesOf = (form: Pick<DraftForm, 'lines'>): MoneyLine[] =>
  form.lines.map((line) => ({
    quantity: decimal(line.quantity),
    price: decimal(line.price),
    vatRate: rateOf(line.vatRate),
    ...(line.allowances?.length ? { adjustments: line.allowances.map(adjustmentOf) } : {}),
  }));

/**
 * A line's allowances and charges as ALC groups (EANCOM: ALC with 5463 A or C, 1227 calculation sequence 1, C214
 * 7161 the reason; PCD 1 or 2 its percentage; MOA 204 allowance or 23 charge amount). `amounts` are the money
 * module's figures for the line; without them (an order whose price is not typed yet) a fixed amount is written as
 * typed and a percentage alone.
 */
const allowancesOf = (line: DraftLine, amounts: readonly string[] | undefined): AllowanceCharge[] =>
  line.allowances.map((allowance, i) => {
    const out: AllowanceCharge = { type: allowance.type, sequence: '1', amounts: [] };
    if (allowance.reason) out.reasonCode = allowance.reason;
    if (allowance.calculation === 'percentage' && allowance.value) out.percentage = decimal(allowance.value);
    const amount = amounts?.[i] ?? (allowance.calculation === 'amount' ? decimal(allowance.value) : '');
    if (amount) out.amounts.push({ qualifier: allowance.type === 'allowance' ? '204' : '23', value: amount });
    return out;
  });

/**
 * The payment terms of an invoice's form (EANCOM INVOIC SG8, PAT with its DTM and PCD): PAT 3 (fixed date) or 1
 * (basic: net days after the invoice date, C112 5:3:D:days) with the due date (DTM 13); an early payment discount as
 * PAT 22 with its days and PCD 12 (discount percentage). A due date without terms is PAT 1 with DTM 13.
 */
const paymentTermsOf = (form: DraftForm): PaymentTerm[] => {
  const { payment } = form;
  const due = form.paymentDueDate ? [date('13', form.paymentDueDate)] : undefined;
  const afterInvoice = (days: string) => ({
    timeReference: '5',
    timeRelation: '3',
    periodUnit: 'D',
    periodCount: String(Number(days)),
  });
  const terms: PaymentTerm[] = [];
  if (payment.terms === 'net_days' && payment.days) {
    terms.push({ type: '1', ...afterInvoice(payment.days), ...(due ? { dates: due } : {}) });
  } else if (payment.terms === 'fixed_date' && due) terms.push({ type: '3', dates: due });
  else if (due) terms.push({ type: '1', dates: due });
  if (payment.discountPercentage && payment.discountDays) {
    terms.push({
      type: '22',
      ...afterInvoice(payment.discountDays),
      percentage: decimal(payment.discountPercentage),
    });
  }
  return terms;
};

/**
 * The canonical body a form writes. Expects a form without `draftProblems`; on one with problems it still returns a
 * body (a value being typed counts as zero), never throws.
 */
export function formToCanonical(kind: DraftKind, form: DraftForm, algorithm: VatAlgorithm): CanonicalDocument {
  const body = emptyDocument(kind);
  const invoiceLike = kind === 'invoice' || kind === 'credit_note';
  const header: CanonicalDocument['header'] = {
    number: form.number,
    ...(kind === 'invoice'
      ? POLISH_INVOICE_TYPES[form.invoiceType as InvoiceType]
      : { documentNameCode: DOCUMENT_NAME_CODES[kind as keyof typeof DOCUMENT_NAME_CODES] }),
    functionCode: kind === 'order_response' ? RESPONSE_FUNCTION_CODES[form.responseType] : '9',
    dates: [
      date('137', form.documentDate),
      ...(form.deliveryDate ? [date(DELIVERY_DATE_QUALIFIERS[kind], form.deliveryDate)] : []),
    ],
    texts: form.note ? [{ qualifier: 'AAI', text: form.note }] : [],
  };
  body.header = header;
  const order = kind === 'order' ? [] : reference('ON', form.orderNumber, form.orderDate || undefined);
  const despatch = reference('AAK', form.despatchNumber);
  // A receiving advice names the despatch advice first: it is what the receipt answers.
  body.references =
    kind === 'receiving_advice'
      ? [...despatch, ...order]
      : [
          ...order,
          ...(invoiceLike ? despatch : []),
          ...(kind === 'credit_note' ? reference('IV', form.invoiceNumber, form.invoiceDate || undefined) : []),
        ];
  const supplier = partyOf('SU', form.supplier);
  const iban = form.payment.iban.replace(/\s+/g, '').toUpperCase();
  // The payee's account goes with the supplier (NAD SU, FII RB): EANCOM INVOIC has no FII outside a party.
  if (supplier && invoiceLike && iban) supplier.accounts = [{ qualifier: 'RB', account: iban }];
  const parties = [
    partyOf('BY', form.buyer),
    kind === 'order_response' ? undefined : partyOf('DP', form.deliveryPoint),
    supplier,
    invoiceLike ? partyOf('IV', form.invoicee) : undefined,
  ];
  body.parties = parties.filter((p): p is Party => p !== undefined);
  if (kind === 'order' || kind === 'order_response' || invoiceLike) body.currency = form.currency || 'PLN';

  const totals = invoiceLike ? computeTotals(moneyLinesOf(form), algorithm) : undefined;
  body.lines = form.lines.map((line, i): Line => {
    const out: Line = { lineNumber: String(i + 1), quantities: [], prices: [], amounts: [] };
    if (kind === 'order_response') out.action = LINE_ACTION_CODES[line.action ?? 'accepted'];
    if (line.gtin) out.gtin = line.gtin;
    if (line.buyerArticleNumber) out.buyerArticleNumber = line.buyerArticleNumber;
    if (line.supplierArticleNumber) out.supplierArticleNumber = line.supplierArticleNumber;
    if (line.description) out.description = line.description;
    out.quantities.push({
      qualifier: QUANTITY_QUALIFIERS[kind],
      value: decimal(line.quantity) || '0',
      ...(line.unit ? { unit: line.unit } : {}),
    });
    if (kind === 'receiving_advice' && line.expectedQuantity) {
      out.quantities.push({ qualifier: '12', value: decimal(line.expectedQuantity) });
    }
    const priced = kind !== 'despatch_advice' && kind !== 'receiving_advice';
    const adjusted = priced && line.allowances.length > 0;
    if (line.price && priced) {
      // AAA is the net price; a line with allowances or charges states its price before them, AAB (gross price).
      out.prices.push({ qualifier: adjusted ? 'AAB' : 'AAA', value: decimal(line.price) });
    }
    if (adjusted) {
      const amounts = totals?.lines[i]?.adjustments ?? lineTotals(line)?.adjustments;
      out.allowances = allowancesOf(line, amounts);
    }
    if (totals) {
      const money = totals.lines[i]!;
      out.amounts.push({ qualifier: '203', value: money.net });
      out.taxes = [
        {
          qualifier: '7',
          type: 'VAT',
          ...(money.rate === undefined ? {} : { rate: money.rate }),
          category: money.category,
          amounts: [],
        },
      ];
    }
    if (kind === 'despatch_advice') {
      if (form.orderNumber) {
        out.references = [
          {
            qualifier: 'ON',
            value: form.orderNumber,
            ...(line.orderLineNumber ? { lineNumber: line.orderLineNumber } : {}),
          },
        ];
      }
      // Package 1 is the shipment; the form's packages are 2, 3… inside it.
      out.packageId = String(Number(line.packageNumber) + 1);
    }
    if (kind === 'receiving_advice') out.packageId = '1';
    return out;
  });
  if (kind === 'despatch_advice') {
    body.packages = [
      { id: '1', packaging: [{ count: String(form.packages.length), type: '201', sscc: [] }] },
      ...form.packages.map((pkg, i) => ({
        id: String(i + 2),
        parentId: '1',
        packaging: [{ count: '1', type: pkg.type || '201', sscc: pkg.sscc ? [pkg.sscc] : [] }],
      })),
    ];
  }
  if (kind === 'receiving_advice') body.packages = [{ id: '1', packaging: [] }];
  if (totals) {
    const { totals: amounts, taxes } = canonicalTotals(totals);
    body.totals = amounts;
    body.taxes = taxes;
    body.paymentTerms = paymentTermsOf(form);
    if (form.payment.means) body.paymentMeans = form.payment.means;
  }
  return body;
}

/** One line's money when its values are decimals (an order's allowance amounts); undefined while being typed. */
const lineTotals = (line: DraftLine) => {
  const totals = computeTotals(moneyLinesOf({ lines: [{ ...line, vatRate: line.vatRate || '0' }] }), 'lines');
  return totals.invalidLines.length ? undefined : totals.lines[0];
};

const EMPTY_PARTY: DraftParty = {
  gln: '',
  name: '',
  street: '',
  city: '',
  postalCode: '',
  country: '',
  vatId: '',
  taxId: '',
};

const EMPTY_PAYMENT: DraftForm['payment'] = {
  terms: '',
  days: '',
  discountPercentage: '',
  discountDays: '',
  means: '',
  iban: '',
};

/**
 * A line's allowances and charges as a form's: the percentage when one was sent, else the amount as a magnitude (a
 * credit note's negative amount is the same allowance). What has neither is left out.
 */
const formAllowancesOf = (line: Line): DraftAllowance[] =>
  (line.allowances ?? []).flatMap((a): DraftAllowance[] => {
    const amount = a.amounts.find((m) => m.qualifier === '204' || m.qualifier === '23') ?? a.amounts[0];
    const common = { type: a.type, reason: a.reasonCode ?? '' };
    if (a.percentage !== undefined) return [{ ...common, calculation: 'percentage', value: a.percentage }];
    if (amount) return [{ ...common, calculation: 'amount', value: amount.value.replace(/^-/, '') }];
    return [];
  });

const formPartyOf = (body: CanonicalDocument, role: string): DraftParty => {
  const party = body.parties.find((p) => p.role === role);
  if (!party) return { ...EMPTY_PARTY };
  return {
    gln: party.gln ?? '',
    name: party.name ?? party.addressLines?.join(' ') ?? '',
    street: party.street ?? '',
    city: party.city ?? '',
    postalCode: party.postalCode ?? '',
    country: party.country ?? '',
    vatId: party.vatId ?? '',
    taxId: party.taxId ?? '',
  };
};

const dateOf = (dates: readonly DateValue[] | undefined, qualifier: string): string => {
  const found = dates?.find((d) => d.qualifier === qualifier && (d.type === 'date' || d.type === 'dateTime'));
  return found ? found.value.slice(0, 10) : '';
};

const referenceOf = (body: CanonicalDocument, qualifier: string): string =>
  body.references.find((r) => r.qualifier === qualifier)?.value ?? '';

/** A line's VAT rate as a form shows it: the percentage, or the Polish category of a rate without one. */
const formRateOf = (line: Line): string => {
  const tax = line.taxes?.find((t) => t.type === 'VAT' || t.qualifier === '7');
  if (!tax) return '';
  if (tax.rate !== undefined) return tax.rate;
  const category = Object.entries(POLISH_VAT_CATEGORIES).find(([, code]) => code === tax.category);
  return category?.[0] ?? '';
};

/** What a company's product list gives a line that its source leaves out. */
export type CatalogueItem = {
  description?: string;
  supplierArticleNumber?: string;
  unit?: string;
  price?: string;
  vatRate?: string;
};

/** Which turnarounds exist: from a received order its answers, from a despatch advice the invoice and the receipt. */
export const TURNAROUNDS: Readonly<Partial<Record<CanonicalDocument['kind'], readonly DraftKind[]>>> = {
  order: ['order_response', 'despatch_advice', 'invoice'],
  despatch_advice: ['invoice', 'receiving_advice'],
  invoice: ['credit_note'],
};

/**
 * The form that answers `source` as a `target` (turnaround, "PO flip"): every party, reference and line carried over,
 * the quantities as the source states them (the user changes what differs). Number and dates are the new
 * document's own, left for the user (the date defaults to `today`).
 */
export function turnaroundForm(
  source: CanonicalDocument,
  target: DraftKind,
  today: string,
  /** The answering company's product of a GTIN: what the source does not state (an order's VAT rate) comes from it. */
  productOf: (gtin: string) => CatalogueItem | undefined = () => undefined,
): DraftForm {
  const fromOrder = source.kind === 'order';
  const sourceQuantity = (line: Line): string => {
    const wanted = fromOrder ? '21' : source.kind === 'despatch_advice' ? '12' : '47';
    return (line.quantities.find((q) => q.qualifier === wanted) ?? line.quantities[0])?.value ?? '';
  };
  const lines: DraftLine[] = source.lines
    .filter((line) => !line.parentLineNumber)
    .map((line) => {
      const quantity = sourceQuantity(line);
      const corrected = target === 'credit_note' && quantity && !quantity.startsWith('-') ? `-${quantity}` : quantity;
      const price = line.prices.find((p) => p.qualifier === 'AAA') ?? line.prices[0];
      const product = line.gtin ? productOf(line.gtin) : undefined;
      return {
        gtin: line.gtin ?? '',
        buyerArticleNumber: line.buyerArticleNumber ?? '',
        supplierArticleNumber: line.supplierArticleNumber ?? product?.supplierArticleNumber ?? '',
        description: line.description ?? product?.description ?? '',
        quantity: corrected,
        expectedQuantity: quantity,
        unit: line.quantities[0]?.unit ?? product?.unit ?? '',
        price: price?.value ?? product?.price ?? '',
        vatRate: formRateOf(line) || (product?.vatRate ?? ''),
        ...(target === 'order_response' ? { action: 'accepted' as const } : {}),
        orderLineNumber: fromOrder ? (line.lineNumber ?? '') : '',
        packageNumber: target === 'despatch_advice' ? '1' : '',
        allowances: target === 'despatch_advice' || target === 'receiving_advice' ? [] : formAllowancesOf(line),
      };
    });
  const orderNumber = fromOrder ? (source.header.number ?? '') : referenceOf(source, 'ON');
  return {
    number: '',
    documentDate: today,
    deliveryDate: fromOrder && target === 'order_response' ? dateOf(source.header.dates, '2') : '',
    orderNumber,
    orderDate: fromOrder ? dateOf(source.header.dates, '137') : '',
    despatchNumber: source.kind === 'despatch_advice' ? (source.header.number ?? '') : referenceOf(source, 'AAK'),
    invoiceNumber: source.kind === 'invoice' ? (source.header.number ?? '') : '',
    invoiceDate: source.kind === 'invoice' ? dateOf(source.header.dates, '137') : '',
    invoiceType: 'INV',
    responseType: 'accepted',
    currency: source.currency ?? '',
    paymentDueDate: '',
    payment: { ...EMPTY_PAYMENT },
    note: '',
    buyer: formPartyOf(source, 'BY'),
    supplier: formPartyOf(source, 'SU'),
    deliveryPoint: formPartyOf(source, 'DP'),
    invoicee: formPartyOf(source, 'IV'),
    lines,
    packages: target === 'despatch_advice' ? [{ sscc: '', type: '201' }] : [],
  };
}
