/**
 * The EANCOM writer: each document a form makes (order, order response, despatch advice, invoice and credit note in
 * the five Polish kinds, receiving advice), written in EANCOM 97 (D96A) and 2002 (D01B), validates with no error
 * against the directory the engine ships and its EANCOM guide, and maps back to the same canonical body. Then the
 * interchange: UNA, test indicator, control reference, syntax identifier and escaping.
 */
import {
  createMapLevel,
  createSpecificationLevel,
  parse,
  validate,
  type Finding,
  type ValidationLevelPlugin,
} from '@portal/edifact';
import { loadGuides } from '@portal/edifact/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { getTestStore } from '../../edifact/test/directory/helpers.ts';
import { emptyDocument, type CanonicalDocument, type Line, type Party } from '../src/canonical.ts';
import { mapEdifactInterchanges } from '../src/edifact/map.ts';
import {
  EANCOM_ASSOCIATIONS,
  POLISH_INVOICE_TYPES,
  polishInvoiceTypeOf,
  writeEancomMessage,
  type EancomDirectory,
  type PolishInvoiceType,
} from '../src/edifact/write-message.ts';
import { writeInterchange, type WriteInterchangeOptions } from '../src/edifact/write-interchange.ts';
import { applicationResponse } from '../src/application-response.ts';
import { isValidGtin, isValidSscc, ssccWithCheckDigit } from '../src/gs1.ts';
import { canonicalTotals, computeTotals, type MoneyLine } from '../src/money.ts';

let levels: ValidationLevelPlugin[];
beforeAll(async () => {
  const directories = await getTestStore();
  levels = [createSpecificationLevel({ directories }), createMapLevel({ guides: await loadGuides(), directories })];
});

const BUYER = '5901234000017';
const DELIVERY_POINT = '5901234000024';
const INVOICEE = '5901234000031';
const SUPPLIER = '5909876000013';
const GTIN_1 = '5901234123457';
const GTIN_2 = '5901234123464';
const GTIN_3 = '5901234123471';
const SSCC_1 = ssccWithCheckDigit('35901234000000001')!;
const SSCC_2 = ssccWithCheckDigit('35901234000000002')!;

const date = (qualifier: string, value: string) => ({ qualifier, type: 'date', value, format: '102' }) as const;

const buyer: Party = {
  role: 'BY',
  gln: BUYER,
  name: 'Sieć Handlowa Kupiec Spółka z ograniczoną odpowiedzialnością Oddział Centralny',
  street: 'ul. Marszałkowska 100',
  city: 'Warszawa',
  postalCode: '00-001',
  country: 'PL',
  vatId: 'PL5260250274',
};
const supplier: Party = {
  role: 'SU',
  gln: SUPPLIER,
  name: 'Dostawca Alfa S.A.',
  street: 'ul. Fabryczna 7',
  city: 'Łódź',
  postalCode: '90-001',
  country: 'PL',
  vatId: 'PL7251801126',
  contacts: [{ function: 'IC', name: 'Jan Nowak', communications: [{ channel: 'TE', value: '+48 42 123 45 67' }] }],
};
const deliveryPoint: Party = { role: 'DP', gln: DELIVERY_POINT, name: 'Magazyn Centralny' };
const invoicee: Party = { role: 'IV', gln: INVOICEE, name: 'Kupiec Księgowość' };

const ARTICLES = [
  { gtin: GTIN_1, buyerArticleNumber: 'K-1001', description: 'Sok jabłkowy 1 l', price: '4.15', vatRate: '5' },
  { gtin: GTIN_2, buyerArticleNumber: 'K-1002', description: 'Woda mineralna 1,5 l', price: '1.07', vatRate: '23' },
  { gtin: GTIN_3, description: 'Kosz prezentowy', price: '10.15', vatRate: '23' },
];

