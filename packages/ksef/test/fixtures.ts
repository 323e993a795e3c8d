/**
 * One invoice of each FA(3) kind (and SB, a VAT invoice with P_17 = 1), written for these tests. The expected
 * summaries beside them were worked out by hand, so the tests check the arithmetic, not just its repetition.
 */
import type { KsefInvoiceInput, Line, OrderLine, Summary } from '../src/model.ts';
import { computeAdvanceSummary, computeSummary, subtractSummary } from '../src/summary.ts';

/** KSeF numbers made with makeKsefNumber and checked by hand against the CRC-8/SMBUS table. */
export const KSEF_NUMBERS = {
  vat: '9999999999-20260201-ABCDEF012345-1D',
  zal: '1111111111-20260315-0123456789AB-D1',
} as const;

const seller = {
  nip: '9999999999',
  name: 'ABC AGD sp. z o.o.',
  address: { countryCode: 'PL', line1: 'ul. Kwiatowa 1 m. 2', line2: '00-001 Warszawa' },
  contacts: [{ email: 'abc@abc.pl', phone: '667444555' }],
};
const buyer = {
  id: { type: 'nip' as const, nip: '1111111111' },
  name: 'F.H.U. Jan Kowalski & Syn <"JK">',
  address: { countryCode: 'PL', line1: 'ul. Polna 1', line2: '00-001 Warszawa' },
};
const common = {
  seller,
  buyer,
  issuePlace: 'Warszawa',
  createdAt: '2026-02-01T10:00:00Z',
  systemInfo: 'portal tests',
};

export const vatLines: Line[] = [
  { name: 'Widget', unit: 'szt.', quantity: '3', netUnitPrice: '10.99', vatRate: '23', gtin: '05901234123457' },
  { name: 'Książka', unit: 'szt.', quantity: '2', netUnitPrice: '45.50', vatRate: '5' },
  { name: 'Usługa', unit: 'h', quantity: '1.5', netUnitPrice: '100.01', vatRate: '23' },
  { name: 'Szkolenie', unit: 'szt.', quantity: '1', netUnitPrice: '50', vatRate: 'zw' },
];
/** 23 %: 32.97 + 150.02 (1.5 × 100.01 = 150.015, half up) = 182.99, VAT 42.0877 → 42.09; 5 %: 91.00, 4.55; zw: 50.00. */
export const vatSummary: Summary = {
  P_13_1: '182.99',
  P_14_1: '42.09',
  P_13_3: '91.00',
  P_14_3: '4.55',
  P_13_7: '50.00',
  P_15: '370.63',
};

const orderLines: OrderLine[] = [
  {
    name: 'Mieszkanie 50 m²',
    unit: 'szt.',
    quantity: '1',
    netUnitPrice: '300000',
    netValue: '300000',
    vatValue: '69000',
    vatRate: '23',
  },
  {
    name: 'Komórka',
    unit: 'szt.',
    quantity: '1',
    netUnitPrice: '5000',
    netValue: '5000',
    vatValue: '400',
    vatRate: '8',
  },
];

/**
 * 20 000 of the 374 400 ordered, split by gross value: 23 % gets 20000 × 369000 / 374400 = 19711.54 (VAT 19711.54 ×
 * 23/123 = 3685.90, net 16025.64), 8 % the rest 288.46 (VAT 21.37, net 267.09).
 */
export const zalSummary: Summary = {
  P_13_1: '16025.64',
  P_14_1: '3685.90',
  P_13_2: '267.09',
  P_14_2: '21.37',
  P_15: '20000.00',
};

