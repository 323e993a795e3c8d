/**
 * The EDIFACT mapping on messages written for each rule: segments placed by the group they are in (whatever the
 * version), values read as sent, and anything malformed skipped with a note, never thrown.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CREDIT_NOTE_CODES } from '../src/canonical.ts';
import { toDateValue } from '../src/edifact/dates.ts';
import { toDecimal } from '../src/edifact/segments.ts';
import { MAX_MAPPING_NOTES } from '../src/notes.ts';
import { expectValid, mapAll } from './helpers.ts';

/** One message of the given type and body segments (without UNH/UNT), in an interchange. */
const edi = (type: string, body: string[], { test = false, version = 'D:96A:UN:EAN008' } = {}): string =>
  `UNA:+.? 'UNB+UNOC:3+5401234000012:14+8712345000011:14+240115:0930+REF1${test ? '++++++1' : ''}'` +
  `UNH+1+${type}:${version}'${body.map((s) => `${s}'`).join('')}UNT+${body.length + 2}+1'UNZ+1+REF1'`;

const mapOne = (type: string, body: string[], options?: { test?: boolean; version?: string }) => {
  const mapped = mapAll(edi(type, body, options));
  expect(mapped).toHaveLength(1);
  expectValid(mapped[0]!, type);
  return mapped[0]!;
};

