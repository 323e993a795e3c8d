import type { CanonicalDocument, Line } from '@portal/documents';
import { isValidGtin, isVatRate, PRICE_PATTERN, UNIT_PATTERN, type ProductValues } from '@portal/contracts';

/** What a price catalogue line says of a product: only the fields it gives (the rest keep their stored values). */
export type ProductPatch = { gtin: string } & Partial<Omit<ProductValues, 'gtin'>>;

/** A line that fills no product, with the reason (a code, for a log or a later report). */
export type SkippedLine = {
  lineNumber: string | null;
  gtin?: string;
  reason: 'gtinMissing' | 'gtinInvalid' | 'deleted' | 'descriptionMissing';
};

export type PriceCatalogueProducts = { patches: ProductPatch[]; skipped: SkippedLine[] };

/** UNCL 1229 in a PRICAT's LIN: 2 = deleted. The catalogue line is skipped; a product is never deleted by a message. */
const ACTION_DELETED = '2';
/** UNCL 5125: AAA calculation net, AAB calculation gross; the net price is the catalogue price when both are sent. */
const PRICE_QUALIFIERS = ['AAA', 'AAB'];
/** UNCL 5305 tax categories without a rate: E exempt (`zw`), O outside the scope of VAT (`np`). */
const EXEMPT_CATEGORIES: Readonly<Record<string, 'zw' | 'np'>> = { E: 'zw', O: 'np' };

const trimmed = (value: string | undefined, max: number): string | undefined => {
  const v = value?.trim();
  return v ? v.slice(0, max) : undefined;
};

/** A decimal without insignificant zeros, so that `12.5000` and `12.5` compare and store alike. */
function plainDecimal(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** The line's price, when it is a price of one unit (a basis of 1 or none) that the column can hold. */
function priceOf(line: Line): { value?: string; unit?: string } {
  const price = PRICE_QUALIFIERS.map((q) => line.prices.find((p) => p.qualifier === q)).find(Boolean) ?? line.prices[0];
  if (!price) return {};
  const unit = price.unit?.toUpperCase();
  const value = plainDecimal(price.value);
  // A price for 10 or 100 units would need dividing; the catalogue keeps prices of one unit only.
  const perOne = !price.basis || Number(plainDecimal(price.basis)) === 1;
  return {
    ...(perOne && PRICE_PATTERN.test(value) ? { value } : {}),
    ...(unit && UNIT_PATTERN.test(unit) ? { unit } : {}),
  };
}

function vatOf(line: Line): string | undefined {
  const tax = line.taxes?.find((t) => !t.type || t.type === 'VAT');
  if (!tax) return undefined;
  const exempt = tax.category ? EXEMPT_CATEGORIES[tax.category] : undefined;
  if (exempt) return exempt;
  const rate = tax.rate ? plainDecimal(tax.rate) : undefined;
  return rate !== undefined && isVatRate(rate) ? rate : undefined;
}

/**
 * The product upserts of a received price catalogue (PRICAT, kind `price_catalogue`): one per line with a valid GTIN
 * (a later line of the same GTIN wins), with the description, article numbers, unit, net price of one unit, the
 * document's currency and the VAT rate or exempt category that the line gives. Pure: the products service saves them.
 */
export function productsFromPriceCatalogue(body: CanonicalDocument): PriceCatalogueProducts {
  const byGtin = new Map<string, ProductPatch>();
  const skipped: SkippedLine[] = [];
  const currency = body.currency?.trim().toUpperCase();
  for (const line of body.lines) {
    const lineNumber = line.lineNumber ?? null;
    if (line.action === ACTION_DELETED) {
      skipped.push({ lineNumber, reason: 'deleted' });
      continue;
    }
    const gtin = line.gtin?.trim();
    if (!gtin) {
      skipped.push({ lineNumber, reason: 'gtinMissing' });
      continue;
    }
    if (!isValidGtin(gtin)) {
      skipped.push({ lineNumber, reason: 'gtinInvalid' });
      continue;
    }
    const price = priceOf(line);
    const unit = price.unit ?? line.quantities.map((q) => q.unit?.toUpperCase()).find((u) => u && UNIT_PATTERN.test(u));
    const vatRate = vatOf(line);
    const description = trimmed(line.description, 350);
    const supplierArticleNumber = trimmed(line.supplierArticleNumber, 35);
    const buyerArticleNumber = trimmed(line.buyerArticleNumber, 35);
    byGtin.set(gtin, {
      gtin,
      ...(description ? { description } : {}),
      ...(supplierArticleNumber ? { supplierArticleNumber } : {}),
      ...(buyerArticleNumber ? { buyerArticleNumber } : {}),
      ...(unit ? { unit } : {}),
      ...(price.value !== undefined ? { price: price.value } : {}),
      ...(price.value !== undefined && currency && /^[A-Z]{3}$/.test(currency) ? { currency } : {}),
      ...(vatRate ? { vatRate } : {}),
    });
  }
  return { patches: [...byGtin.values()], skipped };
}
