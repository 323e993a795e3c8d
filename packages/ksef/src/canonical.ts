/**
 * FA(3) and the portal's canonical document body (@portal/documents, decision 0018), both ways:
 * {@link fa3ToCanonical} so the document view shows a received KSeF invoice, and {@link canonicalToKsefInvoice} so an
 * invoice authored in the portal's form (`formToCanonical`) can be sent to KSeF. Codes are the canonical body's
 * UN/CEFACT ones: parties SU/BY, dates 137 (issue) and 35 (delivery), references IV (corrected invoice) and ON
 * (order), quantities 47 (invoiced), prices AAA (net) and AAB (gross), amounts 203 (line net), taxes 7/VAT with
 * category S/Z/E/O/AE, totals 79/125/176/77.
 */
import type { InvoiceType } from '@portal/contracts';
import {
  emptyDocument,
  polishInvoiceTypeOf,
  type Amount,
  type CanonicalDocument,
  type Line as CanonicalLine,
  type Party,
  type Tax,
} from '@portal/documents';
import DecimalJs from 'decimal.js';
import type {
  Address,
  AdvanceInvoice,
  Buyer,
  Contact,
  KsefInvoice,
  KsefInvoiceInput,
  Line,
  OrderLine,
  PartyId,
  Summary,
  SummaryField,
  VatRate,
} from './model.ts';
import { computeAdvanceSummary, computeSummary, lineNet, orderSummary } from './summary.ts';

const D = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });

/** Each FA(3) rate's percentage (undefined: none) and UNCL 5305 category. */
const RATE_CATEGORIES: Record<VatRate, { rate?: string; category: string }> = {
  '23': { rate: '23', category: 'S' },
  '22': { rate: '22', category: 'S' },
  '8': { rate: '8', category: 'S' },
  '7': { rate: '7', category: 'S' },
  '5': { rate: '5', category: 'S' },
  '4': { rate: '4', category: 'S' },
  '3': { rate: '3', category: 'S' },
  '0 KR': { rate: '0', category: 'Z' },
  '0 WDT': { rate: '0', category: 'K' },
  '0 EX': { rate: '0', category: 'G' },
  zw: { category: 'E' },
  oo: { category: 'AE' },
  'np I': { category: 'O' },
  'np II': { category: 'O' },
};

/** The summary's net and VAT fields, with the rates each may stand for (the first is assumed without lines). */
const SUMMARY_BUCKETS: { net: SummaryField; vat?: SummaryField; rates: VatRate[] }[] = [
  { net: 'P_13_1', vat: 'P_14_1', rates: ['23', '22'] },
  { net: 'P_13_2', vat: 'P_14_2', rates: ['8', '7'] },
  { net: 'P_13_3', vat: 'P_14_3', rates: ['5'] },
  { net: 'P_13_4', vat: 'P_14_4', rates: ['4', '3'] },
  { net: 'P_13_6_1', rates: ['0 KR'] },
  { net: 'P_13_6_2', rates: ['0 WDT'] },
  { net: 'P_13_6_3', rates: ['0 EX'] },
  { net: 'P_13_7', rates: ['zw'] },
  { net: 'P_13_8', rates: ['np I'] },
  { net: 'P_13_9', rates: ['np II'] },
  { net: 'P_13_10', rates: ['oo'] },
];

/** Podmiot3 roles that have a UNCL 3035 counterpart: factor → payee, recipient → ultimate consignee, payer. */
const THIRD_PARTY_ROLES: Record<string, string> = { '1': 'PE', '2': 'UC', '6': 'PR' };

const addressFields = (a: Address | undefined): Partial<Party> =>
  a
    ? {
        addressLines: a.line2 ? [a.line1, a.line2] : [a.line1],
        country: a.countryCode,
        ...(a.gln ? { gln: a.gln } : {}),
      }
    : {};

const contactsOf = (list: readonly Contact[]): Partial<Party> => {
  const communications = list.flatMap((c) => [
    ...(c.email ? [{ channel: 'EM', value: c.email }] : []),
    ...(c.phone ? [{ channel: 'TE', value: c.phone }] : []),
  ]);
  return communications.length > 0 ? { contacts: [{ communications }] } : {};
};