describe('a segment goes to the group it is in', () => {
  it('a DTM is the document’s after BGM, the reference’s after RFF, the line’s after LIN', () => {
    const { document } = mapOne('ORDERS', [
      'BGM+220+PO1+9',
      'DTM+137:20240115:102',
      'RFF+CT:K-7',
      'DTM+171:20231201:102',
      'NAD+BY+5401234000012::9',
      'LIN+1++5901234123457:EN',
      'DTM+2:20240122:102',
    ]);
    expect(document.header.dates.map((d) => d.qualifier)).toEqual(['137']);
    expect(document.references).toEqual([
      {
        qualifier: 'CT',
        value: 'K-7',
        dates: [{ qualifier: '171', type: 'date', value: '2023-12-01', format: '102' }],
      },
    ]);
    expect(document.lines[0]!.dates?.map((d) => d.qualifier)).toEqual(['2']);
  });

  it('the segments of a group the body has no place for stay out of the groups around it', () => {
    const { document, notes } = mapOne('ORDERS', [
      'BGM+220+PO1+9',
      'DTM+137:20240115:102',
      'CUX+2:EUR:9',
      'DTM+134:20240101:102', // the exchange rate's date, in the CUX group
      'TDT+20++30',
      'LOC+11+DOCK1',
      'DTM+133:20240120:102', // the transport's date
      'LIN+1++5901234123457:EN',
      'QTY+21:10',
      'LOC+7+5401234000029::9',
      'QTY+11:4', // a split delivery: the quantity of that location, not of the line
      'DTM+2:20240122:102',
      'LOC+7+5401234000036::9',
      'QTY+11:6',
      'TAX+7+VAT+++:::21+S',
    ]);
    expect(document.header.dates.map((d) => d.qualifier)).toEqual(['137']);
    expect(document.currency).toBe('EUR');
    expect(document.lines[0]!.quantities).toEqual([{ qualifier: '21', value: '10' }]);
    expect(document.lines[0]!.dates).toBeUndefined();
    expect(document.lines[0]!.taxes).toEqual([{ qualifier: '7', type: 'VAT', rate: '21', category: 'S', amounts: [] }]);
    expect(notes.map((n) => `${n.code} ${n.tag}`)).toEqual([
      'segment_not_mapped DTM',
      'segment_not_mapped TDT',
      'segment_not_mapped LOC',
      'segment_not_mapped DTM',
      'segment_not_mapped LOC',
      'segment_not_mapped QTY',
      'segment_not_mapped DTM',
      'segment_not_mapped LOC',
      'segment_not_mapped QTY',
    ]);
  });

  it('RFF and CTA under NAD belong to the party: VAT and fiscal numbers, other references, contacts', () => {
    const { document } = mapOne('INVOIC', [
      'BGM+380+INV1+9',
      'NAD+SU+8712345000011::9++Supplier BV:Logistics+Main street 1:Hall 2+Utrecht++3500 AA+NL',
      'RFF+VA:NL123456789B01',
      'RFF+FC:1234567890',
      'RFF+GN:REG-55',
      'CTA+IC+:J. Smit',
      'COM+j.smit@example.com:EM',
      'COM+?+31301234567:TE',
      'NAD+BY+PL5260250274::ZZZ++Kupiec SA+ul. Prosta 1+Warszawa+14+00-838+PL',
      'RFF+ON:PO1', // still in the buyer's NAD group: a reference of the buyer, not of the document
    ]);
    expect(document.parties).toEqual([
      {
        role: 'SU',
        gln: '8712345000011',
        name: 'Supplier BV Logistics',
        street: 'Main street 1 Hall 2',
        city: 'Utrecht',
        postalCode: '3500 AA',
        country: 'NL',
        vatId: 'NL123456789B01',
        taxId: '1234567890',
        references: [{ qualifier: 'GN', value: 'REG-55' }],
        contacts: [
          {
            function: 'IC',
            name: 'J. Smit',
            communications: [
              { channel: 'EM', value: 'j.smit@example.com' },
              { channel: 'TE', value: '+31301234567' },
            ],
          },
        ],
      },
      {
        role: 'BY',
        id: { value: 'PL5260250274', agency: 'ZZZ' },
        name: 'Kupiec SA',
        street: 'ul. Prosta 1',
        city: 'Warszawa',
        region: '14',
        postalCode: '00-838',
        country: 'PL',
        references: [{ qualifier: 'ON', value: 'PO1' }],
      },
    ]);
    expect(document.references).toEqual([]);
  });

  it('lines under CPS are in that package; GIN under PAC marks the packaging, under LIN the goods', () => {
    const { document } = mapOne('DESADV', [
      'BGM+351+DES1+9',
      'CPS+1',
      'PAC+2++201',
      'CPS+2+1',
      'PAC+1++201',
      'QTY+52:40',
      'PCI+33E',
      'GIN+BJ+354012340000000013+354012340000000020:354012340000000099',
      'LIN+1++5901234123457:EN',
      'PIA+1+A-1:SA+B-1:IN+X9:BP',
      'IMD+F++:::Water:1.5 l',
      'QTY+12:40:PCE',
      'PCI+36E',
      'GIN+BX+LOT42',
      'CPS+3+1',
      'LIN+2++5901234123464:EN',
      'QTY+12:8',
    ]);
    expect(document.packages).toEqual([
      { id: '1', packaging: [{ count: '2', type: '201', sscc: [] }] },
      {
        id: '2',
        parentId: '1',
        packaging: [
          {
            count: '1',
            type: '201',
            quantities: [{ qualifier: '52', value: '40' }],
            sscc: ['354012340000000013'],
            identifiers: [{ qualifier: 'BJ', value: '354012340000000020..354012340000000099' }],
          },
        ],
      },
      { id: '3', parentId: '1', packaging: [] },
    ]);
    expect(document.lines).toEqual([
      {
        lineNumber: '1',
        gtin: '5901234123457',
        packageId: '2',
        supplierArticleNumber: 'A-1',
        buyerArticleNumber: 'B-1',
        itemIds: [{ qualifier: 'BP', value: 'X9' }],
        description: 'Water 1.5 l',
        quantities: [{ qualifier: '12', value: '40', unit: 'PCE' }],
        prices: [],
        amounts: [],
        identifiers: [{ qualifier: 'BX', value: 'LOT42' }],
      },
      {
        lineNumber: '2',
        gtin: '5901234123464',
        packageId: '3',
        quantities: [{ qualifier: '12', value: '8' }],
        prices: [],
        amounts: [],
      },
    ]);
  });

  it('after UNS+S, MOA is a total, TAX and ALC are the document’s; MOA and TAX after a TAX or ALC are theirs', () => {
    const { document } = mapOne('INVOIC', [
      'BGM+380+INV1+9',
      'ALC+A+++1+DI',
      'PCD+1:2.5',
      'MOA+8:18',
      'LIN+1++5901234123457:EN',
      'QTY+47:10',
      'MOA+203:100',
      'PRI+AAA:10:CT:AAA:1:PCE',
      'TAX+7+VAT+++:::23+S',
      'MOA+124:23',
      'ALC+C+++2+FC',
      'MOA+23:5',
      'TAX+7+VAT+++:::8+S', // the charge's tax: TAX follows ALC in the line's ALC group
      'UNS+S',
      'MOA+77:123',
      'TAX+7+VAT+++:::23+S',
      'MOA+125:100',
      'MOA+124:23',
      'ALC+C+++1+FC',
      'MOA+131:5',
    ]);
    expect(document.allowances).toEqual([
      {
        type: 'allowance',
        sequence: '1',
        reasonCode: 'DI',
        percentage: '2.5',
        amounts: [{ qualifier: '8', value: '18' }],
      },
      { type: 'charge', sequence: '1', reasonCode: 'FC', amounts: [{ qualifier: '131', value: '5' }] },
    ]);
    expect(document.lines[0]).toMatchObject({
      prices: [{ qualifier: 'AAA', value: '10', type: 'CT', basis: '1', unit: 'PCE' }],
      amounts: [{ qualifier: '203', value: '100' }],
      allowances: [
        {
          type: 'charge',
          sequence: '2',
          reasonCode: 'FC',
          amounts: [{ qualifier: '23', value: '5' }],
          taxes: [{ qualifier: '7', type: 'VAT', rate: '8', category: 'S', amounts: [] }],
        },
      ],
      taxes: [{ qualifier: '7', type: 'VAT', rate: '23', category: 'S', amounts: [{ qualifier: '124', value: '23' }] }],
    });
    expect(document.totals).toEqual([{ qualifier: '77', value: '123' }]);
    expect(document.taxes).toEqual([
      {
        qualifier: '7',
        type: 'VAT',
        rate: '23',
        category: 'S',
        amounts: [
          { qualifier: '125', value: '100' },
          { qualifier: '124', value: '23' },
        ],
      },
    ]);
  });
});

