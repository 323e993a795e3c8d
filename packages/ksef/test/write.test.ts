/**
 * The writer: an invoice of every FA(3) kind (and SB) is valid against the Ministry's XSD and carries exactly the
 * summary worked out by hand; text is escaped; what the XSD does not check is still refused by the model.
 */
import { describe, expect, it } from 'vitest';
import { parseFa3 } from '../src/parse.ts';
import { findUnmodelled } from '../src/unmodelled.ts';
import { validateFa3 } from '../src/validate.ts';
import { buildFa3, FA3_NAMESPACE } from '../src/write.ts';
import { expectedSummaries, invoices, type FixtureName } from './fixtures.ts';

const names = Object.keys(invoices) as FixtureName[];

describe('buildFa3', () => {
  it.each(names)('writes an XSD-valid %s invoice with the exact summary', async (name) => {
    const xml = buildFa3(invoices[name]);
    const result = await validateFa3(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const back = parseFa3(xml);
    expect(back.summary).toEqual(expectedSummaries[name]);
    expect(back.kind).toBe(name === 'SB' ? 'VAT' : name);
  });

  it('marks a self-billed invoice with P_17 = 1 and a normal one with 2', () => {
    expect(buildFa3(invoices.SB)).toContain('<P_17>1</P_17>');
    expect(buildFa3(invoices.VAT)).toContain('<P_17>2</P_17>');
  });

  it('writes the FA(3) header and namespace', () => {
    const xml = buildFa3(invoices.VAT);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Faktura')).toBe(true);
    expect(xml).toContain(`xmlns="${FA3_NAMESPACE}"`);
    expect(xml).toContain('<KodFormularza kodSystemowy="FA (3)" wersjaSchemy="1-0E">FA</KodFormularza>');
    expect(xml).toContain('<WariantFormularza>3</WariantFormularza>');
    expect(xml).toContain('<DataWytworzeniaFa>2026-02-01T10:00:00Z</DataWytworzeniaFa>');
  });

  it('uses the time of writing when the invoice has no createdAt', () => {
    const xml = buildFa3({ ...invoices.VAT, createdAt: undefined }, new Date('2026-02-03T04:05:06.789Z'));
    expect(xml).toContain('<DataWytworzeniaFa>2026-02-03T04:05:06Z</DataWytworzeniaFa>');
  });

  it('escapes markup in text and reads it back unchanged', () => {
    const xml = buildFa3(invoices.VAT);
    expect(xml).toContain('F.H.U. Jan Kowalski &amp; Syn &lt;&quot;JK&quot;&gt;');
    expect(parseFa3(xml).buyer.name).toBe('F.H.U. Jan Kowalski & Syn <"JK">');
  });

  it('reads back what it wrote', () => {
    const back = parseFa3(buildFa3(invoices.KOR));
    expect(back.correction).toEqual({ ...invoices.KOR.correction, buyersBefore: [] });
    expect(back.lines.map((l) => l.before ?? false)).toEqual([true, false]);
    expect(parseFa3(buildFa3(invoices.ROZ)).advanceInvoices).toEqual(invoices.ROZ.advanceInvoices);
  });

  it('writes a supply of new means of transport and the parties of the corrected invoice', async () => {
    const vat = {
      ...invoices.VAT,
      annotations: {
        newTransport: {
          type: 'supply' as const,
          art42_5: '2' as const,
          vehicles: [{ P_22A: '2026-01-10', P_NrWierszaNST: '1', P_22BMK: 'Fiat', P_22B: '1200', P_22BT: 'osobowy' }],
        },
      },
    };
    const kor = {
      ...invoices.KOR,
      correction: {
        ...invoices.KOR.correction,
        sellerBefore: {
          nip: '9999999999',
          name: 'ABC sp. z o.o.',
          address: { countryCode: 'PL', line1: 'ul. Stara 1' },
        },
        buyersBefore: [{ id: { type: 'nip' as const, nip: '1111111111' }, name: 'Jan Kowalski', buyerId: '0001' }],
      },
    };
    for (const input of [vat, kor]) {
      const xml = buildFa3(input);
      expect((await validateFa3(xml)).errors).toEqual([]);
      expect(findUnmodelled(xml)).toEqual([]);
    }
    expect(parseFa3(buildFa3(vat)).annotations.newTransport).toEqual(vat.annotations.newTransport);
    expect(parseFa3(buildFa3(kor)).correction).toEqual(kor.correction);
  });

  it('refuses a rate FA(3) does not know and a float-shaped amount', () => {
    expect(() => buildFa3({ ...invoices.VAT, lines: [{ name: 'x', vatRate: '19' as never }] })).toThrow();
    expect(() => buildFa3({ ...invoices.VAT, lines: [{ name: 'x', netValue: '1e3' }] })).toThrow();
  });
});