export const invoices = {
  VAT: {
    ...common,
    kind: 'VAT',
    number: 'FV/2026/02/001',
    issueDate: '2026-02-01',
    saleDate: '2026-01-30',
    lines: vatLines,
  },
  SB: {
    ...common,
    kind: 'VAT',
    number: 'SB/2026/02/001',
    issueDate: '2026-02-01',
    annotations: { selfBilling: '1' },
    lines: vatLines,
  },
  KOR: {
    ...common,
    kind: 'KOR',
    number: 'FK/2026/02/001',
    issueDate: '2026-02-10',
    correction: {
      reason: 'Zwrot 1 szt.',
      type: '2',
      corrected: [{ issueDate: '2026-02-01', number: 'FV/2026/02/001', ksefNumber: KSEF_NUMBERS.vat }],
    },
    lines: [
      {
        lineNumber: '1',
        name: 'Widget',
        unit: 'szt.',
        quantity: '3',
        netUnitPrice: '10.99',
        vatRate: '23',
        before: true,
      },
      { lineNumber: '1', name: 'Widget', unit: 'szt.', quantity: '2', netUnitPrice: '10.99', vatRate: '23' },
    ],
  },
  ZAL: {
    ...common,
    kind: 'ZAL',
    number: 'FZ/2026/03/001',
    issueDate: '2026-03-15',
    saleDate: '2026-03-14',
    order: { value: '374400', lines: orderLines },
    summary: computeAdvanceSummary(orderLines, '20000'),
    payment: { paidOn: '2026-03-14', form: '6' },
  },
  KOR_ZAL: {
    ...common,
    kind: 'KOR_ZAL',
    number: 'FKZ/2026/03/001',
    issueDate: '2026-03-20',
    correction: {
      reason: 'Zwrot części zaliczki',
      type: '2',
      corrected: [{ issueDate: '2026-03-15', number: 'FZ/2026/03/001', ksefNumber: KSEF_NUMBERS.zal }],
      advanceBefore: '20000',
    },
    order: { value: '374400', lines: orderLines },
    summary: computeAdvanceSummary(orderLines, '-5000'),
  },
  ROZ: {
    ...common,
    kind: 'ROZ',
    number: 'FR/2026/04/001',
    issueDate: '2026-04-30',
    saleDate: '2026-04-30',
    advanceInvoices: [{ ksefNumber: KSEF_NUMBERS.zal }, { number: 'FZ-POZA-KSEF/1' }],
    lines: orderLines.map((l) => ({ ...l, vatValue: undefined })),
    summary: subtractSummary(
      computeSummary(orderLines.map((l) => ({ ...l, vatValue: undefined }))),
      computeAdvanceSummary(orderLines, '20000'),
    ),
    payment: {
      dueDates: [{ date: '2026-05-14' }],
      form: '6',
      bankAccounts: [{ number: '73111111111111111111111111' }],
    },
  },
  KOR_ROZ: {
    ...common,
    kind: 'KOR_ROZ',
    number: 'FKR/2026/05/001',
    issueDate: '2026-05-05',
    correction: {
      reason: 'Rabat',
      type: '2',
      corrected: [{ issueDate: '2026-04-30', number: 'FR/2026/04/001' }],
    },
    advanceInvoices: [{ ksefNumber: KSEF_NUMBERS.zal }],
    lines: [
      {
        lineNumber: '2',
        name: 'Komórka',
        unit: 'szt.',
        quantity: '1',
        netUnitPrice: '5000',
        vatRate: '8',
        before: true,
      },
      { lineNumber: '2', name: 'Komórka', unit: 'szt.', quantity: '1', netUnitPrice: '4500', vatRate: '8' },
    ],
  },
  UPR: {
    ...common,
    kind: 'UPR',
    number: 'UPR/2026/001',
    issueDate: '2026-02-01',
    buyer: { id: { type: 'nip', nip: '1111111111' } },
    lines: [{ name: 'Kawa', unit: 'szt.', quantity: '2', grossUnitPrice: '12.30', grossValue: '24.60', vatRate: '23' }],
  },
} satisfies Record<string, KsefInvoiceInput>;

export type FixtureName = keyof typeof invoices;

/** The hand-worked summary each fixture must write. */
export const expectedSummaries: Record<FixtureName, Summary> = {
  VAT: vatSummary,
  SB: vatSummary,
  /** −32.97 + 21.98 = −10.99; VAT −2.5277 → −2.53. */
  KOR: { P_13_1: '-10.99', P_14_1: '-2.53', P_15: '-13.52' },
  ZAL: zalSummary,
  /** −5000 × 369000/374400 = −4927.88 (VAT −921.47), rest −72.12 (VAT −5.34). */
  KOR_ZAL: { P_13_1: '-4006.41', P_14_1: '-921.47', P_13_2: '-66.78', P_14_2: '-5.34', P_15: '-5000.00' },
  /** 300000 + 69000 and 5000 + 400, less the advance (16025.64 + 3685.90, 267.09 + 21.37). */
  ROZ: { P_13_1: '283974.36', P_14_1: '65314.10', P_13_2: '4732.91', P_14_2: '378.63', P_15: '354400.00' },
  /** −500 at 8 %: VAT −40. */
  KOR_ROZ: { P_13_2: '-500.00', P_14_2: '-40.00', P_15: '-540.00' },
  /** 24.60 gross at 23 %: VAT 24.60 × 23/123 = 4.60, net 20.00. */
  UPR: { P_13_1: '20.00', P_14_1: '4.60', P_15: '24.60' },
};
