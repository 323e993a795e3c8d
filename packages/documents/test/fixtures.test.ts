/**
 * The edifact package's fixtures (`packages/edifact/test/fixtures/*.edi`, EANCOM 97 and 2002 messages of one
 * retailer and its supplier, described in the README there) mapped to the canonical body: every one maps, and the
 * order, despatch advice and invoice give exactly what a person checking them would read off the message.
 */
import { describe, expect, it } from 'vitest';
import type { CanonicalDocument, DocumentKind, DocumentSummary } from '../src/canonical.ts';
import { expectValid, listFixtures, mapAll, readFixture } from './helpers.ts';

const KINDS: Record<string, DocumentKind> = {
  orders: 'order',
  ordrsp: 'order_response',
  desadv: 'despatch_advice',
  invoic: 'invoice',
  recadv: 'receiving_advice',
  pricat: 'price_catalogue',
  aperak: 'application_error',
  contrl: 'syntax_report',
};

const mapFixture = (name: string) => {
  const mapped = mapAll(readFixture(name));
  expect(mapped, name).toHaveLength(1);
  return mapped[0]!;
};

const date = (qualifier: string, value: string) => ({ qualifier, type: 'date', value, format: '102' }) as const;

const BUYER = '5401234000012';
const DELIVERY_POINT = '5401234000029';
const INVOICEE = '5401234000036';
const SUPPLIER = '8712345000011';
const GTIN_1 = '5901234123457';
const GTIN_2 = '5901234123464';

describe('every fixture', () => {
  it.each(listFixtures())('%s maps to a valid body of its kind', (name) => {
    const mapped = mapAll(readFixture(name));
    // invoic-d96a-missing-unh has no message to map; orders-d96a-batch has three.
    expect(mapped.length, name).toBe(name.includes('missing-unh') ? 0 : name.includes('batch') ? 3 : 1);
    for (const m of mapped) {
      expectValid(m, name);
      expect(m.document.kind, name).toBe(KINDS[name.slice(0, 6)]);
      expect(m.summary.kind).toBe(m.document.kind);
    }
  });

  it('the good fixtures leave nothing out but the product group of the catalogue', () => {
    const good = listFixtures().filter((f) => /^[a-z]+-(d96a|d01b|ack|reject)\.edi$/.test(f));
    expect(good.length).toBe(16);
    for (const name of good) {
      const { notes } = mapFixture(name);
      expect(notes, name).toEqual(name.startsWith('pricat') ? [expect.objectContaining({ tag: 'PGI' })] : []);
    }
  });

  it('maps D01B as it maps D96A: the same message in both directories gives the same body', () => {
    for (const kind of ['desadv', 'invoic', 'ordrsp', 'recadv', 'pricat', 'aperak']) {
      const d96a = mapFixture(`${kind}-d96a.edi`);
      const d01b = mapFixture(`${kind}-d01b.edi`);
      // The APERAK fixtures differ in their document name code alone (305 in EAN002, 313 in EAN004).
      const header = kind === 'aperak' ? { documentNameCode: '313' } : {};
      expect(d01b.document, kind).toEqual({ ...d96a.document, header: { ...d96a.document.header, ...header } });
      expect([d96a.summary.version, d01b.summary.version]).toEqual(['D96A', 'D01B']);
    }
  });

  it('notes a date that its format says is a date but is not one, and keeps it as sent', () => {
    const { document, notes } = mapFixture('desadv-d01b-bad-date.edi');
    expect(document.header.dates).toContainEqual({ qualifier: '11', type: 'raw', value: '17.01.2024', format: '102' });
    expect(notes).toEqual([{ code: 'date_not_valid', tag: 'DTM', line: 6, column: 1, value: '17.01.2024' }]);
  });

  it('reads a decimal comma as the decimal mark', () => {
    const { document } = mapFixture('ordrsp-d96a-bad-number.edi');
    expect(document.lines.flatMap((l) => l.quantities)).toContainEqual({ qualifier: '21', value: '12.5' });
  });

  it('names a message without BGM by its message reference', () => {
    const batch = mapAll(readFixture('orders-d96a-batch.edi'));
    expect(batch.map((m) => m.summary.number)).toEqual(['PO2024-0118', '2', 'PO2024-0120']);
    expect(batch[1]!.document.header.number).toBeUndefined();
  });
});

