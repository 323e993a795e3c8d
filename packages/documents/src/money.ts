/**
 * Money of a document as exact decimals (decimal.js), never binary floats: line net amounts, VAT by the two
 * algorithms of Polish invoicing, and the totals per rate and overall, as decimal strings of the canonical body
 * (decision 0032). Pure: no Node API, so the forms compute the same figures in the browser as the server does.
 *
 * Rounding is half-up to whole grosze (2 decimals), the Polish VAT act's rule (art. 106e ust. 11: "końcówki poniżej
 * 0,5 grosza pomija się, a końcówki od 0,5 grosza zaokrągla się do 1 grosza"); a negative amount (a credit note's
 * line) rounds away from zero the same way, so a correction of a whole invoice is its exact negative.
 */
import DecimalJs from 'decimal.js';
import type { Amount, Decimal, Tax } from './canonical.ts';
import { toDecimal } from './edifact/segments.ts';

/** A private decimal.js configuration, so the app's other users of the library keep theirs. */
const D = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });
type D = InstanceType<typeof D>;

/**
 * How VAT is computed (the user's "VAT calculation algorithm"):
 * - `lines`: VAT of each line from its net amount, rounded per line, then summed per rate;
 * - `summary`: net amounts summed per rate, then VAT computed and rounded once per rate ("from the invoice summary").
 */
export const VAT_ALGORITHMS = ['lines', 'summary'] as const;
export type VatAlgorithm = (typeof VAT_ALGORITHMS)[number];

/**
 * A line's VAT rate as a form gives it: a percentage (`23`, `8`, `5`, `0`) or a Polish category without a rate:
 * `zw` (zwolniony, exempt), `np` (nie podlega, not subject to VAT), `oo` (odwrotne obciążenie, reverse charge).
 */
export type VatRate = string;

/** The UNCL 5305 category of each Polish rate without a percentage. */
export const POLISH_VAT_CATEGORIES: Readonly<Record<string, string>> = { zw: 'E', np: 'O', oo: 'AE' };

/**
 * A line allowance or charge: a fixed amount for the line, or a percentage of its gross amount (quantity × price).
 * A fixed amount is given as a magnitude: on a negative line (a credit note's) it counts negative too, so the
 * correction of a line with an allowance is the exact negative of that line.
 */
export type MoneyAdjustment = { type: 'allowance' | 'charge'; amount?: string; percentage?: string };

/** What the money of a line is made of. Decimal strings (`,` or `.` as decimal mark); negative for a correction. */
export type MoneyLine = {
  quantity: string;
  /** The price for `priceBasis` units (PRI 5284), net of VAT. */
  price: string;
  /** Units the price is for; 1 when absent. */
  priceBasis?: string;
  adjustments?: readonly MoneyAdjustment[];
  vatRate: VatRate;
};

/** The figures of one line. `vat` only under the `lines` algorithm: under `summary` a line has no VAT of its own. */
export type LineTotals = {
  net: Decimal;
  vat?: Decimal;
  gross?: Decimal;
  rate?: Decimal;
  category: string;
  /** The amount of each of the line's allowances and charges, in grosze, signed as the line (ALC MOA 204 or 23). */
  adjustments?: Decimal[];
};

/** The figures of one VAT rate: the invoice's tax breakdown row. */
export type RateTotals = {
  /** The rate as the lines gave it (`23`, `zw`…). */
  vatRate: VatRate;
  /** The percentage, absent for categories without one (`zw`, `np`, `oo`). */
  rate?: Decimal;
  /** UNCL 5305: S standard, Z zero rated, E exempt, O not subject, AE reverse charge. */
  category: string;
  net: Decimal;
  vat: Decimal;
  gross: Decimal;
};

export type Totals = {
  algorithm: VatAlgorithm;
  lines: LineTotals[];
  /** One row per rate, in order of first appearance. */
  rates: RateTotals[];
  net: Decimal;
  vat: Decimal;
  gross: Decimal;
  /** Indexes of lines with a value that is not a decimal (a form being typed): counted as zero, listed here. */
  invalidLines: number[];
};

const money = (value: D): Decimal => value.toDecimalPlaces(2).toFixed(2);

/** A decimal from a form's text (`12,5` or `12.5`); undefined when it is not one. */
const parse = (raw: string | undefined): D | undefined => {
  const decimal = raw === undefined ? undefined : toDecimal(raw.trim());
  return decimal === undefined ? undefined : new D(decimal);
};

/** Rounds half-up (away from zero on a tie) to `places` decimals and writes the canonical decimal string. */
export const roundMoney = (value: string, places = 2): Decimal => {
  const parsed = parse(value);
  if (!parsed) throw new RangeError(`not a decimal: ${value}`);
  return parsed.toDecimalPlaces(places).toFixed(places);
};