const order = (): CanonicalDocument => {
  const lines: Line[] = ARTICLES.map((a, i) => ({
    lineNumber: String(i + 1),
    gtin: a.gtin,
    ...(a.buyerArticleNumber ? { buyerArticleNumber: a.buyerArticleNumber } : {}),
    description: a.description,
    quantities: [{ qualifier: '21', value: String(12 * (i + 1)), unit: 'PCE' }],
    prices: [{ qualifier: 'AAA', value: a.price }],
    amounts: [],
  }));
  return {
    ...emptyDocument('order'),
    header: {
      number: 'ZAM/2024/0115',
      documentNameCode: '220',
      functionCode: '9',
      dates: [
        date('137', '2024-01-15'),
        { qualifier: '2', type: 'dateTime', value: '2024-01-22T06:00', format: '203' },
      ],
      texts: [
        { qualifier: 'DEL', text: 'Dostawa na rampę 3 w godzinach 6:00-10:00' },
        // Longer than a D96A text line (an..70): cut at spaces into the five C108 lines, read back as one text.
        {
          qualifier: 'AAI',
          text: 'Prosimy o awizację dostawy co najmniej 24 godziny wcześniej telefonicznie lub mailowo, z podaniem numeru zamówienia i liczby palet.',
        },
      ],
    },
    references: [{ qualifier: 'CT', value: 'UMOWA-7', dates: [date('171', '2023-12-01')] }],
    parties: [buyer, deliveryPoint, supplier],
    currency: 'PLN',
    lines,
  };
};

const orderResponse = (): CanonicalDocument => ({
  ...emptyDocument('order_response'),
  header: {
    number: 'ODP/2024/0115',
    documentNameCode: '231',
    functionCode: '4',
    dates: [date('137', '2024-01-16'), date('2', '2024-01-23')],
    texts: [],
  },
  references: [{ qualifier: 'ON', value: 'ZAM/2024/0115', dates: [date('171', '2024-01-15')] }],
  parties: [buyer, supplier],
  currency: 'PLN',
  lines: [
    {
      lineNumber: '1',
      action: '5',
      gtin: GTIN_1,
      quantities: [{ qualifier: '21', value: '12' }],
      prices: [],
      amounts: [],
    },
    {
      lineNumber: '2',
      action: '3',
      gtin: GTIN_2,
      quantities: [{ qualifier: '21', value: '20' }],
      prices: [{ qualifier: 'AAA', value: '1.07' }],
      amounts: [],
    },
    {
      lineNumber: '3',
      action: '7',
      gtin: GTIN_3,
      quantities: [{ qualifier: '21', value: '0' }],
      prices: [],
      amounts: [],
    },
  ],
});

const despatchAdvice = (): CanonicalDocument => ({
  ...emptyDocument('despatch_advice'),
  header: {
    number: 'WZ/2024/0117',
    documentNameCode: '351',
    functionCode: '9',
    dates: [date('137', '2024-01-17'), date('11', '2024-01-17'), date('17', '2024-01-18')],
    texts: [],
  },
  references: [{ qualifier: 'ON', value: 'ZAM/2024/0115', dates: [date('171', '2024-01-15')] }],
  parties: [buyer, deliveryPoint, supplier],
  packages: [
    { id: '1', packaging: [{ count: '2', type: '201', sscc: [] }] },
    { id: '2', parentId: '1', packaging: [{ count: '1', type: '201', sscc: [SSCC_1] }] },
    {
      id: '3',
      parentId: '1',
      packaging: [{ count: '1', type: '201', sscc: [SSCC_2], identifiers: [{ qualifier: 'BX', value: 'L2024-01' }] }],
    },
  ],
  lines: [
    {
      lineNumber: '1',
      gtin: GTIN_1,
      quantities: [{ qualifier: '12', value: '12' }],
      prices: [],
      amounts: [],
      references: [{ qualifier: 'ON', value: 'ZAM/2024/0115', lineNumber: '1' }],
      packageId: '2',
    },
    {
      lineNumber: '2',
      gtin: GTIN_2,
      quantities: [{ qualifier: '12', value: '24' }],
      prices: [],
      amounts: [],
      packageId: '3',
    },
  ],
});

