/**
 * The forms' values to EANCOM: a filled form of each kind passes `draftProblems`, writes a body that validates with
 * no error against the directory and its EANCOM guide (D96A and D01B) and maps back to the same body; the invoice's
 * money follows the user's VAT algorithm; turnaround carries an order's parties, references and lines into its
 * answers, and a despatch advice's into the invoice and the receiving advice.
 */
import { draftProblems, emptyDraftForm, type DraftForm, type DraftKind } from '@portal/contracts';
import { createMapLevel, createSpecificationLevel, parse, validate, type ValidationLevelPlugin } from '@portal/edifact';
import { loadGuides } from '@portal/edifact/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { getTestStore } from '../../edifact/test/directory/helpers.ts';
import { formToCanonical, turnaroundForm } from '../src/authoring.ts';
import { mapEdifactInterchanges } from '../src/edifact/map.ts';
import { writeEancomMessage } from '../src/edifact/write-message.ts';
import { writeInterchange } from '../src/edifact/write-interchange.ts';
import { ssccWithCheckDigit } from '../src/gs1.ts';

let levels: ValidationLevelPlugin[];
beforeAll(async () => {
  const directories = await getTestStore();
  levels = [createSpecificationLevel({ directories }), createMapLevel({ guides: await loadGuides(), directories })];
});

const party = (gln: string, name: string) => ({
  ...emptyDraftForm().buyer,
  gln,
  name,
  street: 'ul. Fabryczna 7',
  city: 'Lodz',
  postalCode: '90-001',
  country: 'PL',
  vatId: 'PL7251801126',
});

const base = (): DraftForm => ({
  ...emptyDraftForm(),
  number: 'DOC/2026/0001',
  documentDate: '2026-11-20',
  deliveryDate: '2026-11-24',
  currency: 'PLN',
  note: 'Delivery to ramp 3',
  buyer: party('4012345000016', 'Demo Retailer'),
  supplier: party('5901234000017', 'Demo Supplier'),
  deliveryPoint: { ...emptyDraftForm().buyer, gln: '4012345000023', name: 'Store Berlin' },
  lines: [
    {
      ...emptyDraftForm().lines[0],
      gtin: '5901234123457',
      buyerArticleNumber: 'K-1001',
      supplierArticleNumber: '',
      description: 'Apple juice 1 l',
      quantity: '12',
      expectedQuantity: '',
      unit: 'PCE',
      price: '4,15',
      vatRate: '5',
      orderLineNumber: '1',
      packageNumber: '1',
      allowances: [],
    },
    {
      gtin: '5901234123464',
      buyerArticleNumber: '',
      supplierArticleNumber: 'S-77',
      description: 'Mineral water 1.5 l',
      quantity: '24',
      expectedQuantity: '',
      unit: 'PCE',
      price: '1.07',
      vatRate: '23',
      orderLineNumber: '2',
      packageNumber: '2',
      allowances: [],
    },
  ],
});

const forms: Record<DraftKind, () => DraftForm> = {
  order: base,
  order_response: () => ({
    ...base(),
    orderNumber: 'ZAM/1',
    orderDate: '2026-11-19',
    responseType: 'changed',
    deliveryPoint: emptyDraftForm().deliveryPoint,
    lines: base().lines.map((l, i) => ({ ...l, action: i === 0 ? 'accepted' : 'changed' })),
  }),
  despatch_advice: () => ({
    ...base(),
    note: '',
    orderNumber: 'ZAM/1',
    packages: [
      { sscc: ssccWithCheckDigit('35901234000000001')!, type: '201' },
      { sscc: ssccWithCheckDigit('35901234000000002')!, type: 'CT' },
    ],
  }),
  invoice: () => ({
    ...base(),
    invoiceType: 'ZAL',
    orderNumber: 'ZAM/1',
    despatchNumber: 'WZ/1',
    paymentDueDate: '2026-12-20',
    invoicee: party('4012345000016', 'Demo Retailer'),
  }),
  credit_note: () => ({
    ...base(),
    invoiceNumber: 'FV/1',
    invoiceDate: '2026-11-10',
    lines: base().lines.map((l) => ({ ...l, quantity: `-${l.quantity}` })),
  }),
  receiving_advice: () => ({
    ...base(),
    note: '',
    orderNumber: 'ZAM/1',
    despatchNumber: 'WZ/1',
    lines: base().lines.map((l) => ({ ...l, expectedQuantity: l.quantity, quantity: '10' })),
  }),
};

/** Line 1 with 10 % discount and a 2.50 freight charge, line 2 with a 1.00 promotional allowance. */
const adjusted = (form: DraftForm): DraftForm => ({
  ...form,
  lines: form.lines.map((line, i) => ({
    ...line,
    allowances:
      i === 0
        ? [
            { type: 'allowance' as const, reason: 'DI', calculation: 'percentage' as const, value: '10' },
            { type: 'charge' as const, reason: 'FC', calculation: 'amount' as const, value: '2,50' },
          ]
        : [{ type: 'allowance' as const, reason: 'PAD', calculation: 'amount' as const, value: '1' }],
  })),
});

