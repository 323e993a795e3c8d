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

describe.each(['D96A', 'D01B'] as const)('a form written in %s', (directory) => {
  it.each(Object.keys(forms) as DraftKind[])('%s: no problem, no finding, and it maps back', async (kind) => {
    const form = forms[kind]();
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
});
