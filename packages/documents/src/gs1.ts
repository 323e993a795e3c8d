/**
 * GS1 check digits (GS1 General Specifications 7.9.1): weights 3 and 1 alternating from the rightmost data digit,
 * the check digit bringing the sum to a multiple of ten. The same rule as `isValidGln` in `@portal/contracts`,
 * for every length of key: GTIN-8/12/13/14, GLN, SSCC (18).
 */

/** The check digit of the data digits (the key without its last digit). */
export const gs1CheckDigit = (digits: string): number => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
};

const isValidKey = (value: string, lengths: readonly number[]): boolean =>
  /^\d+$/.test(value) &&
  lengths.includes(value.length) &&
  gs1CheckDigit(value.slice(0, -1)) === Number(value[value.length - 1]);

/** A GTIN-8, -12, -13 or -14 with a correct check digit. */
export const isValidGtin = (value: string): boolean => isValidKey(value, [8, 12, 13, 14]);

/** An SSCC (18 digits: extension digit, GS1 company prefix, serial reference, check digit) with a correct check digit. */
export const isValidSscc = (value: string): boolean => isValidKey(value, [18]);

/**
 * The SSCC of 17 data digits (extension digit, company prefix and serial reference) with its check digit appended;
 * undefined when the input is not 17 digits.
 */
export const ssccWithCheckDigit = (digits: string): string | undefined =>
  /^\d{17}$/.test(digits) ? digits + gs1CheckDigit(digits) : undefined;