/** An invoice as the form makes it: lines from the catalogue, money from `computeTotals`. */
const invoice = (type: PolishInvoiceType, sign = ''): CanonicalDocument => {
  const moneyLines: MoneyLine[] = ARTICLES.map((a, i) => ({
    quantity: `${sign}${3 * (i + 1)}`,
    price: a.price,
    vatRate: i === 2 ? 'zw' : a.vatRate,
    ...(i === 0 ? { adjustments: [{ type: 'allowance', percentage: '10' }] } : {}),
  }));
  const totals = computeTotals(moneyLines, 'summary');
  const { totals: amounts, taxes } = canonicalTotals(totals);
  const lines: Line[] = ARTICLES.map((a, i) => {
    const money = totals.lines[i]!;
    return {
      lineNumber: String(i + 1),
      gtin: a.gtin,
      description: a.description,
      quantities: [{ qualifier: '47', value: moneyLines[i]!.quantity, unit: 'PCE' }],
      // AAA is the net price; a line with an allowance states its price before it as AAB (gross price).
      prices: [{ qualifier: i === 0 ? 'AAB' : 'AAA', value: a.price }],
      amounts: [{ qualifier: '203', value: money.net }],
      ...(i === 0
        ? {
            allowances: [
              {
                type: 'allowance' as const,
                sequence: '1',
                reasonCode: 'DI',
                percentage: '10',
                // 3 × 4.15 = 12.45; 10 % of it, 1.245, is 1.25 in grosze.
                amounts: [{ qualifier: '204', value: sign ? '-1.25' : '1.25' }],
              },
            ],
          }
        : {}),
      taxes: [
        {
          qualifier: '7',
          type: 'VAT',
          ...(money.rate === undefined ? {} : { rate: money.rate }),
          category: money.category,
          amounts: [],
        },
      ],
    };
  });
  const credit = sign === '-';
  return {
    ...emptyDocument(credit ? 'credit_note' : 'invoice'),
    header: {
      number: `FV/2024/${type}/0042`,
      ...(credit ? { documentNameCode: '381' } : POLISH_INVOICE_TYPES[type]),
      functionCode: '9',
      dates: [date('137', '2024-01-20'), date('35', '2024-01-18')],
      texts: [{ qualifier: 'AAI', text: 'Mechanizm podzielonej płatności' }],
    },
    references: [
      { qualifier: 'ON', value: 'ZAM/2024/0115' },
      { qualifier: 'AAK', value: 'WZ/2024/0117' },
      ...(credit ? [{ qualifier: 'IV', value: 'FV/2024/INV/0042', dates: [date('171', '2024-01-20')] }] : []),
    ],
    // The payee's account with the supplier (NAD SU, FII RB), paid by credit transfer (PAI 30).
    parties: [
      buyer,
      { ...supplier, accounts: [{ qualifier: 'RB', account: 'PL61109010140000071219812874' }] },
      invoicee,
    ],
    currency: 'PLN',
    paymentMeans: '30',
    paymentTerms: [
      {
        type: '1',
        timeReference: '5',
        timeRelation: '3',
        periodUnit: 'D',
        periodCount: '30',
        dates: [date('13', '2024-02-19')],
      },
      // 2 % off when paid within 10 days of the invoice date (PAT 22, PCD 12).
      { type: '22', timeReference: '5', timeRelation: '3', periodUnit: 'D', periodCount: '10', percentage: '2' },
    ],
    lines,
    totals: amounts,
    taxes,
  };
};

