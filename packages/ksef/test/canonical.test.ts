/**
 * FA(3) ↔ the canonical body: a KSeF invoice shows in the document view (parties SU/BY, dates 137/35, lines,
 * VAT breakdown and totals), and an invoice typed in the portal's form becomes a valid FA(3) invoice of its kind.
 */
import { DraftLineSchema, emptyDraftForm, type DraftForm } from '@portal/contracts';
import { CanonicalDocumentSchema } from '@portal/documents';
import { formToCanonical } from '@portal/documents/authoring';
import { describe, expect, it } from 'vitest';
import { canonicalToKsefInvoice, fa3ToCanonical } from '../src/canonical.ts';
import { KsefInvoiceSchema } from '../src/model.ts';
import { parseFa3 } from '../src/parse.ts';
import { validateFa3 } from '../src/validate.ts';
import { buildFa3 } from '../src/write.ts';
import { invoices, KSEF_NUMBERS } from './fixtures.ts';

const amount = (doc: ReturnType<typeof fa3ToCanonical>, qualifier: string) =>
  doc.totals.find((t) => t.qualifier === qualifier)?.value;

describe('fa3ToCanonical', () => {
  it('maps a VAT invoice to a body that fits the canonical schema', () => {
    const doc = fa3ToCanonical(KsefInvoiceSchema.parse(invoices.VAT));
    expect(CanonicalDocumentSchema.strict().parse(doc)).toEqual(doc);
    expect(doc.kind).toBe('invoice');
    expect(doc.header).toMatchObject({ number: 'FV/2026/02/001', documentNameCode: '380' });
    expect(doc.header.dates).toEqual([
      { qualifier: '137', type: 'date', value: '2026-02-01' },
      { qualifier: '35', type: 'date', value: '2026-01-30' },
    ]);
    expect(doc.parties.find((p) => p.role === 'SU')).toMatchObject({ taxId: '9999999999', name: 'ABC AGD sp. z o.o.' });
    expect(doc.parties.find((p) => p.role === 'BY')).toMatchObject({ taxId: '1111111111', country: 'PL' });
    expect(doc.lines).toHaveLength(4);
    expect(doc.lines[2]).toMatchObject({
      quantities: [{ qualifier: '47', value: '1.5', unit: 'h' }],
      prices: [{ qualifier: 'AAA', value: '100.01' }],
      amounts: [{ qualifier: '203', value: '150.02' }],
      taxes: [{ qualifier: '7', type: 'VAT', rate: '23', category: 'S', amounts: [] }],
    });
    expect(doc.lines[3]?.taxes?.[0]).toMatchObject({ category: 'E' });
    expect(amount(doc, '125')).toBe('323.99');
    expect(amount(doc, '176')).toBe('46.64');
    expect(amount(doc, '77')).toBe('370.63');
    expect(doc.taxes.map((t) => [t.rate, t.category, t.amounts.map((a) => a.value)])).toEqual([
      ['23', 'S', ['182.99', '42.09']],
      ['5', 'S', ['91.00', '4.55']],
      [undefined, 'E', ['50.00', '0']],
    ]);
  });

  it('maps a correction to a credit note naming the corrected invoice, and SB to 389', () => {
    const kor = fa3ToCanonical(KsefInvoiceSchema.parse(invoices.KOR));
    expect(kor.kind).toBe('credit_note');
    expect(kor.references).toEqual([
      { qualifier: 'IV', value: 'FV/2026/02/001', dates: [{ qualifier: '171', type: 'date', value: '2026-02-01' }] },
    ]);
    expect(amount(kor, '77')).toBe('-13.52');
    expect(fa3ToCanonical(KsefInvoiceSchema.parse(invoices.SB)).header.documentNameCode).toBe('389');
    const zal = fa3ToCanonical(KsefInvoiceSchema.parse(invoices.ZAL));
    expect(zal.header.documentNameCode).toBe('386');
    expect(zal.lines[0]?.quantities[0]?.qualifier).toBe('21');
  });
});

const party = (taxId: string, name: string) => ({
  ...emptyDraftForm().buyer,
  gln: taxId === '9999999999' ? '5900000000008' : '5900000000015',
  name,
  street: 'ul. Fabryczna 7',
  city: 'Łódź',
  postalCode: '90-001',
  country: 'PL',
  taxId,
});

const form = (overrides: Partial<DraftForm> = {}): DraftForm => ({
  ...emptyDraftForm(),
  number: 'FV/2026/11/001',
  documentDate: '2026-11-20',
  deliveryDate: '2026-11-18',
  currency: 'PLN',
  buyer: party('1111111111', 'Kupiec sp. z o.o.'),
  supplier: party('9999999999', 'Dostawca S.A.'),
  paymentDueDate: '2026-12-04',
  lines: [
    DraftLineSchema.parse({ description: 'Widget', quantity: '3', unit: 'PCE', price: '10,99', vatRate: '23' }),
    DraftLineSchema.parse({ description: 'Usługa', quantity: '1', unit: 'HUR', price: '100', vatRate: 'zw' }),
  ],
  ...overrides,
});

