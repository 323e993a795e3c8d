/**
 * The money of a document: exact decimals, half-up rounding to grosze, and the two Polish VAT algorithms on cases
 * where they differ by a cent.
 */
import { describe, expect, it } from 'vitest';
import { canonicalTotals, computeTotals, roundMoney, vatCategoryOf, type MoneyLine } from '../src/money.ts';

const line = (quantity: string, price: string, vatRate = '23', extra: Partial<MoneyLine> = {}): MoneyLine => ({
  quantity,
  price,
  vatRate,
  ...extra,
});

describe('rounding', () => {
  it('is half-up to grosze, away from zero for negatives, on exact decimals (no 0.1 + 0.2 drift)', () => {
    expect(roundMoney('0.525')).toBe('0.53'); // banker's rounding would give 0.52
    expect(roundMoney('0.524999')).toBe('0.52');
    expect(roundMoney('-0.525')).toBe('-0.53');
    expect(roundMoney('1.005')).toBe('1.01'); // a float gives 1.00 (1.005 is 1.00499… in binary)
    expect(roundMoney('-0.004')).toBe('0.00');
    expect(roundMoney('12,5')).toBe('12.50');
    const { net } = computeTotals([line('1', '0.1', '0'), line('1', '0.2', '0')], 'lines');
    expect(net).toBe('0.30');
  });
});

describe('the two VAT algorithms', () => {
  // Three lines of 10.15 net at 23 %: per line 2.3345 → 2.33, three times 6.99; per rate 30.45 × 23 % = 7.0035 → 7.00.
  const lines = [line('1', '10.15'), line('1', '10.15'), line('1', '10.15')];

  it('from the lines: VAT rounded per line, then summed', () => {
    const totals = computeTotals(lines, 'lines');
    expect(totals.lines[0]).toEqual({ net: '10.15', vat: '2.33', gross: '12.48', rate: '23', category: 'S' });
    expect(totals.rates).toEqual([
      { vatRate: '23', rate: '23', category: 'S', net: '30.45', vat: '6.99', gross: '37.44' },
    ]);
    expect([totals.net, totals.vat, totals.gross]).toEqual(['30.45', '6.99', '37.44']);
  });

  it('from the invoice summary: net summed per rate, VAT rounded once per rate', () => {
    const totals = computeTotals(lines, 'summary');
    expect(totals.lines[0]).toEqual({ net: '10.15', rate: '23', category: 'S' });
    expect(totals.rates).toEqual([
      { vatRate: '23', rate: '23', category: 'S', net: '30.45', vat: '7.00', gross: '37.45' },
    ]);
    expect([totals.net, totals.vat, totals.gross]).toEqual(['30.45', '7.00', '37.45']);
  });

  it('differ by a cent the other way too (rounding up per line)', () => {
    // 1.07 at 23 %: 0.2461 → 0.25 per line, 0.50 for two; per rate 2.14 × 23 % = 0.4922 → 0.49.
    const two = [line('1', '1.07'), line('1', '1.07')];
    expect(computeTotals(two, 'lines').vat).toBe('0.50');
    expect(computeTotals(two, 'summary').vat).toBe('0.49');
  });

  it('keep one row per rate in order of appearance, the percentage with the digits given', () => {
    const totals = computeTotals(
      [line('2', '10', '8'), line('1', '100', '23'), line('3', '1.50', '8.00'), line('1', '5', '5')],
      'summary',
    );
    expect(totals.rates.map((r) => [r.vatRate, r.net, r.vat])).toEqual([
      ['8', '24.50', '1.96'],
      ['23', '100.00', '23.00'],
      ['5', '5.00', '0.25'],
    ]);
    expect([totals.net, totals.vat, totals.gross]).toEqual(['129.50', '25.21', '154.71']);
  });
});