const receivingAdvice = (): CanonicalDocument => ({
  ...emptyDocument('receiving_advice'),
  header: {
    number: 'PZ/2024/0118',
    documentNameCode: '352',
    functionCode: '9',
    dates: [date('137', '2024-01-18'), date('50', '2024-01-18')],
    texts: [],
  },
  references: [
    { qualifier: 'AAK', value: 'WZ/2024/0117' },
    { qualifier: 'ON', value: 'ZAM/2024/0115' },
  ],
  parties: [buyer, deliveryPoint, supplier],
  packages: [{ id: '1', packaging: [] }],
  lines: [
    {
      lineNumber: '1',
      gtin: GTIN_1,
      quantities: [{ qualifier: '48', value: '12' }],
      prices: [],
      amounts: [],
      packageId: '1',
    },
    {
      lineNumber: '2',
      gtin: GTIN_2,
      quantities: [
        { qualifier: '48', value: '22' },
        { qualifier: '12', value: '24' },
      ],
      prices: [],
      amounts: [],
      packageId: '1',
    },
  ],
});

/** The supplier's answer to the order, as the server makes it (BGM 305, DTM 137, RFF ON + DTM 171, NAD MS/MR, ERC). */
const answer = (decision: 'accept' | 'reject', kind: CanonicalDocument['kind'] = 'order'): CanonicalDocument =>
  applicationResponse({
    decision,
    reason: decision === 'reject' ? 'Brak indeksu 5901234123471 w kartotece; prosimy o korektę zamówienia.' : undefined,
    number: 'APERAK-1042',
    issuedOn: '2024-01-16',
    answered: { kind, number: 'ZAM/2024/0115', date: '2024-01-15' },
    sender: SUPPLIER,
    recipient: BUYER,
  })!;

const INTERCHANGE: Omit<WriteInterchangeOptions, 'messages'> = {
  sender: { id: SUPPLIER },
  recipient: { id: BUYER },
  controlReference: 'PORTAL0000001',
  preparedAt: '2024-01-20T10:15',
  una: true,
  // ISO 8859-2 (Latin-2): the Polish letters are outside UNOC's ISO 8859-1, and the engine says so.
  syntax: 'UNOD',
};