const idFields = (id: PartyId): Partial<Party> => {
  switch (id.type) {
    case 'nip':
      return { taxId: id.nip };
    case 'eu':
      return { vatId: `${id.countryCode}${id.vatNumber}` };
    case 'other':
      return { id: { value: id.id, ...(id.countryCode ? { codeList: id.countryCode } : {}) } };
    case 'internal':
      return { id: { value: id.id } };
    case 'none':
      return {};
  }
};

const taxOf = (vatRate: VatRate | undefined): Tax[] | undefined => {
  if (!vatRate) return undefined;
  const { rate, category } = RATE_CATEGORIES[vatRate];
  return [{ qualifier: '7', type: 'VAT', ...(rate !== undefined ? { rate } : {}), category, amounts: [] }];
};

const canonicalLine = (line: Line | OrderLine, index: number, quantityQualifier: string): CanonicalLine => {
  const out: CanonicalLine = {
    lineNumber: line.lineNumber ?? String(index + 1),
    quantities: [],
    prices: [],
    amounts: [],
  };
  if (line.gtin) out.gtin = line.gtin;
  if (line.itemIndex) out.supplierArticleNumber = line.itemIndex;
  if (line.name) out.description = line.name;
  if (line.quantity !== undefined) {
    out.quantities.push({
      qualifier: quantityQualifier,
      value: line.quantity,
      ...(line.unit ? { unit: line.unit } : {}),
    });
  }
  if (line.netUnitPrice !== undefined) out.prices.push({ qualifier: 'AAA', value: line.netUnitPrice });
  if ('grossUnitPrice' in line && line.grossUnitPrice !== undefined) {
    out.prices.push({ qualifier: 'AAB', value: line.grossUnitPrice });
  }
  if (line.netValue !== undefined || line.netUnitPrice !== undefined) {
    out.amounts.push({ qualifier: '203', value: lineNet(line) });
  }
  if ('grossValue' in line && line.grossValue !== undefined)
    out.amounts.push({ qualifier: '38', value: line.grossValue });
  const taxes = taxOf(line.vatRate);
  if (taxes) out.taxes = taxes;
  if ('saleDate' in line && line.saleDate) out.dates = [{ qualifier: '35', type: 'date', value: line.saleDate }];
  if (line.before) out.texts = [{ qualifier: 'AAI', text: 'StanPrzed' }];
  return out;
};

/** The document name code and name of an FA(3) kind (the same as the EANCOM writer's Polish invoice types). */
const headerCodes = (inv: KsefInvoice): Pick<CanonicalDocument['header'], 'documentNameCode' | 'documentName'> => {
  switch (inv.kind) {
    case 'VAT':
      return { documentNameCode: inv.annotations.selfBilling === '1' ? '389' : '380' };
    case 'ZAL':
      return { documentNameCode: '386' };
    case 'ROZ':
    case 'UPR':
      return { documentNameCode: '380', documentName: inv.kind };
    case 'KOR':
      return { documentNameCode: '381' };
    case 'KOR_ZAL':
    case 'KOR_ROZ':
      return { documentNameCode: '381', documentName: inv.kind };
  }
};