describe('the order (ORDERS D96A, EAN008)', () => {
  it('gives the header, parties and lines of the message', () => {
    const { document, summary, notes } = mapFixture('orders-d96a.edi');
    expect(document).toEqual({
      kind: 'order',
      header: {
        number: 'PO2024-0115',
        documentNameCode: '220',
        functionCode: '9',
        dates: [date('137', '2024-01-15'), date('2', '2024-01-22')],
        // The fixture does not release the colons of "06:00" (ISO 9735 release character `?`), so the text
        // arrives as three lines of C108, read as one text with a space between lines.
        texts: [{ qualifier: 'DEL', text: 'Deliver to ramp 3 between 06 00 and 10 00' }],
      },
      references: [],
      parties: [
        { role: 'BY', gln: BUYER, vatId: 'BE0123456789' },
        { role: 'DP', gln: DELIVERY_POINT },
        { role: 'SU', gln: SUPPLIER },
      ],
      currency: 'EUR',
      paymentTerms: [],
      lines: [
        {
          lineNumber: '1',
          gtin: GTIN_1,
          quantities: [{ qualifier: '21', value: '48' }],
          prices: [{ qualifier: 'AAA', value: '12.5' }],
          amounts: [],
        },
        {
          lineNumber: '2',
          gtin: GTIN_2,
          quantities: [{ qualifier: '21', value: '24' }],
          prices: [{ qualifier: 'AAA', value: '10' }],
          amounts: [],
        },
      ],
      allowances: [],
      taxes: [],
      totals: [],
      packages: [],
      errors: [],
    } satisfies CanonicalDocument);
    expect(summary).toEqual({
      kind: 'order',
      number: 'PO2024-0115',
      documentNameCode: '220',
      functionCode: '9',
      standard: 'edifact',
      messageType: 'ORDERS',
      version: 'D96A',
      associationCode: 'EAN008',
      buyerGln: BUYER,
      supplierGln: SUPPLIER,
      deliveryPointGln: DELIVERY_POINT,
      buyerTaxId: 'BE0123456789',
      expectedDeliveryDate: '2024-01-22',
      businessDate: '2024-01-15',
      test: false,
    } satisfies DocumentSummary);
    expect(notes).toEqual([]);
  });
});

describe('the despatch advice (DESADV D96A, EAN005)', () => {
  it('gives the pallet hierarchy with its SSCC and the lines packed on it', () => {
    const { document, summary, notes } = mapFixture('desadv-d96a.edi');
    expect(document).toEqual({
      kind: 'despatch_advice',
      header: {
        number: 'DES2024-0117',
        documentNameCode: '351',
        functionCode: '9',
        dates: [date('137', '2024-01-17'), date('11', '2024-01-17'), date('17', '2024-01-18')],
        texts: [],
      },
      references: [{ qualifier: 'ON', value: 'PO2024-0115' }],
      parties: [
        { role: 'BY', gln: BUYER },
        { role: 'DP', gln: DELIVERY_POINT },
        { role: 'SU', gln: SUPPLIER },
      ],
      paymentTerms: [],
      lines: [
        {
          lineNumber: '1',
          gtin: GTIN_1,
          packageId: '2',
          quantities: [{ qualifier: '12', value: '48' }],
          prices: [],
          amounts: [],
        },
        {
          lineNumber: '2',
          gtin: GTIN_2,
          packageId: '2',
          quantities: [{ qualifier: '12', value: '12' }],
          prices: [],
          amounts: [],
        },
      ],
      allowances: [],
      taxes: [],
      totals: [],
      // CPS 1 is the whole shipment (one pallet, type 201); CPS 2, inside it, the pallet with its SSCC.
      packages: [
        { id: '1', packaging: [{ count: '1', type: '201', sscc: [] }] },
        { id: '2', parentId: '1', packaging: [{ count: '1', type: '201', sscc: ['354012340000000013'] }] },
      ],
      errors: [],
    } satisfies CanonicalDocument);
    expect(summary).toMatchObject({
      kind: 'despatch_advice',
      number: 'DES2024-0117',
      referenceNumber: 'PO2024-0115',
      messageType: 'DESADV',
      version: 'D96A',
      associationCode: 'EAN005',
      buyerGln: BUYER,
      supplierGln: SUPPLIER,
      deliveryPointGln: DELIVERY_POINT,
      expectedDeliveryDate: '2024-01-18',
      businessDate: '2024-01-17',
      test: false,
    });
    expect(notes).toEqual([]);
  });
});

