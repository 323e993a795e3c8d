import { describe, expect, it } from 'vitest';
import { ICD_SCHEMES, icdSchemeName, isValidEdrpou, isValidNip, isValidVatId, vatPrefix } from './identifiers.ts';
import { COUNTRY_CODES, ELECTRONIC_ADDRESS_SCHEME_MAX, ELECTRONIC_ADDRESS_SCHEME_MIN } from './profile.ts';

const countries = new Set<string>(COUNTRY_CODES);
const isCountry = (code: string) => countries.has(code);

describe('isValidNip', () => {
  it('accepts real NIPs, with or without separators', () => {
    for (const nip of ['5261040828', '7740001454', '526-104-08-28', '526 10 40 828'])
      expect(isValidNip(nip)).toBe(true);
  });
  it('refuses a wrong check digit, a wrong length and letters', () => {
    for (const nip of ['5261040829', '526104082', '52610408280', 'PL5261040828', 'abcdefghij']) {
      expect(isValidNip(nip)).toBe(false);
    }
  });
  it('refuses a number whose checksum is 10, which no NIP can have', () => {
    // 5*6 + 5*7 = 65, and 65 % 11 = 10, whatever the last digit
    for (const last of '0123456789') expect(isValidNip(`000000055${last}`)).toBe(false);
  });
});

describe('isValidEdrpou', () => {
  it('accepts real codes from both weight ranges and the recomputed case', () => {
    // PrivatBank, Ukrzaliznytsia, Naftogaz, Nova Poshta (30..60 million range), a code with a leading zero.
    for (const code of ['14360570', '40075815', '20077720', '31316718', '00032112']) {
      expect(isValidEdrpou(code)).toBe(true);
    }
  });
  it('refuses a wrong check digit, a wrong length and separators', () => {
    for (const code of ['14360571', '1436057', '143605700', '1436-0570', '']) expect(isValidEdrpou(code)).toBe(false);
  });
});

describe('isValidVatId', () => {
  it('accepts identifiers in their country formats', () => {
    for (const vat of [
      'PL5261040828',
      'DE123456789',
      'EL123456789',
      'ATU12345678',
      'NL123456789B01',
      'FR 40 303265045',
    ]) {
      expect(isValidVatId(vat, isCountry)).toBe(true);
    }
  });
  it('checks a Polish one as a NIP', () => {
    expect(isValidVatId('PL5261040829', isCountry)).toBe(false);
  });
  it('refuses a missing or unknown prefix, Greece as GR, and a wrong format', () => {
    for (const vat of ['5261040828', 'QQ123456789', 'GR123456789', 'DE12345678', 'AT12345678']) {
      expect(isValidVatId(vat, isCountry)).toBe(false);
    }
  });
  it('accepts a country the table does not list when the rest is 2 to 13 letters and digits', () => {
    expect(isValidVatId('TR1234567890', isCountry)).toBe(true);
    expect(isValidVatId('TR12345678901234', isCountry)).toBe(false);
  });
  it('reads the prefix', () => {
    expect(vatPrefix('el 123456789')).toBe('EL');
    expect(vatPrefix('123')).toBeUndefined();
  });
});

describe('ICD schemes', () => {
  it('covers the description range 0002 to 0204, in order, four digits each', () => {
    const codes = ICD_SCHEMES.map(([code]) => code);
    expect(codes[0]).toBe('0002');
    expect(codes.at(-1)).toBe('0204');
    expect([...codes].sort()).toEqual(codes);
    for (const code of codes) {
      expect(code).toMatch(/^\d{4}$/);
      expect(Number(code)).toBeGreaterThanOrEqual(ELECTRONIC_ADDRESS_SCHEME_MIN);
      expect(Number(code)).toBeLessThanOrEqual(ELECTRONIC_ADDRESS_SCHEME_MAX);
    }
  });
  it('names the schemes users look for', () => {
    expect(icdSchemeName('0088')).toBe('EAN Location Code');
    expect(icdSchemeName('0092')).toBeUndefined();
  });
});