/** The canonical body of an FA(3) invoice: what the document view shows. */
export function fa3ToCanonical(inv: KsefInvoice): CanonicalDocument {
  const correction = inv.kind.startsWith('KOR');
  const body = emptyDocument(correction ? 'credit_note' : 'invoice');
  const delivery = inv.salePeriod
    ? { qualifier: '35', type: 'period' as const, value: `${inv.salePeriod.from}/${inv.salePeriod.to}` }
    : inv.saleDate
      ? { qualifier: '35', type: 'date' as const, value: inv.saleDate }
      : undefined;
  body.header = {
    number: inv.number,
    ...headerCodes(inv),
    functionCode: '9',
    dates: [{ qualifier: '137', type: 'date', value: inv.issueDate }, ...(delivery ? [delivery] : [])],
    texts: [
      ...(inv.correction?.reason ? [{ qualifier: 'ACD', text: inv.correction.reason }] : []),
      ...inv.advanceInvoices.map((a: AdvanceInvoice) => ({
        qualifier: 'AAI',
        text: 'ksefNumber' in a ? `FakturaZaliczkowa ${a.ksefNumber}` : `FakturaZaliczkowa ${a.number}`,
      })),
      ...inv.additionalInfo.map((d) => ({ qualifier: 'AAI', text: `${d.key}: ${d.value}` })),
    ],
  };
  body.references = [
    ...(inv.correction?.corrected ?? []).map((c) => ({
      qualifier: 'IV',
      value: c.number,
      dates: [{ qualifier: '171', type: 'date' as const, value: c.issueDate }],
    })),
    ...(inv.terms?.orders ?? [])
      .filter((o) => o.number)
      .map((o) => ({
        qualifier: 'ON',
        value: o.number,
        ...(o.date ? { dates: [{ qualifier: '171', type: 'date' as const, value: o.date }] } : {}),
      })),
    ...(inv.terms?.contracts ?? []).filter((o) => o.number).map((o) => ({ qualifier: 'CT', value: o.number })),
    ...inv.deliveryNotes.map((value) => ({ qualifier: 'DQ', value })),
  ];
  const seller: Party = {
    role: 'SU',
    taxId: inv.seller.nip,
    ...(inv.seller.vatPrefix ? { vatId: `PL${inv.seller.nip}` } : {}),
    name: inv.seller.name,
    ...addressFields(inv.seller.address),
    ...contactsOf(inv.seller.contacts),
  };
  const buyer: Party = {
    role: 'BY',
    ...idFields(inv.buyer.id),
    ...(inv.buyer.name ? { name: inv.buyer.name } : {}),
    ...addressFields(inv.buyer.address),
    ...contactsOf(inv.buyer.contacts),
  };
  body.parties = [
    buyer,
    seller,
    ...inv.thirdParties.map((p): Party => ({
      role: (p.role && THIRD_PARTY_ROLES[p.role]) ?? 'ZZZ',
      ...idFields(p.id),
      ...(p.name ? { name: p.name } : {}),
      ...addressFields(p.address),
      ...contactsOf(p.contacts),
    })),
  ];
  body.currency = inv.currency;
  body.lines =
    inv.lines.length > 0
      ? inv.lines.map((l, i) => canonicalLine(l, i, '47'))
      : (inv.order?.lines ?? []).map((l, i) => canonicalLine(l, i, '21'));
  if (inv.payment) {
    const dueDates = inv.payment.dueDates.flatMap((d) => (d.date ? [d.date] : []));
    body.paymentTerms = dueDates.map((date) => ({
      type: '1',
      dates: [{ qualifier: '13', type: 'date', value: date }],
    }));
  }
  const summary = inv.summary ?? computeSummary(inv.lines);
  const rateLines = inv.lines.length > 0 ? inv.lines : (inv.order?.lines ?? []);
  let net = new D(0);
  let vat = new D(0);
  const amount = (qualifier: string, value: string): Amount => ({ qualifier, value, currency: inv.currency });
  for (const bucket of SUMMARY_BUCKETS) {
    const bucketNet = summary[bucket.net];
    if (bucketNet === undefined) continue;
    const bucketVat = bucket.vat ? (summary[bucket.vat] ?? '0') : '0';
    const used = bucket.rates.find((r) => rateLines.some((l) => l.vatRate === r)) ?? bucket.rates[0]!;
    const { rate, category } = RATE_CATEGORIES[used];
    body.taxes.push({
      qualifier: '7',
      type: 'VAT',
      ...(rate !== undefined ? { rate } : {}),
      category,
      amounts: [amount('125', bucketNet), amount('124', bucketVat)],
    });
    net = net.plus(bucketNet);
    vat = vat.plus(bucketVat);
  }
  body.totals = [
    amount('79', net.toFixed(2)),
    amount('125', net.toFixed(2)),
    amount('176', vat.toFixed(2)),
    amount('77', summary.P_15 ?? net.plus(vat).toFixed(2)),
    ...(inv.settlement?.toPay !== undefined ? [amount('9', inv.settlement.toPay)] : []),
  ];
  return body;
}

