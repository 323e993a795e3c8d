/** The parser on untrusted input: a size cap, no DOCTYPE or entity declarations, no NUL bytes, well-formed FA(3) only. */
import { describe, expect, it } from 'vitest';
import { Fa3ParseError, MAX_FA3_BYTES, parseFa3 } from '../src/parse.ts';
import { buildFa3 } from '../src/write.ts';
import { invoices } from './fixtures.ts';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof Fa3ParseError ? error.code : `other: ${String(error)}`;
  }
  return undefined;
};

const valid = buildFa3(invoices.VAT);

describe('parseFa3', () => {
  it('reads an invoice the writer wrote', () => {
    const inv = parseFa3(valid);
    expect(inv.number).toBe('FV/2026/02/001');
    expect(inv.seller.nip).toBe('9999999999');
    expect(inv.lines).toHaveLength(4);
    expect(inv.lines[2]).toMatchObject({ quantity: '1.5', netUnitPrice: '100.01', vatRate: '23' });
  });

  it('reads bytes as UTF-8 and keeps a prefixed namespace', () => {
    const prefixed = valid
      .replace(/<(\/?)([A-Za-z_])/g, '<$1fa:$2')
      .replace('<fa:Faktura xmlns=', '<fa:Faktura xmlns:fa=');
    expect(parseFa3(new TextEncoder().encode(prefixed)).buyer.name).toBe('F.H.U. Jan Kowalski & Syn <"JK">');
  });

  it('refuses more than 10 MB before parsing', () => {
    const big = valid.replace('</Faktura>', `<!--${'x'.repeat(MAX_FA3_BYTES)}--></Faktura>`);
    expect(codeOf(() => parseFa3(big))).toBe('ksef.fa3.too_large');
  });

  it('refuses a DOCTYPE and entity declarations (no entity expansion)', () => {
    const bomb = valid.replace(
      '<Faktura',
      '<!DOCTYPE Faktura [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<Faktura',
    );
    expect(codeOf(() => parseFa3(bomb))).toBe('ksef.fa3.doctype');
    const external = valid.replace('<Faktura', '<!DOCTYPE Faktura SYSTEM "file:///etc/passwd">\n<Faktura');
    expect(codeOf(() => parseFa3(external))).toBe('ksef.fa3.doctype');
  });

  it('refuses bytes that are not UTF-8, and drops a BOM', () => {
    const bytes = Buffer.from(valid, 'utf8');
    const latin2 = Buffer.from(bytes);
    latin2[latin2.indexOf('Widget')] = 0xb1; // "ą" in ISO 8859-2, a lone continuation byte in UTF-8
    expect(codeOf(() => parseFa3(latin2))).toBe('ksef.fa3.not_utf8');
    expect(parseFa3(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes])).number).toBe('FV/2026/02/001');
    expect(parseFa3(`\uFEFF${valid}`).number).toBe('FV/2026/02/001');
  });

  it('refuses NUL bytes', () => {
    expect(codeOf(() => parseFa3(valid.replace('Widget', 'Wid\u0000get')))).toBe('ksef.fa3.nul_byte');
    const bytes = new TextEncoder().encode(valid);
    bytes[200] = 0;
    expect(codeOf(() => parseFa3(bytes))).toBe('ksef.fa3.nul_byte');
  });

  it('refuses XML that is not well-formed, and a document that is not FA(3)', () => {
    expect(codeOf(() => parseFa3(valid.replace('</Fa>', '')))).toBe('ksef.fa3.not_well_formed');
    expect(codeOf(() => parseFa3('<?xml version="1.0"?><Invoice/>'))).toBe('ksef.fa3.not_fa3');
    expect(codeOf(() => parseFa3(valid.replace('kodSystemowy="FA (3)"', 'kodSystemowy="FA (2)"')))).toBe(
      'ksef.fa3.not_fa3',
    );
  });

  it('refuses values the model does not take', () => {
    expect(codeOf(() => parseFa3(valid.replace('<P_15>370.63</P_15>', '<P_15>1e3</P_15>')))).toBe('ksef.fa3.invalid');
  });

  it('decodes the standard entities and character references only', () => {
    const xml = valid.replace('<P_7>Widget</P_7>', '<P_7>A&amp;B &#169; &#x41;</P_7>');
    expect(parseFa3(xml).lines[0]?.name).toBe('A&B © A');
  });
});

describe('parseFa3 entities', () => {
  it('decodes each reference once (no double decoding)', () => {
    const xml = valid.replace('<P_7>Widget</P_7>', '<P_7>&amp;#169; &amp;amp; &#38;lt;</P_7>');
    expect(parseFa3(xml).lines[0]?.name).toBe('&#169; &amp; &lt;');
  });

  it('refuses undeclared entities and a bare ampersand', () => {
    expect(codeOf(() => parseFa3(valid.replace('Widget', 'Wid&nbsp;get')))).toBe('ksef.fa3.not_well_formed');
    expect(codeOf(() => parseFa3(valid.replace('Widget', 'A & B')))).toBe('ksef.fa3.not_well_formed');
    expect(codeOf(() => parseFa3(valid.replace('Widget', '&#0;')))).toBe('ksef.fa3.not_well_formed');
  });
});