/** A rate's percentage and category; undefined when the rate is neither a known category nor a decimal. */
export const vatCategoryOf = (vatRate: VatRate): { rate?: Decimal; category: string } | undefined => {
  const key = vatRate.trim().toLowerCase();
  const category = POLISH_VAT_CATEGORIES[key];
  if (category) return { category };
  const rate = parse(key);
  if (!rate || rate.isNegative()) return undefined;
  // The percentage keeps the digits it was given (`23`, `5.5`), as the canonical body keeps a sender's digits.
  return { rate: toDecimal(key) as Decimal, category: rate.isZero() ? 'Z' : 'S' };
};

/**
 * Net of a line: quantity × price ÷ basis, less allowances, plus charges, rounded to grosze; with the amount of each
 * allowance and charge (a percentage of the unrounded gross amount, rounded to grosze).
 */
const lineNet = (line: MoneyLine): { net: D; adjustments: D[] } | undefined => {
  const quantity = parse(line.quantity);
  const price = parse(line.price);
  const basis = line.priceBasis === undefined || line.priceBasis.trim() === '' ? new D(1) : parse(line.priceBasis);
  if (!quantity || !price || !basis || basis.isZero()) return undefined;
  const gross = quantity.times(price).dividedBy(basis);
  let net = gross.toDecimalPlaces(2);
  const adjustments: D[] = [];
  for (const adjustment of line.adjustments ?? []) {
    const fixed = adjustment.amount === undefined ? undefined : parse(adjustment.amount)?.toDecimalPlaces(2);
    const amount =
      adjustment.amount !== undefined
        ? fixed && (gross.isNegative() ? fixed.negated() : fixed)
        : parse(adjustment.percentage)?.times(gross).dividedBy(100).toDecimalPlaces(2);
    if (!amount) return undefined;
    adjustments.push(amount);
    net = adjustment.type === 'allowance' ? net.minus(amount) : net.plus(amount);
  }
  return { net, adjustments };
};

const vatOf = (net: D, rate: Decimal | undefined): D =>
  rate === undefined ? new D(0) : net.times(rate).dividedBy(100).toDecimalPlaces(2);

/**
 * The totals of a document's lines by a VAT algorithm. Never throws: a line whose values are not (yet) decimals
 * counts as zero and is listed in `invalidLines`.
 */
export const computeTotals = (lines: readonly MoneyLine[], algorithm: VatAlgorithm): Totals => {
  const invalidLines: number[] = [];
  const rows = new Map<string, { vatRate: VatRate; rate?: Decimal; category: string; net: D; vat: D }>();
  const lineTotals: LineTotals[] = lines.map((line, index) => {
    const computed = lineNet(line);
    const category = vatCategoryOf(line.vatRate);
    if (!computed || !category) {
      invalidLines.push(index);
      return { net: '0.00', category: category?.category ?? '' };
    }
    const key = category.rate === undefined ? category.category : new D(category.rate).toString();
    let row = rows.get(key);
    if (!row) {
      row = { vatRate: line.vatRate.trim().toLowerCase(), ...category, net: new D(0), vat: new D(0) };
      rows.set(key, row);
    }
    const { net } = computed;
    row.net = row.net.plus(net);
    const totals: LineTotals = { net: money(net), ...category };
    if (computed.adjustments.length) totals.adjustments = computed.adjustments.map(money);
    if (algorithm === 'lines') {
      const vat = vatOf(net, category.rate);
      row.vat = row.vat.plus(vat);
      totals.vat = money(vat);
      totals.gross = money(net.plus(vat));
    }
    return totals;
  });
  let net = new D(0);
  let vat = new D(0);
  const rates: RateTotals[] = [...rows.values()].map((row) => {
    const rowVat = algorithm === 'summary' ? vatOf(row.net, row.rate) : row.vat;
    net = net.plus(row.net);
    vat = vat.plus(rowVat);
    const totals: RateTotals = {
      vatRate: row.vatRate,
      category: row.category,
      net: money(row.net),
      vat: money(rowVat),
      gross: money(row.net.plus(rowVat)),
    };
    if (row.rate !== undefined) totals.rate = row.rate;
    return totals;
  });
  return {
    algorithm,
    lines: lineTotals,
    rates,
    net: money(net),
    vat: money(vat),
    gross: money(net.plus(vat)),
    invalidLines,
  };
};

/**
 * The totals as the canonical body holds an invoice's (UNCL 5025): 79 lines total, 125 taxable amount, 176 total tax,
 * 77 invoice amount (gross), and one VAT breakdown row per rate (TAX 7 VAT with 125 taxable and 124 tax amounts).
 */
export const canonicalTotals = (totals: Totals, currency?: string): { totals: Amount[]; taxes: Tax[] } => {
  const amount = (qualifier: string, value: Decimal): Amount =>
    currency ? { qualifier, value, currency } : { qualifier, value };
  return {
    totals: [
      amount('79', totals.net),
      amount('125', totals.net),
      amount('176', totals.vat),
      amount('77', totals.gross),
    ],
    taxes: totals.rates.map((row) => {
      const tax: Tax = { qualifier: '7', type: 'VAT', category: row.category, amounts: [] };
      if (row.rate !== undefined) tax.rate = row.rate;
      tax.amounts.push(amount('125', row.net), amount('124', row.vat));
      return tax;
    }),
  };
};