/** What FA(3) needs that the portal's invoice body does not hold. */
export type KsefExtras = {
  /** The seller's address lines when the body's SU party has no street and city (FA(3) requires an address). */
  sellerAddress?: Address;
  buyerAddress?: Address;
  issuePlace?: string;
  /** Naglowek/SystemInfo, e.g. the portal's name and version. */
  systemInfo?: string;
  /** DataWytworzeniaFa; default: the time of writing. */
  createdAt?: string;
  /** The corrected invoice's KSeF number (KOR); the body's IV reference gives its number and date. */
  correctedKsefNumber?: string;
  correctionReason?: string;
  correctionType?: '1' | '2' | '3';
  /**
   * ZAL: the advance received (gross; default: the body's prepaid amount, MOA 113) and the order it is paid for
   * (default: the body's lines as the order).
   */
  advanceGross?: string;
  orderValue?: string;
  /** ROZ: the advance invoices settled. */
  advanceInvoices?: AdvanceInvoice[];
  /** Split payment (P_18A), reverse charge (P_18), cash accounting (P_16). */
  splitPayment?: boolean;
  reverseCharge?: boolean;
  cashAccounting?: boolean;
  /** The payee's account when the body's payment terms have none. */
  bankAccount?: string;
};

/** The canonical VAT of a line back to an FA(3) rate. */
const vatRateOf = (taxes: readonly Tax[] | undefined): VatRate | undefined => {
  const tax = taxes?.find((t) => t.type === 'VAT' || t.qualifier === '7');
  if (!tax) return undefined;
  if (tax.category === 'E') return 'zw';
  if (tax.category === 'AE') return 'oo';
  if (tax.category === 'O') return 'np I';
  if (tax.category === 'K') return '0 WDT';
  if (tax.category === 'G') return '0 EX';
  if (tax.rate === undefined) return undefined;
  const rate = new D(tax.rate);
  if (rate.isZero()) return '0 KR';
  const known = RATE_CATEGORIES[rate.toString() as VatRate] as { rate?: string } | undefined;
  if (!known?.rate) throw new RangeError(`VAT rate ${tax.rate} has no FA(3) code`);
  return rate.toString() as VatRate;
};

const partyAddress = (party: Party | undefined, fallback: Address | undefined): Address => {
  if (fallback) return fallback;
  const line1 = party?.street ?? party?.addressLines?.[0];
  if (!party || !line1) throw new RangeError(`party ${party?.role ?? ''} has no address; pass it in extras`);
  const line2 = [party.postalCode, party.city].filter(Boolean).join(' ') || party.addressLines?.[1];
  return { countryCode: party.country || 'PL', line1, ...(line2 ? { line2 } : {}) };
};

/** A NIP from a party's tax id, or its VAT id when that is `PL` + 10 digits. */
const nipOf = (party: Party | undefined): string | undefined => {
  const tax = party?.taxId?.replace(/[\s-]/g, '');
  if (tax && /^\d{10}$/.test(tax)) return tax;
  const vat = party?.vatId?.replace(/[\s-]/g, '');
  if (vat && /^PL\d{10}$/.test(vat)) return vat.slice(2);
  return undefined;
};

const buyerIdOf = (party: Party | undefined): PartyId => {
  const nip = nipOf(party);
  if (nip) return { type: 'nip', nip };
  const vat = party?.vatId?.replace(/\s/g, '');
  if (vat && /^[A-Z]{2}/.test(vat)) return { type: 'eu', countryCode: vat.slice(0, 2), vatNumber: vat.slice(2) };
  if (party?.taxId) return { type: 'other', id: party.taxId, ...(party.country ? { countryCode: party.country } : {}) };
  return { type: 'none' };
};

/**
 * The body's own VAT breakdown as an FA(3) summary, so the invoice sent carries exactly the totals the user saw (the
 * portal's form rounds VAT per line or per rate, as the company chose); undefined when the body states none.
 */