/** Net 30 days, 2 % discount within 10 days, by credit transfer to the supplier's IBAN. */
const paid = (form: DraftForm): DraftForm => ({
  ...form,
  payment: {
    terms: 'net_days',
    days: '30',
    discountPercentage: '2',
    discountDays: '10',
    means: '30',
    iban: 'PL61 1090 1014 0000 0712 1981 2874',
  },
});

/** The forms each kind writes, and the forms with allowances, charges and payment terms. */
const CASES: [string, DraftKind, () => DraftForm][] = [
  ...(Object.keys(forms) as DraftKind[]).map((kind): [string, DraftKind, () => DraftForm] => [kind, kind, forms[kind]]),
  ['order with allowances and charges', 'order', () => adjusted(forms.order())],
  ['order response with allowances', 'order_response', () => adjusted(forms.order_response())],
  ['invoice with allowances, charges and payment terms', 'invoice', () => paid(adjusted(forms.invoice()))],
  [
    'invoice due on a fixed date, paid in cash',
    'invoice',
    () => ({
      ...forms.invoice(),
      payment: { ...forms.invoice().payment, terms: 'fixed_date', means: '10' },
    }),
  ],
  ['credit note with allowances and payment terms', 'credit_note', () => paid(adjusted(forms.credit_note()))],
];

describe.each(['D96A', 'D01B'] as const)('a form written in %s', (directory) => {
  it.each(CASES)('%s: no problem, no finding, and it maps back', async (_name, kind, make) => {
    const form = make();
    expect(draftProblems(kind, form)).toEqual([]);
    const body = formToCanonical(kind, form, 'lines');
    const written = writeEancomMessage(body, { directory, reference: '1' });
    expect(written.omitted).toEqual([]);
    const text = writeInterchange({
      messages: [written.message],
      sender: { id: form.supplier.gln },
      recipient: { id: form.buyer.gln },
      controlReference: '1000',
      preparedAt: '2026-11-20T10:00',
    });
    const result = await validate(text, { levels });
    expect(
      result.findings.map((f) => `${f.severity} ${f.code} ${f.path} (line ${f.line})`),
      text,
    ).toEqual([]);
    const mapped = mapEdifactInterchanges(parse(text).interchanges);
    expect(mapped[0]!.document).toEqual(body);
  });
});

describe('the invoice money', () => {
  it('follows the VAT algorithm: per line or per rate, in grosze', () => {
    const form: DraftForm = {
      ...forms.invoice(),
      lines: [1, 2, 3].map(() => ({ ...base().lines[1]!, quantity: '1', price: '10.15', vatRate: '23' })),
    };
    const total = (algorithm: 'lines' | 'summary') =>
      formToCanonical('invoice', form, algorithm).totals.find((t) => t.qualifier === '77')?.value;
    expect(total('lines')).toBe('37.44');
    expect(total('summary')).toBe('37.45');
  });

  it('takes the allowances and charges into the line net and the totals, exactly; a credit note is its negative', () => {
    // Line 1: 12 × 4.15 = 49.80, − 10 % (4.98) + 2.50 = 47.32 at 5 %; line 2: 24 × 1.07 = 25.68 − 1.00 = 24.68 at 23 %.
    const invoice = formToCanonical('invoice', adjusted(forms.invoice()), 'lines');
    expect(invoice.lines.map((l) => l.amounts[0]?.value)).toEqual(['47.32', '24.68']);
    expect(invoice.lines[0]!.allowances).toEqual([
      {
        type: 'allowance',
        sequence: '1',
        reasonCode: 'DI',
        percentage: '10',
        amounts: [{ qualifier: '204', value: '4.98' }],
      },
      { type: 'charge', sequence: '1', reasonCode: 'FC', amounts: [{ qualifier: '23', value: '2.50' }] },
    ]);
    expect(invoice.lines[0]!.prices).toEqual([{ qualifier: 'AAB', value: '4.15' }]);
    // VAT per line: 2.37 + 5.68; per rate the same here. 72.00 net, 8.05 VAT.
    const total = (body: typeof invoice) => body.totals.map((t) => `${t.qualifier} ${t.value}`);
    expect(total(invoice)).toEqual(['79 72.00', '125 72.00', '176 8.05', '77 80.05']);
    expect(total(formToCanonical('invoice', adjusted(forms.invoice()), 'summary'))).toEqual(total(invoice));
    const credit = formToCanonical('credit_note', adjusted(forms.credit_note()), 'summary');
    expect(total(credit)).toEqual(['79 -72.00', '125 -72.00', '176 -8.05', '77 -80.05']);
    expect(credit.lines[1]!.allowances?.[0]?.amounts).toEqual([{ qualifier: '204', value: '-1.00' }]);
  });

  it('writes the payment terms, the discount, the means and the payee’s IBAN (without spaces) with the supplier', () => {
    const body = formToCanonical('invoice', paid(forms.invoice()), 'lines');
    expect(body.paymentTerms).toEqual([
      {
        type: '1',
        timeReference: '5',
        timeRelation: '3',
        periodUnit: 'D',
        periodCount: '30',
        dates: [{ qualifier: '13', type: 'date', value: '2026-12-20', format: '102' }],
      },
      { type: '22', timeReference: '5', timeRelation: '3', periodUnit: 'D', periodCount: '10', percentage: '2' },
    ]);
    expect(body.paymentMeans).toBe('30');
    expect(body.parties.find((p) => p.role === 'SU')?.accounts).toEqual([
      { qualifier: 'RB', account: 'PL61109010140000071219812874' },
    ]);
    // An order has no payment terms of the form.
    expect(formToCanonical('order', paid(forms.order()), 'lines').paymentTerms).toEqual([]);
  });
});