describe('the summary', () => {
  it('an INVOIC with a credit note code is a credit note, its reference number the invoice it credits', () => {
    for (const code of CREDIT_NOTE_CODES) {
      const { document, summary } = mapOne('INVOIC', [`BGM+${code}+CN1+9`, 'RFF+ON:PO1', 'RFF+IV:INV1']);
      expect(document.kind).toBe('credit_note');
      expect(summary.referenceNumber).toBe('INV1');
    }
    expect(mapOne('INVOIC', ['BGM+383+DN1+9']).document.kind).toBe('invoice');
  });

  it('reads the test indicator of UNB (0035 = 1)', () => {
    expect(mapOne('ORDERS', ['BGM+220+PO1+9'], { test: true }).summary.test).toBe(true);
    expect(mapOne('ORDERS', ['BGM+220+PO1+9']).summary.test).toBe(false);
  });

  it('a message type it does not know is "other", with its version, and still maps what it can', () => {
    const { document, summary } = mapOne(
      'INVRPT',
      ['BGM+35+INV-1+9', 'DTM+137:20240115:102', 'LIN+1++5901234123457:EN', 'QTY+145:12'],
      {
        version: 'D:01B:UN:EAN008',
      },
    );
    expect(summary).toMatchObject({
      kind: 'other',
      messageType: 'INVRPT',
      version: 'D01B',
      businessDate: '2024-01-15',
    });
    expect(document.lines[0]!.quantities).toEqual([{ qualifier: '145', value: '12' }]);
  });

  it('takes the expected delivery date by preference and the day of a date-time', () => {
    const { summary } = mapOne('ORDERS', [
      'BGM+220+PO1+9',
      'DTM+137:202401150930:203',
      'DTM+2:20240122:102',
      'DTM+17:20240121:102',
    ]);
    expect(summary).toMatchObject({ businessDate: '2024-01-15', expectedDeliveryDate: '2024-01-21' });
  });
});