describe('the invoice (INVOIC D96A, EAN008)', () => {
  it('gives the parties with VAT numbers, payment terms, priced lines with VAT, the VAT breakdown and totals', () => {
    const { document, summary, notes } = mapFixture('invoic-d96a.edi');
    const vat = { qualifier: '7', type: 'VAT', rate: '21', category: 'S' };
    expect(document).toEqual({
      kind: 'invoice',
      header: {
        number: 'INV2024-0042',
        documentNameCode: '380',
        functionCode: '9',
        dates: [date('137', '2024-01-20'), date('35', '2024-01-18')],
        texts: [],
      },
      references: [
        { qualifier: 'ON', value: 'PO2024-0115' },
        { qualifier: 'AAK', value: 'DES2024-0117' },
      ],
      parties: [
        { role: 'BY', gln: BUYER, vatId: 'BE0123456789' },
        { role: 'SU', gln: SUPPLIER, vatId: 'NL123456789B01' },
        { role: 'IV', gln: INVOICEE },
      ],
      currency: 'EUR',
      // Basic terms: 30 days (D) after (3) the invoice date (5).
      paymentTerms: [{ type: '1', timeReference: '5', timeRelation: '3', periodUnit: 'D', periodCount: '30' }],
      lines: [
        {
          lineNumber: '1',
          gtin: GTIN_1,
          quantities: [{ qualifier: '47', value: '48' }],
          prices: [{ qualifier: 'AAA', value: '12.5' }],
          amounts: [{ qualifier: '203', value: '600' }],
          taxes: [{ ...vat, amounts: [] }],
        },
        {
          lineNumber: '2',
          gtin: GTIN_2,
          quantities: [{ qualifier: '47', value: '12' }],
          prices: [{ qualifier: 'AAA', value: '10' }],
          amounts: [{ qualifier: '203', value: '120' }],
          taxes: [{ ...vat, amounts: [] }],
        },
      ],
      allowances: [],
      taxes: [{ ...vat, amounts: [{ qualifier: '176', value: '151.2' }] }],
      totals: [
        { qualifier: '77', value: '871.2' },
        { qualifier: '79', value: '720' },
        { qualifier: '125', value: '720' },
        { qualifier: '176', value: '151.2' },
      ],
      packages: [],
      errors: [],
    } satisfies CanonicalDocument);
    expect(summary).toEqual({
      kind: 'invoice',
      number: 'INV2024-0042',
      referenceNumber: 'PO2024-0115',
      documentNameCode: '380',
      functionCode: '9',
      standard: 'edifact',
      messageType: 'INVOIC',
      version: 'D96A',
      associationCode: 'EAN008',
      buyerGln: BUYER,
      supplierGln: SUPPLIER,
      buyerTaxId: 'BE0123456789',
      sellerTaxId: 'NL123456789B01',
      expectedDeliveryDate: '2024-01-18',
      businessDate: '2024-01-20',
      test: false,
    } satisfies DocumentSummary);
    expect(notes).toEqual([]);
  });
});

describe('the other fixtures', () => {
  it('the order response answers each line', () => {
    const { document, summary } = mapFixture('ordrsp-d96a.edi');
    expect(document.references).toEqual([
      { qualifier: 'ON', value: 'PO2024-0115', dates: [date('171', '2024-01-15')] },
    ]);
    expect(document.lines.map((l) => [l.lineNumber, l.action, l.gtin, l.quantities])).toEqual([
      ['1', '5', GTIN_1, [{ qualifier: '21', value: '48' }]],
      ['2', '3', GTIN_2, [{ qualifier: '21', value: '12' }]],
    ]);
    expect(summary).toMatchObject({ functionCode: '4', referenceNumber: 'PO2024-0115' });
  });

  it('the receiving advice reports the short line', () => {
    const { document, summary } = mapFixture('recadv-d96a.edi');
    expect(document.lines[1]).toMatchObject({
      gtin: GTIN_2,
      packageId: '1',
      quantities: [
        { qualifier: '48', value: '11' },
        { qualifier: '12', value: '12' },
      ],
    });
    expect(summary).toMatchObject({ expectedDeliveryDate: '2024-01-18', deliveryPointGln: DELIVERY_POINT });
  });

  it('the price catalogue lists articles with descriptions and prices', () => {
    const { document } = mapFixture('pricat-d96a.edi');
    expect(document.lines.map((l) => [l.gtin, l.description, l.prices[0]?.value])).toEqual([
      [GTIN_1, 'Sparkling water 1.5 l', '12.5'],
      [GTIN_2, 'Still water 1.5 l', '10'],
    ]);
    expect(document.header.dates).toContainEqual(date('194', '2024-02-01'));
  });

  it('the application error carries its code and text', () => {
    const { document, summary } = mapFixture('aperak-d96a.edi');
    expect(document.errors).toEqual([{ code: '13', text: 'Unknown GTIN 5901234123471 in line 3' }]);
    expect(document.parties.map((p) => [p.role, p.gln])).toEqual([
      ['MS', SUPPLIER],
      ['MR', BUYER],
    ]);
    expect(summary).toMatchObject({ functionCode: '27', referenceNumber: 'PO2024-0115' });
  });

  it('the syntax reports acknowledge and reject interchanges', () => {
    const ack = mapFixture('contrl-ack.edi');
    expect(ack.document.acknowledgement).toEqual({ interchangeReference: 'ORD0001', action: '7', messages: [] });
    expect(ack.document.errors).toEqual([]);
    expect(ack.summary).toMatchObject({ kind: 'syntax_report', referenceNumber: 'ORD0001', messageType: 'CONTRL' });
    const reject = mapFixture('contrl-reject.edi');
    expect(reject.document.acknowledgement).toEqual({
      interchangeReference: 'ORD0003',
      action: '4',
      messages: [{ reference: '1', type: 'ORDERS', action: '4' }],
    });
    // Segment 4 of message 1 has an invalid value (0085 12) in its second element's first component.
    expect(reject.document.errors).toEqual([
      { code: '12', reference: '1', position: '4' },
      { code: '12', reference: '1', position: '4/2:1' },
    ]);
  });
});
