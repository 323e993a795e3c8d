import { describe, expect, it } from 'vitest';
import type { CanonicalDocument } from '@portal/documents';
import { productsFromPriceCatalogue } from './products.pricat.ts';

/** A received PRICAT as the EDIFACT mapping gives it (kind price_catalogue, lines with LIN, PIA, IMD, PRI, TAX). */
const PRICAT: CanonicalDocument = {
  kind: 'price_catalogue',
  header: { number: 'PRICAT-2026-01', documentNameCode: '9', functionCode: '9', dates: [], texts: [] },
  references: [],
  parties: [{ role: 'SU', gln: '5901234123457' }],
  currency: 'pln',
  paymentTerms: [],
  lines: [
    {
      lineNumber: '1',
      action: '1',
      gtin: '5901234123464',
      supplierArticleNumber: 'DS-1001',
      buyerArticleNumber: 'B-77',
      description: '  Mineral water 0.5 l  ',
      quantities: [{ qualifier: '59', value: '1', unit: 'pce' }],
      prices: [
        { qualifier: 'AAB', value: '1.6000' },
        { qualifier: 'AAA', value: '1.2900', basis: '1.000', unit: 'PCE' },
      ],
      amounts: [],
      taxes: [{ qualifier: '7', type: 'VAT', rate: '8.00', category: 'S', amounts: [] }],
    },
    {
      lineNumber: '2',
      gtin: '12345670',
      description: 'Sold by ten',
      quantities: [],
      prices: [{ qualifier: 'AAA', value: '12.90', basis: '10', unit: 'KGM' }],
      amounts: [],
      taxes: [{ qualifier: '7', type: 'VAT', category: 'O', amounts: [] }],
    },
    { lineNumber: '3', description: 'No GTIN', quantities: [], prices: [], amounts: [] },
    { lineNumber: '4', gtin: '5901234123458', quantities: [], prices: [], amounts: [] },
    { lineNumber: '5', action: '2', gtin: '5901234123471', quantities: [], prices: [], amounts: [] },
    // The same GTIN again: the later line wins.
    {
      lineNumber: '6',
      gtin: '12345670',
      description: 'Sold by ten, renamed',
      quantities: [],
      prices: [],
      amounts: [],
    },
  ],
  allowances: [],
  taxes: [],
  totals: [],
  packages: [],
  errors: [],
};

describe('productsFromPriceCatalogue', () => {
  it('turns each line with a valid GTIN into an upsert of what it gives; the others are skipped with a reason', () => {
    const { patches, skipped } = productsFromPriceCatalogue(PRICAT);
    expect(patches).toEqual([
      {
        gtin: '5901234123464',
        description: 'Mineral water 0.5 l',
        supplierArticleNumber: 'DS-1001',
        buyerArticleNumber: 'B-77',
        unit: 'PCE',
        // The net price (AAA) of one unit, exactly as sent, insignificant zeros cut; the document's currency.
        price: '1.29',
        currency: 'PLN',
        vatRate: '8',
      },
      // Line 6 replaces line 2 whole; line 2's price for ten units would have been left out anyway.
      { gtin: '12345670', description: 'Sold by ten, renamed' },
    ]);
    expect(skipped).toEqual([
      { lineNumber: '3', reason: 'gtinMissing' },
      { lineNumber: '4', reason: 'gtinInvalid' },
      { lineNumber: '5', reason: 'deleted' },
    ]);
  });

  it('maps the exempt category E to zw and keeps a unit of the price basis line', () => {
    const line = PRICAT.lines[1]!;
    const { patches } = productsFromPriceCatalogue({
      ...PRICAT,
      lines: [
        {
          ...line,
          prices: [{ qualifier: 'AAA', value: '12.90', unit: 'KGM' }],
          taxes: [{ qualifier: '7', category: 'E', amounts: [] }],
        },
      ],
    });
    expect(patches).toEqual([
      { gtin: '12345670', description: 'Sold by ten', unit: 'KGM', price: '12.9', currency: 'PLN', vatRate: 'zw' },
    ]);
  });
});