describe('what does not fit is skipped with a note', () => {
  it('values that are missing or not numbers, parties without role, unknown segments', () => {
    const { document, notes } = mapOne('ORDERS', [
      'BGM+220+PO1+9',
      'QTY+21:5', // before any line
      'NAD++5401234000012::9',
      'RFF+VA:XX', // under the NAD that could not be read: not the document's
      'NAD+BY+540123400001::9', // agency 9, but 12 digits
      'ALC+N', // neither allowance nor charge
      'MOA+8:1', // in the ALC group that was skipped
      'ZZZ+1',
      'LIN+1++5901234123457:EN',
      'QTY+21',
      'QTY+21:1O',
      'PRI+AAA:12,50',
      'MOA+203:-.5',
    ]);
    expect(document.parties).toEqual([{ role: 'BY', id: { value: '540123400001', agency: '9' } }]);
    expect(document.references).toEqual([]);
    expect(document.allowances).toEqual([]);
    expect(document.totals).toEqual([]);
    expect(document.lines[0]).toMatchObject({
      quantities: [],
      prices: [{ qualifier: 'AAA', value: '12.50' }],
      amounts: [{ qualifier: '203', value: '-0.5' }],
    });
    expect(notes.map((n) => [n.code, n.tag, n.value])).toEqual([
      ['segment_out_of_place', 'QTY', undefined],
      ['value_missing', 'NAD', undefined],
      ['segment_not_mapped', 'RFF', undefined],
      ['value_not_gln', 'NAD', '540123400001'],
      ['segment_not_mapped', 'ALC', 'N'],
      ['segment_not_mapped', 'MOA', undefined],
      ['segment_not_mapped', 'ZZZ', undefined],
      ['value_missing', 'QTY', undefined],
      ['value_not_decimal', 'QTY', '1O'],
    ]);
    expect(notes[0]).toMatchObject({ line: 1 });
  });

  it('keeps the first notes of a message and counts the rest', () => {
    const body = ['BGM+220+PO1+9', ...Array.from({ length: MAX_MAPPING_NOTES + 5 }, () => 'ZZZ+1')];
    const { notes, omittedNotes } = mapOne('ORDERS', body);
    expect(notes).toHaveLength(MAX_MAPPING_NOTES);
    expect(omittedNotes).toBe(5);
  });

  it('never throws on any sequence of segments, and always gives a valid body', () => {
    const tags = [
      'BGM',
      'DTM',
      'RFF',
      'NAD',
      'CTA',
      'COM',
      'CUX',
      'PAT',
      'TAX',
      'MOA',
      'ALC',
      'PCD',
      'LIN',
      'PIA',
      'IMD',
      'QTY',
      'PRI',
      'CPS',
      'PAC',
      'PCI',
      'GIN',
      'UNS',
      'ERC',
      'FTX',
      'UCI',
      'UCM',
      'UCS',
      'UCD',
      'UCF',
      'TDT',
      'LOC',
      'ZZZ',
    ];
    const text = fc.stringMatching(/^[A-Za-z0-9 .,:+-]{0,12}$/);
    const segment = fc.tuple(fc.constantFrom(...tags), fc.array(fc.array(text, { maxLength: 6 }), { maxLength: 8 }));
    fc.assert(
      fc.property(
        fc.constantFrom('ORDERS', 'DESADV', 'INVOIC', 'CONTRL', 'APERAK', 'XXXXXX'),
        fc.array(segment, { maxLength: 40 }),
        (type, segments) => {
          const body = segments.map(([tag, elements]) =>
            [tag, ...elements.map((e) => e.join(':').replace(/\+/g, ''))].join('+'),
          );
          for (const mapped of mapAll(edi(type, body))) expectValid(mapped, type);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('values', () => {
  it('decimals keep their digits; a comma is the decimal mark', () => {
    expect(['10', '12.50', '12,50', '-3', '.5', '5.', '0.000', '007'].map(toDecimal)).toEqual([
      '10',
      '12.50',
      '12.50',
      '-3',
      '0.5',
      '5',
      '0.000',
      '007',
    ]);
    expect(['', '.', '-', '1.2.3', '1e5', '1 000', '+1', 'abc'].map(toDecimal)).toEqual(Array(8).fill(undefined));
  });

  it('dates become ISO where the format says what they are, and stay as sent otherwise', () => {
    const iso = (format: string | undefined, value: string) => {
      const d = toDateValue('137', value, format);
      return `${d.type} ${d.value}`;
    };
    expect(iso('102', '20240229')).toBe('date 2024-02-29');
    expect(iso('102', '20230229')).toBe('raw 20230229');
    expect(iso('101', '240115')).toBe('date 2024-01-15');
    expect(iso('101', '990115')).toBe('date 1999-01-15');
    expect(iso('203', '202401150930')).toBe('dateTime 2024-01-15T09:30');
    expect(iso('203', '202401152460')).toBe('raw 202401152460');
    expect(iso('204', '20240115093005')).toBe('dateTime 2024-01-15T09:30:05');
    expect(iso('205', '202401150930+0100')).toBe('dateTime 2024-01-15T09:30+01:00');
    expect(iso('718', '20240115-20240120')).toBe('period 2024-01-15/2024-01-20');
    expect(iso('718', '2024011520240120')).toBe('period 2024-01-15/2024-01-20');
    expect(iso('719', '202401150800-202401151600')).toBe('period 2024-01-15T08:00/2024-01-15T16:00');
    expect(iso('616', '202403')).toBe('raw 202403');
    expect(iso(undefined, '20240115')).toBe('date 2024-01-15');
    expect(iso(undefined, '2024')).toBe('raw 2024');
    expect(toDateValue('2', '20240115', undefined)).toEqual({ qualifier: '2', type: 'date', value: '2024-01-15' });
  });
});
