/**
 * The form field of each written segment, so the engine's findings show next to the field they concern: a line's
 * allowances and charges, and an invoice's payment terms, means and payee account.
 */
import { describe, expect, it } from 'vitest';
import { emptyDraftForm, type DraftForm } from '@portal/contracts';
import { formToCanonical, writeEancomMessage } from '@portal/documents';
import { fieldsOfSegments } from './drafts.tasks.ts';

const form = (): DraftForm => ({
  ...emptyDraftForm(),
  number: 'FV/1',
  documentDate: '2026-11-20',
  paymentDueDate: '2026-12-20',
  buyer: { ...emptyDraftForm().buyer, gln: '4012345000016' },
  supplier: { ...emptyDraftForm().supplier, gln: '5901234000017' },
  payment: {
    terms: 'net_days',
    days: '30',
    discountPercentage: '2',
    discountDays: '10',
    means: '30',
    iban: 'PL61109010140000071219812874',
  },
  lines: [0, 1].map((i) => ({
    gtin: '',
    buyerArticleNumber: '',
    supplierArticleNumber: '',
    description: `Article ${i + 1}`,
    quantity: '3',
    expectedQuantity: '',
    unit: 'PCE',
    price: '4.15',
    vatRate: '23',
    orderLineNumber: '',
    packageNumber: '',
    allowances:
      i === 1
        ? [
            { type: 'allowance' as const, reason: 'DI', calculation: 'percentage' as const, value: '10' },
            { type: 'charge' as const, reason: 'FC', calculation: 'amount' as const, value: '2.50' },
          ]
        : [],
  })),
});

describe('fieldsOfSegments', () => {
  it("names a line's allowances and the invoice's payment terms, means and IBAN", () => {
    const { message } = writeEancomMessage(formToCanonical('invoice', form(), 'lines'), {
      directory: 'D96A',
      reference: '1',
    });
    const fields = fieldsOfSegments(message.segments);
    const at = (tag: string, nth = 0) =>
      fields[message.segments.map((s, i) => [s.tag, i] as const).filter(([t]) => t === tag)[nth]![1]];
    expect(at('PAI')).toBe('payment.means');
    expect(at('FII')).toBe('payment.iban');
    expect([at('PAT', 0), at('PAT', 1)]).toEqual(['payment.days', 'payment.discountDays']);
    expect(at('PCD', 0)).toBe('payment.discountPercentage');
    expect([at('ALC', 0), at('PCD', 1), at('MOA', 2), at('ALC', 1), at('MOA', 3)]).toEqual([
      'lines.1.allowances.0.reason',
      'lines.1.allowances.0.value',
      'lines.1.allowances.0.value',
      'lines.1.allowances.1.reason',
      'lines.1.allowances.1.value',
    ]);
    // The line's own amount (MOA 203) before its allowances stays the line's.
    expect(at('MOA', 1)).toBe('lines.1.price');
  });
});