const statedSummary = (doc: CanonicalDocument): Summary | undefined => {
  const gross = doc.totals.find((t) => t.qualifier === '77')?.value;
  if (gross === undefined || doc.taxes.length === 0) return undefined;
  const sums = new Map<SummaryField, InstanceType<typeof D>>();
  for (const tax of doc.taxes) {
    const rate = vatRateOf([tax]);
    const net = tax.amounts.find((a) => a.qualifier === '125')?.value;
    const vat = tax.amounts.find((a) => a.qualifier === '124')?.value ?? '0';
    const bucket = SUMMARY_BUCKETS.find((b) => rate && b.rates.includes(rate));
    if (!bucket || net === undefined) return undefined;
    sums.set(bucket.net, (sums.get(bucket.net) ?? new D(0)).plus(net));
    if (bucket.vat) sums.set(bucket.vat, (sums.get(bucket.vat) ?? new D(0)).plus(vat));
  }
  const summary: Summary = {};
  for (const [field, value] of sums) summary[field] = value.toFixed(2);
  summary.P_15 = new D(gross).toFixed(2);
  return orderSummary(summary);
};

/**
 * The invoice a correction (a credit note, FA(3) KOR) corrects, as its body names it: the first IV reference with its
 * date (NrFaKorygowanej and DataWystFaKorygowanej). Null for any other document, or a correction that names no
 * invoice or no date (FA(3) cannot be written of it then).
 */
export function correctedInvoiceOf(doc: CanonicalDocument): { number: string; issueDate: string } | null {
  if (doc.kind !== 'credit_note') return null;
  const first = doc.references.find((r) => r.qualifier === 'IV' && r.value);
  const issueDate = first?.dates?.[0]?.value.slice(0, 10);
  return first?.value && issueDate ? { number: first.value, issueDate } : null;
}

/** The FA(3) kind of a portal invoice: SB is a VAT invoice with P_17 = 1; a credit note is a correction. */
const kindOf = (doc: CanonicalDocument): { kind: KsefInvoice['kind']; type?: InvoiceType } => {
  if (doc.kind === 'credit_note') return { kind: 'KOR' };
  const type = polishInvoiceTypeOf(doc.header) ?? 'INV';
  const kinds: Record<InvoiceType, KsefInvoice['kind']> = { INV: 'VAT', SB: 'VAT', ZAL: 'ZAL', ROZ: 'ROZ', UPR: 'UPR' };
  return { kind: kinds[type], type };
};

/**
 * An invoice authored in the portal (the canonical body `formToCanonical` writes for an invoice or credit note) as a
 * KSeF invoice. Throws a RangeError when FA(3) needs what neither the body nor `extras` gives (a seller NIP, an
 * address, the corrected invoice of a correction, the advance of a ZAL).
 */