describe('draftProblems', () => {
  it('names each field a form must fix, with the validation code', () => {
    const form: DraftForm = {
      ...forms.despatch_advice(),
      number: '',
      documentDate: '2026-02-30',
      buyer: { ...base().buyer, gln: '4012345000017' },
      packages: [{ sscc: '359012340000000011', type: '201' }],
    };
    form.lines[0] = { ...form.lines[0]!, gtin: '5901234123458', quantity: '1,5x', packageNumber: '3' };
    expect(draftProblems('despatch_advice', form)).toEqual([
      { field: 'number', code: 'required' },
      { field: 'documentDate', code: 'date' },
      { field: 'buyer.gln', code: 'gln' },
      { field: 'lines.0.gtin', code: 'gtin' },
      { field: 'lines.0.quantity', code: 'quantity' },
      { field: 'lines.0.packageNumber', code: 'package' },
      { field: 'lines.1.packageNumber', code: 'package' },
      { field: 'packages.0.sscc', code: 'sscc' },
    ]);
  });

  it('asks an invoice for prices and VAT rates, and refuses a negative quantity outside a credit note', () => {
    const form = forms.invoice();
    form.lines[0] = { ...form.lines[0]!, price: '', vatRate: '24%', quantity: '-1' };
    expect(draftProblems('invoice', form)).toEqual([
      { field: 'lines.0.quantity', code: 'quantity' },
      { field: 'lines.0.price', code: 'required' },
      { field: 'lines.0.vatRate', code: 'vatRate' },
    ]);
    expect(draftProblems('credit_note', { ...form, invoiceNumber: 'FV/1' })).toEqual([
      { field: 'lines.0.price', code: 'required' },
      { field: 'lines.0.vatRate', code: 'vatRate' },
    ]);
  });
});

describe('draftProblems of allowances and payment terms', () => {
  it('refuses a percentage outside 0–100, an amount that is not a decimal, a missing or unknown reason', () => {
    const form = adjusted(forms.invoice());
    form.lines[0]!.allowances = [
      { type: 'allowance', reason: '', calculation: 'percentage', value: '100.5' },
      { type: 'charge', reason: 'XX', calculation: 'amount', value: '1.234' },
      { type: 'allowance', reason: 'DI', calculation: 'amount', value: '' },
      { type: 'allowance', reason: 'QD', calculation: 'percentage', value: '100' },
    ];
    expect(draftProblems('invoice', form)).toEqual([
      { field: 'lines.0.allowances.0.reason', code: 'required' },
      { field: 'lines.0.allowances.0.value', code: 'percentage' },
      { field: 'lines.0.allowances.1.reason', code: 'oneOf' },
      { field: 'lines.0.allowances.1.value', code: 'amount' },
      { field: 'lines.0.allowances.2.value', code: 'required' },
    ]);
    // A despatch advice has no prices, and so no allowances to judge.
    expect(draftProblems('despatch_advice', { ...forms.despatch_advice(), lines: form.lines })).toEqual([]);
  });

  it('asks each payment term for what it needs, and checks the IBAN by its mod-97 checksum', () => {
    const form = forms.invoice();
    const problems = (payment: Partial<DraftForm['payment']>, over: Partial<DraftForm> = {}) =>
      draftProblems('invoice', { ...form, ...over, payment: { ...form.payment, ...payment } });
    expect(problems({ terms: 'net_days' })).toEqual([{ field: 'payment.days', code: 'required' }]);
    expect(problems({ terms: 'net_days', days: '3x' })).toEqual([{ field: 'payment.days', code: 'days' }]);
    expect(problems({ terms: 'fixed_date' }, { paymentDueDate: '' })).toEqual([
      { field: 'paymentDueDate', code: 'required' },
    ]);
    expect(problems({ discountPercentage: '120' })).toEqual([
      { field: 'payment.discountPercentage', code: 'percentage' },
      { field: 'payment.discountDays', code: 'required' },
    ]);
    expect(problems({ iban: 'PL61 1090 1014 0000 0712 1981 2875' })).toEqual([{ field: 'payment.iban', code: 'iban' }]);
    expect(problems({ iban: 'PL61 1090 1014 0000 0712 1981 2874', means: '30' })).toEqual([]);
    // Not an invoice's: an order does not judge them.
    expect(draftProblems('order', { ...forms.order(), payment: { ...form.payment, iban: 'x' } })).toEqual([]);
  });
});