const errorsOf = (findings: Finding[]): string[] =>
  findings
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.code} ${f.path} ${f.actual ?? ''} ${f.expected ?? ''} (line ${f.line})`);

/** Writes one body as an interchange, validates it and maps it back. */
const roundTrip = async (body: CanonicalDocument, directory: EancomDirectory) => {
  const written = writeEancomMessage(body, { directory, reference: '1' });
  const text = writeInterchange({ ...INTERCHANGE, messages: [written.message] });
  const result = await validate(text, { levels });
  const mapped = mapEdifactInterchanges(parse(text).interchanges);
  return { text, written, findings: result.findings, mapped };
};

const CASES: [string, () => CanonicalDocument][] = [
  ['ORDERS', order],
  ['ORDRSP', orderResponse],
  ['DESADV', despatchAdvice],
  ['INVOIC (INV)', () => invoice('INV')],
  ['INVOIC (credit note, negative lines)', () => invoice('INV', '-')],
  ['RECADV', receivingAdvice],
  ['APERAK (rejected, with its reason)', () => answer('reject')],
  ['APERAK (accepted)', () => answer('accept')],
  ['APERAK (of an invoice)', () => answer('reject', 'invoice')],
  ['APERAK (of a receiving advice)', () => answer('accept', 'receiving_advice')],
];

describe.each(['D96A', 'D01B'] as const)('EANCOM in %s', (directory) => {
  it.each(CASES)('%s validates with no error and maps back to the same body', async (_name, make) => {
    const body = make();
    const { text, written, findings, mapped } = await roundTrip(body, directory);
    expect(errorsOf(findings), text.replaceAll("'", "'\n")).toEqual([]);
    // Not even a warning.
    expect(findings.map((f) => `${f.severity} ${f.code} ${f.path}`)).toEqual([]);
    expect(written.omitted).toEqual([]);
    expect(mapped).toHaveLength(1);
    expect(mapped[0]!.notes).toEqual([]);
    expect(mapped[0]!.summary.associationCode).toBe(EANCOM_ASSOCIATIONS[directory][written.message.type as 'ORDERS']);
    expect(mapped[0]!.document).toEqual(body);
  });

  it('the guide is applied: an order without its supplier (which EANCOM requires, the directory not) is an error', async () => {
    const body = order();
    body.parties = body.parties.filter((p) => p.role !== 'SU');
    const { findings } = await roundTrip(body, directory);
    expect(findings.filter((f) => f.severity === 'error').map((f) => [f.level, f.version])).toEqual([
      ['map', EANCOM_ASSOCIATIONS[directory].ORDERS],
    ]);
  });

  it.each(Object.keys(POLISH_INVOICE_TYPES) as PolishInvoiceType[])(
    'the %s invoice type is written in BGM and read back',
    async (type) => {
      const body = invoice(type);
      const { findings, mapped } = await roundTrip(body, directory);
      expect(errorsOf(findings)).toEqual([]);
      expect(mapped[0]!.document).toEqual(body);
      expect(polishInvoiceTypeOf(mapped[0]!.document.header)).toBe(type);
    },
  );
});

describe('the APERAK', () => {
  it('is written as EANCOM writes it: BGM 305, DTM 137, RFF of the answered document, NAD MS and MR, ERC and FTX AAO', () => {
    const { message } = writeEancomMessage(answer('reject'), { directory: 'D96A', reference: '1' });
    const text = writeInterchange({ ...INTERCHANGE, messages: [message] });
    expect(text.replaceAll("'", "'\n")).toContain(
      [
        "UNH+1+APERAK:D:96A:UN:EAN002'",
        "BGM+305+APERAK-1042+27'",
        "DTM+137:20240116:102'",
        "RFF+ON:ZAM/2024/0115'",
        "DTM+171:20240115:102'",
        "NAD+MS+5909876000013::9'",
        "NAD+MR+5901234000017::9'",
        "ERC+REJECTED'",
        "FTX+AAO+++Brak indeksu 5901234123471 w kartotece; prosimy o korektę zamówienia.'",
        "UNT+10+1'",
      ].join('\n'),
    );
  });

  it('holds a reason of 350 characters in the one FTX of EANCOM 97 (five lines of 70), cut hard when it must', async () => {
    const body = answer('reject');
    body.errors[0]!.text = `${'a'.repeat(69)} ${'b'.repeat(280)}`;
    const { written, findings } = await roundTrip(body, 'D96A');
    expect(errorsOf(findings)).toEqual([]);
    expect(written.omitted).toEqual([]);
    expect(written.message.segments.filter((s) => s.tag === 'FTX')).toHaveLength(1);
  });

  it("has no place for lines, totals or an error's position: they are listed", () => {
    const body = { ...answer('reject'), lines: order().lines };
    body.errors[0]!.position = '4';
    const { omitted } = writeEancomMessage(body, { directory: 'D01B', reference: '1' });
    expect(omitted).toEqual(['errors[0].position', 'lines']);
  });

  it("answers only the kinds EANCOM's APERAK can name", () => {
    expect(
      applicationResponse({
        decision: 'accept',
        number: '1',
        issuedOn: '2024-01-16',
        answered: { kind: 'price_catalogue', number: 'X' },
        sender: SUPPLIER,
        recipient: BUYER,
      }),
    ).toBeUndefined();
  });
});

describe('what a message type has no place for', () => {
  it('is listed, not written', () => {
    const body = { ...despatchAdvice(), currency: 'PLN', paymentTerms: [{ type: '1' }] };
    body.lines[0]!.prices.push({ qualifier: 'AAA', value: '1' });
    const { omitted } = writeEancomMessage(body, { directory: 'D96A', reference: '1' });
    expect(omitted).toEqual(['currency', 'paymentTerms', 'lines[0].prices']);
  });
});

describe('the interchange', () => {
  const messages = () => [writeEancomMessage(order(), { directory: 'D96A', reference: '1' }).message];

  it('writes UNA when asked, the syntax identifier and version, the control reference in UNB and UNZ', () => {
    const withUna = writeInterchange({ ...INTERCHANGE, messages: messages(), syntax: 'UNOD' });
    expect(withUna.startsWith("UNA:+.? 'UNB+UNOD:3+5909876000013:14+5901234000017:14+240120:1015+PORTAL0000001'")).toBe(
      true,
    );
    expect(withUna.endsWith("UNZ+1+PORTAL0000001'")).toBe(true);
    const without = writeInterchange({ ...INTERCHANGE, una: false, messages: messages(), syntax: 'UNOB' });
    expect(without.startsWith('UNB+UNOB:3+')).toBe(true);
    const v4 = writeInterchange({ ...INTERCHANGE, messages: messages(), syntax: 'UNOC', version: 4 });
    expect(v4.startsWith("UNA:+.?*'UNB+UNOC:4+5909876000013:14+5901234000017:14+20240120:1015+")).toBe(true);
    const parsed = parse(v4);
    expect(parsed.interchanges[0]!.controlReference).toBe('PORTAL0000001');
  });

  it('sets the test indicator (UNB 0035) for a partner in test mode, read back as a test', () => {
    const text = writeInterchange({ ...INTERCHANGE, messages: messages(), test: true });
    expect(text).toContain("+PORTAL0000001++++++1'");
    expect(mapEdifactInterchanges(parse(text).interchanges)[0]!.summary.test).toBe(true);
    const live = writeInterchange({ ...INTERCHANGE, messages: messages() });
    expect(mapEdifactInterchanges(parse(live).interchanges)[0]!.summary.test).toBe(false);
  });

  it('escapes the service characters in values with the release character, and reads them back', async () => {
    const body = order();
    body.parties[0] = { ...buyer, name: "Kupiec 'Alfa' + Syn: 50% ?" };
    const { message } = writeEancomMessage(body, { directory: 'D96A', reference: '1' });
    const text = writeInterchange({ ...INTERCHANGE, messages: [message] });
    expect(text).toContain("NAD+BY+5901234000017::9++Kupiec ?'Alfa?' ?+ Syn?: 50% ??+");
    expect(errorsOf((await validate(text, { levels })).findings)).toEqual([]);
    expect(mapEdifactInterchanges(parse(text).interchanges)[0]!.document.parties[0]!.name).toBe(
      "Kupiec 'Alfa' + Syn: 50% ?",
    );
  });

  it('counts the messages in UNZ and the segments of each in UNT', () => {
    const a = writeEancomMessage(order(), { directory: 'D96A', reference: '1' }).message;
    const b = writeEancomMessage(invoice('INV'), { directory: 'D96A', reference: '2' }).message;
    const text = writeInterchange({ ...INTERCHANGE, messages: [a, b] });
    expect(text.endsWith("UNZ+2+PORTAL0000001'")).toBe(true);
    const [first] = parse(text).interchanges[0]!.messages;
    expect(first!.trailer!.elements[0]!.components[0]).toBe(String(first!.segments.length));
  });
});

describe('GS1 check digits', () => {
  it('GTINs of every length and SSCCs', () => {
    for (const gtin of [GTIN_1, GTIN_2, GTIN_3, '96385074', '036000291452', '10614141000415'])
      expect(isValidGtin(gtin), gtin).toBe(true);
    expect(isValidGtin('5901234123458')).toBe(false);
    expect(isValidGtin('590123412345')).toBe(false);
    expect(ssccWithCheckDigit('10614141123456789')).toBe('106141411234567897');
    expect(isValidSscc(SSCC_1)).toBe(true);
    expect(isValidSscc(SSCC_1.slice(0, 17) + ((Number(SSCC_1[17]) + 1) % 10))).toBe(false);
    expect(ssccWithCheckDigit('123')).toBeUndefined();
  });
});
