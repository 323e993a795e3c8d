import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { documentFileName, safePart } from './document-file-name.ts';
import { encodeOriginal, sourceEncoding } from './document-encoding.ts';

const parts = {
  docType: 'ORDERS',
  partnerName: 'Demo Retailer GmbH',
  docNumber: 'PO-1001',
  deliveryPoint: 'Store Berlin',
  docDate: '2026-11-16',
};

describe('saved-file names (the four naming formats)', () => {
  it('builds each format from its parts, joined with _', () => {
    expect(documentFileName('DocType_PartnerName_DocNumber', parts, 'edi')).toBe(
      'ORDERS_Demo-Retailer-GmbH_PO-1001.edi',
    );
    expect(documentFileName('DocType_PartnerName_DocNumber_DeliveryPoint', parts, 'edi')).toBe(
      'ORDERS_Demo-Retailer-GmbH_PO-1001_Store-Berlin.edi',
    );
    expect(documentFileName('DocType_DocNumber', parts, 'pdf')).toBe('ORDERS_PO-1001.pdf');
    expect(documentFileName('PartnerName_DocType_DocDate_DocNumber', parts, 'edi')).toBe(
      'Demo-Retailer-GmbH_ORDERS_2026-11-16_PO-1001.edi',
    );
  });

  it('keeps only safe characters: no path, quote, separator or control character survives', () => {
    const name = documentFileName(
      'DocType_PartnerName_DocNumber',
      { ...parts, partnerName: '../../etc/"passwd"\u0000<x>|*?', docNumber: 'A/B\\C:D_E' },
      'edi',
    );
    expect(name).toBe('ORDERS_etc-passwd-x_A-B-C-D-E.edi');
    expect([...name].some((c) => '/\\:"<>|*?\u0000'.includes(c))).toBe(false);
    // Letters of every script stay, so a partner named in Cyrillic or Arabic is still recognisable.
    expect(safePart('ТОВ «Ромашка»')).toBe('ТОВ-Ромашка');
    expect(safePart('شركة التجزئة')).toBe('شركة-التجزئة');
    expect(safePart('Łódź Żółć')).toBe('Łódź-Żółć');
  });

  it('leaves out missing parts, bounds the length and always has a name', () => {
    expect(documentFileName('DocType_PartnerName_DocNumber', { ...parts, partnerName: null }, 'edi')).toBe(
      'ORDERS_PO-1001.edi',
    );
    const long = documentFileName('DocType_PartnerName_DocNumber', { ...parts, partnerName: 'x'.repeat(500) }, 'edi');
    expect(long.length).toBeLessThanOrEqual(200);
    expect(documentFileName('DocType_DocNumber', { ...parts, docType: '///', docNumber: '...' }, 'pdf')).toBe(
      'document.pdf',
    );
  });
});

describe('file encodings', () => {
  const polish = "UNA:+.? '\nUNB+UNOW:4+1:14+2:14+261116:1000+R1'\nFTX+AAI+++Zażółć gęślą jaźń Łódź'\n";
  const utf8 = new TextEncoder().encode(polish);

  it('keeps the bytes when the encoding is the file’s own or the file is plain ASCII', () => {
    const same = encodeOriginal(utf8, 'UNOW:4', 'utf-8');
    expect(same).toMatchObject({ ok: true, changed: false });
    expect(same.ok && same.bytes).toBe(utf8);
    const ascii = new TextEncoder().encode("UNB+UNOA:3+1+2+261116:1000+R1'");
    expect(encodeOriginal(ascii, 'UNOA:3', 'iso-8859-2')).toMatchObject({ ok: true, changed: false });
    const latin1 = iconv.encode('NAD+BY+++Café', 'iso-8859-1');
    expect(encodeOriginal(latin1, 'UNOC:3', 'iso-8859-1')).toMatchObject({ ok: true, changed: false });
  });

  it('converts Polish text to ISO 8859-2 and back without a loss', () => {
    const result = encodeOriginal(utf8, 'UNOW:4', 'iso-8859-2');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.changed).toBe(true);
    expect(result.bytes.length).toBeLessThan(utf8.length);
    expect(iconv.decode(Buffer.from(result.bytes), 'iso-8859-2')).toBe(polish);
  });

  it('converts to IBM 852 (Latin-2 for DOS) with its own byte values', () => {
    const result = encodeOriginal(new TextEncoder().encode('ł'), 'UNOW:4', 'ibm852');
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && [...result.bytes]).toEqual([0x88]);
  });

  it('names the first character ISO 8859-1 cannot hold and its place, instead of a silent ?', () => {
    const result = encodeOriginal(utf8, 'UNOW:4', 'iso-8859-1');
    expect(result).toEqual({
      ok: false,
      character: 'ż',
      codePoint: 'U+017C',
      line: 3,
      column: 13,
      offset: polish.indexOf('ż'),
    });
    // ASCII is no different: Node's ascii would write 'B' for 'ł'; this is refused instead.
    expect(encodeOriginal(utf8, 'UNOW:4', 'ascii')).toMatchObject({ ok: false, character: 'ż' });
  });

  it('writes UTF-16 with its byte order mark for “unicode”', () => {
    const result = encodeOriginal(new TextEncoder().encode('AŁ'), 'UNOW:4', 'unicode');
    expect(result.ok && [...result.bytes]).toEqual([0xff, 0xfe, 0x41, 0x00, 0x41, 0x01]);
  });

  it('reads the file in its syntax level’s encoding, and UTF-8 declared as UNOA as UTF-8', () => {
    expect(sourceEncoding('UNOC:3', new Uint8Array([0xe9]))).toBe('iso-8859-1');
    expect(sourceEncoding('UNOD:3', new Uint8Array())).toBe('iso-8859-2');
    expect(sourceEncoding('UNOA:3', new TextEncoder().encode('ł'))).toBe('utf8');
    expect(sourceEncoding('UNOA:3', new Uint8Array([0xb3]))).toBe('iso-8859-1');
  });
});