describe('turnaround', () => {
  // An order states no VAT: the supplier's product list gives it.
  const order = () => formToCanonical('order', base(), 'lines');
  const catalogue = new Map([
    ['5901234123457', { vatRate: '5', price: '9.99' }],
    ['5901234123464', { vatRate: '23' }],
  ]);

  it('an order becomes its response, despatch advice and invoice with parties, references and lines carried over', () => {
    for (const target of ['order_response', 'despatch_advice', 'invoice'] as const) {
      const form = turnaroundForm(order(), target, '2026-11-21', (gtin) => catalogue.get(gtin));
      expect(form).toMatchObject({ number: '', documentDate: '2026-11-21', orderNumber: 'DOC/2026/0001' });
      expect(form.orderDate).toBe('2026-11-20');
      expect(form.buyer).toEqual(base().buyer);
      expect(form.supplier).toEqual(base().supplier);
      // The order's price wins over the catalogue's; the VAT rate comes from the catalogue.
      expect(
        form.lines.map((l) => [l.gtin, l.quantity, l.expectedQuantity, l.price, l.vatRate, l.orderLineNumber]),
      ).toEqual([
        ['5901234123457', '12', '12', '4.15', '5', '1'],
        ['5901234123464', '24', '24', '1.07', '23', '2'],
      ]);
      // Only the number is left to type (and a despatch advice's SSCC).
      const problems = draftProblems(target, { ...form, number: 'X/1' });
      expect(form.lines.map((l) => l.allowances)).toEqual([[], []]);
      expect(problems).toEqual(target === 'despatch_advice' ? [{ field: 'packages.0.sscc', code: 'required' }] : []);
    }
    expect(turnaroundForm(order(), 'order_response', '2026-11-21').deliveryDate).toBe('2026-11-24');
  });

  it('a despatch advice becomes the invoice and the receiving advice; an invoice its credit note', () => {
    const desadv = formToCanonical('despatch_advice', forms.despatch_advice(), 'lines');
    const recadv = turnaroundForm(desadv, 'receiving_advice', '2026-11-22');
    expect(recadv).toMatchObject({ despatchNumber: 'DOC/2026/0001', orderNumber: 'ZAM/1' });
    expect(recadv.lines.map((l) => [l.quantity, l.expectedQuantity])).toEqual([
      ['12', '12'],
      ['24', '24'],
    ]);
    const invoice = formToCanonical('invoice', forms.invoice(), 'lines');
    const credit = turnaroundForm(invoice, 'credit_note', '2026-11-23');
    expect(credit).toMatchObject({ invoiceNumber: 'DOC/2026/0001', invoiceDate: '2026-11-20' });
    expect(credit.lines.map((l) => [l.quantity, l.price, l.vatRate])).toEqual([
      ['-12', '4.15', '5'],
      ['-24', '1.07', '23'],
    ]);
  });

  it("carries the lines' allowances and charges over: an order's into its invoice, an invoice's into its credit note", () => {
    const invoice = turnaroundForm(formToCanonical('order', adjusted(base()), 'lines'), 'invoice', '2026-11-21');
    // As the order wrote them: the percentage, the amounts in grosze.
    expect(
      invoice.lines.map((l) => l.allowances.map((a) => `${a.type} ${a.reason} ${a.calculation} ${a.value}`)),
    ).toEqual([['allowance DI percentage 10', 'charge FC amount 2.50'], ['allowance PAD amount 1.00']]);
    const credit = turnaroundForm(
      formToCanonical('invoice', adjusted(forms.invoice()), 'lines'),
      'credit_note',
      '2026-11-23',
    );
    expect(credit.lines[1]!.allowances).toEqual([
      { type: 'allowance', reason: 'PAD', calculation: 'amount', value: '1.00' },
    ]);
    const despatch = turnaroundForm(
      formToCanonical('order', adjusted(base()), 'lines'),
      'despatch_advice',
      '2026-11-21',
    );
    expect(despatch.lines.map((l) => l.allowances)).toEqual([[], []]);
  });
});
