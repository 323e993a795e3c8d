import { z } from 'zod';
import { IncludeTotalSchema, ListQuerySchema, ListSearchSchema, pageSchema } from './lists.ts';
import { clearableText, text } from './rules.ts';
import { ImportProblemSchema } from './address-book.ts';

/**
 * Products (issue 12, part 1): a company's catalogue lines (GTIN, the buyer's and the supplier's article numbers,
 * description, unit, price, VAT rate) that fill document forms; edited on their own screen, imported from CSV and
 * filled from a received price catalogue (PRICAT).
 */

/** A CSV import holds at most this many bytes and rows (header excluded), as the address book's. */
export const PRODUCTS_IMPORT_MAX_BYTES = 1024 * 1024;
export const PRODUCTS_IMPORT_MAX_ROWS = 5000;

/** The GTIN lengths of GS1: GTIN-8, GTIN-12 (UPC), GTIN-13 (EAN) and GTIN-14. */
export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/**
 * GS1 check digit of any GTIN: from the right, the digits before the check digit weigh 3, 1, 3, … (GS1 General
 * Specifications, 7.9.1); the check digit makes the sum a multiple of ten.
 */
export function isValidGtin(value: string): boolean {
  if (!/^\d+$/.test(value) || !(GTIN_LENGTHS as readonly number[]).includes(value.length)) return false;
  const body = value.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(value.at(-1));
}

/** VAT categories without a rate: `zw` exempt (zwolniony), `np` not subject to VAT (nie podlega). */
export const VAT_EXEMPT_CATEGORIES = ['zw', 'np'] as const;
export type VatExemptCategory = (typeof VAT_EXEMPT_CATEGORIES)[number];

/** A price: at most 15 digits before the point and 4 after (the column is numeric(19, 4)); a comma reads as the point. */
export const PRICE_PATTERN = /^\d{1,15}(\.\d{1,4})?$/;
/** A VAT rate in percent: 0 to 100, at most two decimals. */
const VAT_RATE_PATTERN = /^\d{1,3}(\.\d{1,2})?$/;
/** A unit of measure: a UN/ECE Recommendation 20 common code (PCE piece, KGM kilogram, LTR litre, MTR metre…). */
export const UNIT_PATTERN = /^[A-Z0-9]{2,3}$/;
export const DEFAULT_UNIT = 'PCE';
export const DEFAULT_CURRENCY = 'PLN';

export function isVatRate(value: string): boolean {
  if ((VAT_EXEMPT_CATEGORIES as readonly string[]).includes(value)) return true;
  return VAT_RATE_PATTERN.test(value) && Number(value) <= 100;
}

/** A decimal as a user types it: trimmed, a decimal comma made a point. */
const decimalText = (max: number) => clearableText(max).transform((v) => (v ? v.replace(',', '.') : null));

/** The product as a form or a CSV row gives it. */
export const ProductRequestSchema = z.object({
  // Any length but 8, 12, 13 or 14 digits is a wrong GTIN, not a long text.
  gtin: clearableText(50).refine((v) => !v || isValidGtin(v), 'gtin'),
  supplierArticleNumber: clearableText(35),
  buyerArticleNumber: clearableText(35),
  description: text({ error: 'required' }).trim().min(1, 'required').max(350, 'tooLong'),
  unit: text({ error: 'unit' })
    .trim()
    .max(3, 'unit')
    .toUpperCase()
    .optional()
    .transform((v) => v || DEFAULT_UNIT)
    .refine((v) => UNIT_PATTERN.test(v), 'unit'),
  price: decimalText(25).refine((v) => v === null || PRICE_PATTERN.test(v), 'price'),
  currency: text({ error: 'currency' })
    .trim()
    .max(3, 'currency')
    .toUpperCase()
    .optional()
    .transform((v) => v || DEFAULT_CURRENCY)
    .refine((v) => /^[A-Z]{3}$/.test(v), 'currency'),
  vatRate: decimalText(10)
    .transform((v) => (v ? v.toLowerCase() : null))
    .refine((v) => v === null || isVatRate(v), 'vatRate'),
});
export type ProductRequest = z.input<typeof ProductRequestSchema>;
export type ProductValues = z.output<typeof ProductRequestSchema>;

/** The product fields, in the order of the form and the CSV columns. */
export const PRODUCT_FIELDS = [
  'gtin',
  'supplierArticleNumber',
  'buyerArticleNumber',
  'description',
  'unit',
  'price',
  'currency',
  'vatRate',
] as const satisfies readonly (keyof ProductValues)[];
export type ProductField = (typeof PRODUCT_FIELDS)[number];

export const ProductSchema = z.object({
  id: z.string(),
  gtin: z.string().nullable(),
  supplierArticleNumber: z.string().nullable(),
  buyerArticleNumber: z.string().nullable(),
  description: z.string(),
  unit: z.string(),
  /** An exact decimal, never a binary float. */
  price: z.string().nullable(),
  currency: z.string(),
  /** Percent as a decimal, or `zw` / `np`. */
  vatRate: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof ProductSchema>;

export const PRODUCT_SORTS = ['description', 'gtin', 'supplierArticleNumber', 'createdAt'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const ProductsQuerySchema = ListQuerySchema.extend({
  /** Words found in the GTIN, either article number or the description. */
  search: ListSearchSchema,
  includeTotal: IncludeTotalSchema,
  sort: z.enum(PRODUCT_SORTS, { error: 'oneOf' }).default('description'),
  order: z.enum(['asc', 'desc'], { error: 'oneOf' }).default('asc'),
});
export type ProductsQuery = z.infer<typeof ProductsQuerySchema>;

export const ProductsPageSchema = pageSchema(ProductSchema);
export type ProductsPage = z.infer<typeof ProductsPageSchema>;

export const ProductsImportQuerySchema = z.object({
  /** `true` checks the file and answers the preview; nothing is saved. */
  dryRun: z
    .enum(['true', 'false'], { error: 'boolean' })
    .optional()
    .transform((v) => v === 'true'),
});

export const ProductsImportResultSchema = z.object({
  dryRun: z.boolean(),
  /** Rows read (header excluded). */
  rows: z.number().int(),
  /** Rows saved: 0 on a dry run and whenever a problem was found (all or nothing). */
  created: z.number().int(),
  problems: z.array(ImportProblemSchema),
  /** The first rows as read, for the preview table (at most 200). */
  preview: z.array(z.object({ line: z.number().int(), values: z.record(z.string(), z.string()) })),
});
export type ProductsImportResult = z.infer<typeof ProductsImportResultSchema>;
