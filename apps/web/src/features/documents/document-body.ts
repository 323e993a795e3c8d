import { z } from 'zod';

/**
 * What the document view reads of the canonical body (decision 0018, `@portal/documents`): leniently, so a body of
 * a later version (or a field missing) still shows everything else.
 */
const list = <T extends z.ZodType>(item: T) => z.array(item).catch([]);
const str = z.string().optional().catch(undefined);

const DateSchema = z.object({ qualifier: z.string(), value: z.string() });
const AmountSchema = z.object({ qualifier: z.string(), value: z.string(), currency: str });
const QuantitySchema = z.object({ qualifier: z.string(), value: z.string(), unit: str });
const PriceSchema = z.object({ qualifier: z.string(), value: z.string(), unit: str });
const ReferenceSchema = z.object({ qualifier: z.string(), value: str, lineNumber: str });
const PartySchema = z.object({
  role: z.string(),
  gln: str,
  name: str,
  street: str,
  city: str,
  postalCode: str,
  country: str,
  vatId: str,
  taxId: str,
  accounts: list(z.object({ qualifier: z.string(), account: str })),
});
const PaymentTermSchema = z.object({
  type: str,
  timeReference: str,
  periodUnit: str,
  periodCount: str,
  dates: list(DateSchema),
  percentage: str,
});
const AllowanceSchema = z.object({
  type: z.enum(['allowance', 'charge']),
  reasonCode: str,
  percentage: str,
  amounts: list(AmountSchema),
});
const LineSchema = z.object({
  lineNumber: str,
  gtin: str,
  buyerArticleNumber: str,
  supplierArticleNumber: str,
  description: str,
  quantities: list(QuantitySchema),
  prices: list(PriceSchema),
  amounts: list(AmountSchema),
  allowances: list(AllowanceSchema),
});
/** A tax breakdown row (TAX with its MOA): an invoice's VAT summary has one per rate, 125 taxable and 124 tax. */
const TaxSchema = z.object({ type: str, rate: str, category: str, amounts: list(AmountSchema) });

export const ViewBodySchema = z.object({
  header: z
    .object({ number: str, documentName: str, documentNameCode: str, functionCode: str, dates: list(DateSchema) })
    .catch({ dates: [] }),
  references: list(ReferenceSchema),
  parties: list(PartySchema),
  currency: str,
  paymentTerms: list(PaymentTermSchema),
  paymentMeans: str,
  lines: list(LineSchema),
  totals: list(AmountSchema),
  taxes: list(TaxSchema),
});
export type ViewBody = z.infer<typeof ViewBodySchema>;
export type ViewLine = ViewBody['lines'][number];

export const readBody = (body: unknown): ViewBody =>
  ViewBodySchema.catch({
    header: { dates: [] },
    references: [],
    parties: [],
    paymentTerms: [],
    lines: [],
    totals: [],
    taxes: [],
  }).parse(body);

/** The line's main quantity: ordered (21), despatched (12), invoiced (47), received (48), else the first. */
export function mainQuantity(line: ViewLine) {
  for (const q of ['21', '12', '47', '48', '113']) {
    const found = line.quantities.find((x) => x.qualifier === q);
    if (found) return found;
  }
  return line.quantities[0];
}

/** The net price (AAA) before the gross (AAB). */
export const mainPrice = (line: ViewLine) =>
  line.prices.find((p) => p.qualifier === 'AAA') ?? line.prices.find((p) => p.qualifier === 'AAB') ?? line.prices[0];

/** The line amount (203), else the first amount. */
export const lineAmount = (line: ViewLine) => line.amounts.find((a) => a.qualifier === '203') ?? line.amounts[0];

/**
 * The sum of the line amounts as a decimal string, computed in integers of the smallest scale so no binary float
 * rounds it; undefined when no line has an amount.
 */
export function sumOfLineAmounts(lines: readonly ViewLine[]): string | undefined {
  const values = lines.map(lineAmount).flatMap((a) => (a && /^-?\d+(\.\d+)?$/.test(a.value) ? [a.value] : []));
  if (values.length === 0) return undefined;
  const scale = Math.max(...values.map((v) => v.split('.')[1]?.length ?? 0));
  const total = values.reduce((sum, v) => {
    const [int = '0', frac = ''] = v.replace('-', '').split('.');
    const units = BigInt(int + frac.padEnd(scale, '0'));
    return sum + (v.startsWith('-') ? -units : units);
  }, 0n);
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const whole = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${whole}` : whole;
}