export function canonicalToKsefInvoice(doc: CanonicalDocument, extras: KsefExtras = {}): KsefInvoiceInput {
  if (doc.kind !== 'invoice' && doc.kind !== 'credit_note') throw new RangeError(`not an invoice: ${doc.kind}`);
  const { kind, type } = kindOf(doc);
  const supplier = doc.parties.find((p) => p.role === 'SU');
  const buyerParty = doc.parties.find((p) => p.role === 'BY');
  const sellerNip = nipOf(supplier);
  if (!sellerNip) throw new RangeError('the supplier has no NIP (taxId or PL VAT id)');
  const issueDate = doc.header.dates.find((d) => d.qualifier === '137')?.value.slice(0, 10);
  if (!issueDate || !doc.header.number) throw new RangeError('the invoice has no number or date');
  const saleDate = doc.header.dates.find((d) => d.qualifier === '35' && d.type === 'date')?.value.slice(0, 10);
  const currency = doc.currency ?? 'PLN';

  const lines: Line[] = doc.lines.map((l, i) => {
    const quantity = l.quantities.find((q) => q.qualifier === '47') ?? l.quantities[0];
    const price = l.prices.find((p) => p.qualifier === 'AAA');
    const net = l.amounts.find((a) => a.qualifier === '203');
    const vatRate = vatRateOf(l.taxes);
    return {
      lineNumber: l.lineNumber ?? String(i + 1),
      ...(l.description ? { name: l.description } : {}),
      ...(l.supplierArticleNumber ? { itemIndex: l.supplierArticleNumber } : {}),
      ...(l.gtin ? { gtin: l.gtin } : {}),
      ...(quantity?.unit ? { unit: quantity.unit } : {}),
      ...(quantity ? { quantity: quantity.value } : {}),
      ...(price ? { netUnitPrice: price.value } : {}),
      ...(net ? { netValue: net.value } : {}),
      ...(vatRate ? { vatRate } : {}),
    };
  });

  const buyer: Buyer = {
    id: buyerIdOf(buyerParty),
    ...(buyerParty?.name ? { name: buyerParty.name } : {}),
    ...(buyerParty && (buyerParty.street || buyerParty.addressLines || extras.buyerAddress)
      ? { address: partyAddress(buyerParty, extras.buyerAddress) }
      : {}),
    contacts: [],
    jst: '2',
    gv: '2',
  };

  const invoice: KsefInvoiceInput = {
    ...(extras.systemInfo ? { systemInfo: extras.systemInfo } : {}),
    ...(extras.createdAt ? { createdAt: extras.createdAt } : {}),
    seller: {
      nip: sellerNip,
      name: supplier?.name ?? supplier?.addressLines?.[0] ?? '',
      address: partyAddress(supplier, extras.sellerAddress),
      contacts: [],
    },
    buyer,
    kind,
    currency,
    issueDate,
    ...(extras.issuePlace ? { issuePlace: extras.issuePlace } : {}),
    number: doc.header.number,
    ...(saleDate && saleDate !== issueDate ? { saleDate } : {}),
    annotations: {
      selfBilling: type === 'SB' ? '1' : '2',
      splitPayment: extras.splitPayment ? '1' : '2',
      reverseCharge: extras.reverseCharge ? '1' : '2',
      cashAccounting: extras.cashAccounting ? '1' : '2',
    },
    lines: kind === 'ZAL' ? [] : lines,
  };

  const stated = statedSummary(doc);
  if (stated && kind !== 'ZAL') invoice.summary = stated;

  if (kind === 'KOR') {
    const corrected = correctedInvoiceOf(doc);
    if (!corrected) throw new RangeError('a correction needs the corrected invoice and its date');
    invoice.correction = {
      ...(extras.correctionReason ? { reason: extras.correctionReason } : {}),
      ...(extras.correctionType ? { type: extras.correctionType } : {}),
      corrected: [
        {
          issueDate: corrected.issueDate,
          number: corrected.number,
          ...(extras.correctedKsefNumber ? { ksefNumber: extras.correctedKsefNumber } : {}),
        },
      ],
    };
  }
  if (kind === 'ZAL') {
    // The advance received: given, or the body's prepaid amount (UNCL 5025 113), as an EDIFACT advance invoice states it.
    const advanceGross = extras.advanceGross ?? doc.totals.find((t) => t.qualifier === '113')?.value;
    if (!advanceGross) throw new RangeError('an advance invoice (ZAL) needs the advance received');
    const orderLines: OrderLine[] = lines.map((l) => ({
      ...(l.lineNumber ? { lineNumber: l.lineNumber } : {}),
      ...(l.name ? { name: l.name } : {}),
      ...(l.unit ? { unit: l.unit } : {}),
      ...(l.quantity ? { quantity: l.quantity } : {}),
      ...(l.netUnitPrice ? { netUnitPrice: l.netUnitPrice } : {}),
      netValue: lineNet(l),
      ...(l.vatRate ? { vatRate: l.vatRate } : {}),
    }));
    const orderGross = computeSummary(lines).P_15 ?? '0';
    invoice.order = { value: extras.orderValue ?? orderGross, lines: orderLines };
    invoice.summary = computeAdvanceSummary(orderLines, advanceGross);
  }
  if (kind === 'ROZ' && extras.advanceInvoices) invoice.advanceInvoices = extras.advanceInvoices;

  const due = doc.paymentTerms.flatMap((t) => t.dates ?? []).find((d) => d.qualifier === '13');
  if (due || extras.bankAccount) {
    invoice.payment = {
      dueDates: due ? [{ date: due.value.slice(0, 10) }] : [],
      ...(extras.bankAccount ? { form: '6' as const, bankAccounts: [{ number: extras.bankAccount }] } : {}),
    };
  }
  return invoice;
}