describe('canonicalToKsefInvoice', () => {
  it.each(['INV', 'SB', 'UPR', 'ROZ'] as const)('writes a portal %s invoice as valid FA(3)', async (invoiceType) => {
    const doc = formToCanonical('invoice', form({ invoiceType }), 'summary');
    const input = canonicalToKsefInvoice(doc, {
      createdAt: '2026-11-20T10:00:00Z',
      ...(invoiceType === 'ROZ' ? { advanceInvoices: [{ ksefNumber: KSEF_NUMBERS.zal }] } : {}),
    });
    const xml = buildFa3(input);
    const result = await validateFa3(xml);
    expect(result.errors).toEqual([]);
    const back = parseFa3(xml);
    expect(back.kind).toBe({ INV: 'VAT', SB: 'VAT', UPR: 'UPR', ROZ: 'ROZ' }[invoiceType]);
    expect(back.annotations.selfBilling).toBe(invoiceType === 'SB' ? '1' : '2');
    expect(back.seller.nip).toBe('9999999999');
    expect(back.buyer.id).toEqual({ type: 'nip', nip: '1111111111' });
    expect(back.seller.address).toEqual({ countryCode: 'PL', line1: 'ul. Fabryczna 7', line2: '90-001 Łódź' });
    // 3 × 10.99 = 32.97, VAT 7.58; zw 100.00; the same totals the portal's form computed.
    expect(back.summary).toEqual({ P_13_1: '32.97', P_14_1: '7.58', P_13_7: '100.00', P_15: '140.55' });
    expect(doc.totals.find((t) => t.qualifier === '77')?.value).toBe('140.55');
    expect(back.payment?.dueDates).toEqual([{ date: '2026-12-04' }]);
    expect(back.saleDate).toBe('2026-11-18');
  });

  it("keeps the totals the portal computed with the company's VAT algorithm", () => {
    // Per line: 0.50 → VAT 0.115 → 0.12, twice 0.24; per rate: 1.00 → 0.23.
    const lines = [
      DraftLineSchema.parse({ description: 'A', quantity: '1', unit: 'PCE', price: '0.50', vatRate: '23' }),
      DraftLineSchema.parse({ description: 'B', quantity: '1', unit: 'PCE', price: '0.50', vatRate: '23' }),
    ];
    for (const [algorithm, vat, gross] of [
      ['lines', '0.24', '1.24'],
      ['summary', '0.23', '1.23'],
    ] as const) {
      const doc = formToCanonical('invoice', form({ lines }), algorithm);
      const summary = parseFa3(buildFa3(canonicalToKsefInvoice(doc))).summary;
      expect(summary).toEqual({ P_13_1: '1.00', P_14_1: vat, P_15: gross });
      expect(summary?.P_15).toBe(doc.totals.find((t) => t.qualifier === '77')?.value);
    }
  });

  it('writes a ZAL with the order and the advance received', async () => {
    const doc = formToCanonical('invoice', form({ invoiceType: 'ZAL' }), 'summary');
    const xml = buildFa3(canonicalToKsefInvoice(doc, { advanceGross: '50' }));
    expect((await validateFa3(xml)).errors).toEqual([]);
    const back = parseFa3(xml);
    expect(back.kind).toBe('ZAL');
    expect(back.order?.lines).toHaveLength(2);
    expect(back.summary?.P_15).toBe('50.00');
    expect(() => canonicalToKsefInvoice(doc)).toThrow(RangeError);
  });

  it('writes a credit note as KOR naming the corrected invoice and its KSeF number', async () => {
    const doc = formToCanonical(
      'credit_note',
      form({ number: 'FK/1', invoiceNumber: 'FV/2026/11/001', invoiceDate: '2026-11-20' }),
      'summary',
    );
    const xml = buildFa3(
      canonicalToKsefInvoice(doc, { correctedKsefNumber: KSEF_NUMBERS.vat, correctionReason: 'Zwrot' }),
    );
    expect((await validateFa3(xml)).errors).toEqual([]);
    expect(parseFa3(xml).correction).toEqual({
      reason: 'Zwrot',
      buyersBefore: [],
      corrected: [{ issueDate: '2026-11-20', number: 'FV/2026/11/001', ksefNumber: KSEF_NUMBERS.vat }],
    });
  });

  it('says what FA(3) needs that the body lacks', () => {
    const doc = formToCanonical('invoice', form({ supplier: { ...party('', 'X'), vatId: 'DE123' } }), 'summary');
    expect(() => canonicalToKsefInvoice(doc)).toThrow(/NIP/);
    const order = formToCanonical('order', form(), 'summary');
    expect(() => canonicalToKsefInvoice(order)).toThrow(/not an invoice/);
  });
});
