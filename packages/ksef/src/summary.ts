/**
 * The VAT summary of Fa (P_13_x net, P_14_x VAT, P_15 gross) from the lines, in exact decimals. VAT is computed once
 * per rate on the sum of its lines (art. 106e(11)-style "summary" method), rounded half up to the grosz; a rate whose
 * lines are all priced gross (P_11A without P_11) has its VAT taken out of the gross sum instead. A correction's lines
 * marked `before` (StanPrzed) count negatively, so the summary is the difference the correction makes.
 */
import DecimalJs from 'decimal.js';
import { SUMMARY_FIELDS, type Line, type OrderLine, type Summary, type SummaryField, type VatRate } from './model.ts';

const D = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });
type Dec = InstanceType<typeof D>;

const money = (d: Dec): string => d.toFixed(2);

/** The P_13 (net) and P_14 (VAT) fields of each rate and the rate's percentage (undefined: no VAT). */
const BUCKETS: Record<VatRate, { net: SummaryField; vat?: SummaryField; percent?: string }> = {
  '23': { net: 'P_13_1', vat: 'P_14_1', percent: '23' },
  '22': { net: 'P_13_1', vat: 'P_14_1', percent: '22' },
  '8': { net: 'P_13_2', vat: 'P_14_2', percent: '8' },
  '7': { net: 'P_13_2', vat: 'P_14_2', percent: '7' },
  '5': { net: 'P_13_3', vat: 'P_14_3', percent: '5' },
  '4': { net: 'P_13_4', vat: 'P_14_4', percent: '4' },
  '3': { net: 'P_13_4', vat: 'P_14_4', percent: '3' },
  '0 KR': { net: 'P_13_6_1' },
  '0 WDT': { net: 'P_13_6_2' },
  '0 EX': { net: 'P_13_6_3' },
  zw: { net: 'P_13_7' },
  'np I': { net: 'P_13_8' },
  'np II': { net: 'P_13_9' },
  oo: { net: 'P_13_10' },
};

/** The net value of a line: P_11 as given, else quantity × net price (rounded), else zero. */
export function lineNet(line: Pick<Line, 'netValue' | 'quantity' | 'netUnitPrice' | 'discount'>): string {
  if (line.netValue !== undefined) return line.netValue;
  const quantity = new D(line.quantity ?? '1');
  const price = new D(line.netUnitPrice ?? '0');
  return money(
    quantity
      .times(price)
      .minus(line.discount ?? '0')
      .toDecimalPlaces(2),
  );
}

type Group = { net: Dec; gross: Dec; grossOnly: boolean; percent?: string; vatField?: SummaryField };

/**
 * The summary of `lines`. Lines without a rate count in no bucket but still in P_15 at their net value (FA(3) has
 * no bucket for them). The result has P_15 and the buckets that occur, with two decimals.
 */
export function computeSummary(lines: readonly Line[]): Summary {
  const groups = new Map<SummaryField, Group>();
  let unrated = new D(0);
  for (const line of lines) {
    const sign = line.before ? -1 : 1;
    const grossOnly = line.netValue === undefined && line.grossValue !== undefined;
    const net = grossOnly ? new D(0) : new D(lineNet(line)).times(sign);
    const gross = new D(line.grossValue ?? '0').times(sign);
    if (!line.vatRate) {
      unrated = unrated.plus(net);
      continue;
    }
    const bucket = BUCKETS[line.vatRate];
    const group = groups.get(bucket.net) ?? {
      net: new D(0),
      gross: new D(0),
      grossOnly: true,
      ...(bucket.percent ? { percent: bucket.percent } : {}),
      ...(bucket.vat ? { vatField: bucket.vat } : {}),
    };
    group.net = group.net.plus(net);
    group.gross = group.gross.plus(gross);
    group.grossOnly &&= grossOnly;
    groups.set(bucket.net, group);
  }
  const out: Summary = {};
  let total = unrated;
  for (const [netField, group] of groups) {
    let net = group.net;
    let vat = new D(0);
    if (group.percent !== undefined) {
      if (group.grossOnly) {
        vat = group.gross.times(group.percent).dividedBy(new D(100).plus(group.percent)).toDecimalPlaces(2);
        net = group.gross.minus(vat);
      } else {
        vat = net.times(group.percent).dividedBy(100).toDecimalPlaces(2);
      }
    } else if (group.grossOnly) {
      net = group.gross;
    }
    out[netField] = money(net);
    if (group.vatField) out[group.vatField] = money(vat);
    total = total.plus(net).plus(vat);
  }
  out.P_15 = money(total);
  return orderSummary(out);
}

/**
 * The summary of an advance invoice (ZAL): the advance received (`gross`), split over the order's rates in proportion
 * to their gross value; each part's VAT is taken out of its gross amount. The last rate takes the rounding rest.
 */
export function computeAdvanceSummary(orderLines: readonly OrderLine[], gross: string): Summary {
  const parts = new Map<SummaryField, { gross: Dec; percent?: string; vatField?: SummaryField }>();
  let orderGross = new D(0);
  for (const line of orderLines) {
    if (!line.vatRate) continue;
    const bucket = BUCKETS[line.vatRate];
    const net = new D(lineNet(line));
    const lineGross = net.plus(
      line.vatValue ?? (bucket.percent ? net.times(bucket.percent).dividedBy(100).toDecimalPlaces(2) : 0),
    );
    const part = parts.get(bucket.net) ?? {
      gross: new D(0),
      ...(bucket.percent ? { percent: bucket.percent } : {}),
      ...(bucket.vat ? { vatField: bucket.vat } : {}),
    };
    part.gross = part.gross.plus(lineGross);
    parts.set(bucket.net, part);
    orderGross = orderGross.plus(lineGross);
  }
  const out: Summary = {};
  const advance = new D(gross);
  let rest = advance;
  const entries = [...parts.entries()];
  entries.forEach(([netField, part], i) => {
    const share =
      i === entries.length - 1 || orderGross.isZero()
        ? rest
        : advance.times(part.gross).dividedBy(orderGross).toDecimalPlaces(2);
    rest = rest.minus(share);
    const vat = part.percent
      ? share.times(part.percent).dividedBy(new D(100).plus(part.percent)).toDecimalPlaces(2)
      : new D(0);
    out[netField] = money(share.minus(vat));
    if (part.vatField) out[part.vatField] = money(vat);
  });
  out.P_15 = money(advance);
  return orderSummary(out);
}

/** The same summary with its keys in FA(3) order. */
export function orderSummary(summary: Summary): Summary {
  const out: Summary = {};
  for (const field of SUMMARY_FIELDS) if (summary[field] !== undefined) out[field] = summary[field];
  return out;
}

/**
 * `a − b` field by field: the summary of a settlement invoice (ROZ) is the whole supply's less the advances already
 * invoiced; that of a correction is the state after less the state before.
 */
export function subtractSummary(a: Summary, b: Summary): Summary {
  const out: Summary = {};
  for (const field of SUMMARY_FIELDS) {
    if (a[field] === undefined && b[field] === undefined) continue;
    out[field] = money(new D(a[field] ?? '0').minus(b[field] ?? '0'));
  }
  return out;
}