describe('lines', () => {
  it('net = quantity × price ÷ price basis − allowances + charges, each rounded to grosze', () => {
    const totals = computeTotals(
      [
        line('3', '12.99', '23', { priceBasis: '10' }), // 3.897 → 3.90
        line('10', '4.00', '23', {
          adjustments: [
            { type: 'allowance', percentage: '10' }, // 4.00
            { type: 'charge', amount: '1.5' },
          ],
        }),
      ],
      'lines',
    );
    expect(totals.lines.map((l) => l.net)).toEqual(['3.90', '37.50']);
  });

  it('gives each allowance and charge its amount; a fixed amount on a negative line counts negative', () => {
    const adjustments = [
      { type: 'allowance' as const, percentage: '12.5' }, // 12.5 % of 3 × 3.33 = 9.99 → 1.24875 → 1.25
      { type: 'charge' as const, amount: '0,5' },
    ];
    for (const algorithm of ['lines', 'summary'] as const) {
      const [invoice] = computeTotals([line('3', '3.33', '23', { adjustments })], algorithm).lines;
      const [credit] = computeTotals([line('-3', '3.33', '23', { adjustments })], algorithm).lines;
      expect([invoice!.net, invoice!.adjustments]).toEqual(['9.24', ['1.25', '0.50']]);
      expect([credit!.net, credit!.adjustments]).toEqual(['-9.24', ['-1.25', '-0.50']]);
    }
    expect(computeTotals([line('1', '1')], 'lines').lines[0]!.adjustments).toBeUndefined();
    // An allowance being typed makes the line one being typed.
    expect(
      computeTotals([line('1', '1', '23', { adjustments: [{ type: 'allowance', amount: 'x' }] })], 'lines')
        .invalidLines,
    ).toEqual([0]);
  });

  it('zero, exempt (zw → E), not subject (np → O) and reverse charge (oo → AE) carry no VAT', () => {
    const totals = computeTotals(
      [line('1', '100', '0'), line('1', '50', 'zw'), line('1', '20', 'NP'), line('1', '10', 'oo')],
      'summary',
    );
    expect(totals.rates).toEqual([
      { vatRate: '0', rate: '0', category: 'Z', net: '100.00', vat: '0.00', gross: '100.00' },
      { vatRate: 'zw', category: 'E', net: '50.00', vat: '0.00', gross: '50.00' },
      { vatRate: 'np', category: 'O', net: '20.00', vat: '0.00', gross: '20.00' },
      { vatRate: 'oo', category: 'AE', net: '10.00', vat: '0.00', gross: '10.00' },
    ]);
    expect(vatCategoryOf('zw')).toEqual({ category: 'E' });
    expect(vatCategoryOf('-5')).toBeUndefined();
  });

  it('negative lines of a credit note give the exact negative of the invoice, by either algorithm', () => {
    const invoice = [line('1', '10.15'), line('2', '3.33', '8')];
    const credit = invoice.map((l) => ({ ...l, quantity: `-${l.quantity}` }));
    for (const algorithm of ['lines', 'summary'] as const) {
      const a = computeTotals(invoice, algorithm);
      const b = computeTotals(credit, algorithm);
      expect([b.net, b.vat, b.gross]).toEqual([a.net, a.vat, a.gross].map((v) => `-${v}`));
    }
    expect(computeTotals(credit, 'lines').lines[0]).toMatchObject({ net: '-10.15', vat: '-2.33' });
  });

  it('a value being typed counts as zero and is listed, without throwing', () => {
    const totals = computeTotals([line('1', '10'), line('1.', 'abc'), line('2', '5', '')], 'lines');
    expect(totals.invalidLines).toEqual([1, 2]);
    expect([totals.net, totals.vat]).toEqual(['10.00', '2.30']);
  });
});

describe('canonicalTotals', () => {
  it('gives the body’s totals (79, 125, 176, 77) and the VAT breakdown (TAX 7 VAT with 125 and 124)', () => {
    const result = canonicalTotals(computeTotals([line('1', '100'), line('1', '40', 'zw')], 'lines'), 'PLN');
    expect(result.totals).toEqual([
      { qualifier: '79', value: '140.00', currency: 'PLN' },
      { qualifier: '125', value: '140.00', currency: 'PLN' },
      { qualifier: '176', value: '23.00', currency: 'PLN' },
      { qualifier: '77', value: '163.00', currency: 'PLN' },
    ]);
    expect(result.taxes).toEqual([
      {
        qualifier: '7',
        type: 'VAT',
        rate: '23',
        category: 'S',
        amounts: [
          { qualifier: '125', value: '100.00', currency: 'PLN' },
          { qualifier: '124', value: '23.00', currency: 'PLN' },
        ],
      },
      {
        qualifier: '7',
        type: 'VAT',
        category: 'E',
        amounts: [
          { qualifier: '125', value: '40.00', currency: 'PLN' },
          { qualifier: '124', value: '0.00', currency: 'PLN' },
        ],
      },
    ]);
  });
});
