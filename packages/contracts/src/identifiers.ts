import { ICD_SCHEMES } from './code-lists/icd-schemes.ts';

/**
 * Company identifiers other than the GLN (issue 10, part 1): the Polish NIP, the Ukrainian EDRPOU, a VAT identifier
 * with its country prefix and the ISO 6523 scheme of an electronic address. Pure functions, no zod, so that the
 * schemas of each feature can say which field failed and why.
 */

const digitsOf = (value: string): number[] => [...value].map(Number);

/** Polish NIP: ten digits, the last one the sum of the first nine weighted 6 5 7 2 3 4 5 6 7, modulo 11 (never 10). */
export function isValidNip(value: string): boolean {
  const nip = value.replace(/[\s-]/g, '');
  if (!/^\d{10}$/.test(nip)) return false;
  const d = digitsOf(nip);
  const weights = [6, 5, 7, 2, 3, 4, 5, 6, 7];
  const check = weights.reduce((sum, w, i) => sum + w * d[i]!, 0) % 11;
  return check !== 10 && check === d[9];
}

/**
 * Ukrainian EDRPOU (legal entities' register code): eight digits. The check digit is the weighted sum of the first
 * seven modulo 11, with weights 1..7, or 7 1 2 3 4 5 6 for codes between 30000000 and 60000000; a remainder of 10
 * is recomputed with every weight plus two, and a second 10 counts as 0 (the State Statistics Service's rule).
 */
export function isValidEdrpou(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  const d = digitsOf(value);
  const n = Number(value);
  const weights = n < 30_000_000 || n > 60_000_000 ? [1, 2, 3, 4, 5, 6, 7] : [7, 1, 2, 3, 4, 5, 6];
  const weighted = (extra: number) => weights.reduce((sum, w, i) => sum + (w + extra) * d[i]!, 0) % 11;
  let check = weighted(0);
  if (check === 10) check = weighted(2) % 10;
  return check === d[7];
}

/**
 * Ukrainian RNOKPP (an individual's tax number): ten digits, the last ((−1·d1 + 5·d2 + 7·d3 + 9·d4 + 4·d5 + 6·d6 +
 * 10·d7 + 5·d8 + 7·d9) mod 11) mod 10.
 */
export function isValidRnokpp(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const d = digitsOf(value);
  const weights = [-1, 5, 7, 9, 4, 6, 10, 5, 7];
  const sum = weights.reduce((s, w, i) => s + w * d[i]!, 0);
  return (((sum % 11) + 11) % 11) % 10 === d[9];
}

/**
 * The VAT identifier formats of the EU's VIES (and of the neighbours the portal trades with), after the two-letter
 * prefix. Greece is `EL`, Northern Ireland `XI`. A prefix not listed here must still be a country code followed by
 * 2 to 13 letters and digits.
 */
const VAT_FORMATS: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CH: /^E\d{9}(MWST|TVA|IVA)?$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  GB: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  NO: /^\d{9}(MVA)?$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  UA: /^\d{12}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};

/** Two-letter prefixes that are not ISO 3166 country codes but are used in VAT identifiers. */
const VAT_ONLY_PREFIXES = new Set(['EL', 'XI']);

/** The country prefix of a VAT identifier (`EL` for Greece), or undefined when it has none. */
export function vatPrefix(value: string): string | undefined {
  const match = /^[A-Z]{2}/.exec(value.replace(/[\s.-]/g, '').toUpperCase());
  return match?.[0];
}

/**
 * A VAT identifier with its country prefix, e.g. `PL5261040828`, `DE123456789`, `EL123456789`. Spaces, dots and
 * hyphens are ignored. A Polish one is also checked as a NIP. `isCountry` says whether a prefix is a country code.
 */
export function isValidVatId(value: string, isCountry: (code: string) => boolean): boolean {
  const vat = value.replace(/[\s.-]/g, '').toUpperCase();
  const prefix = vat.slice(0, 2);
  const rest = vat.slice(2);
  if (!/^[A-Z]{2}$/.test(prefix) || !(VAT_ONLY_PREFIXES.has(prefix) || isCountry(prefix))) return false;
  if (prefix === 'GR') return false; // Greece's VAT prefix is EL.
  const format = VAT_FORMATS[prefix] ?? /^[A-Z0-9]{2,13}$/;
  if (!format.test(rest)) return false;
  return prefix === 'PL' ? isValidNip(rest) : true;
}

const ICD_NAMES = new Map<string, string>(ICD_SCHEMES);

/** The registered name of an ISO 6523 identifier scheme (ICD) of the description's list, or undefined. */
export function icdSchemeName(code: string): string | undefined {
  return ICD_NAMES.get(code);
}

export { ICD_SCHEMES };
