/**
 * Check digits of the identifiers an e-TTN carries. Pure functions of a string; they never throw.
 */

const digitsOf = (value: string): number[] => [...value].map(Number);

// EDRPOU (legal entities, 8 digits) and RNOKPP (individuals, 10 digits): the portal's one copy of each rule.
export { isValidEdrpou, isValidRnokpp } from '@portal/contracts';

/** The GS1 check digit of the digits before it (weights 3,1,3,… from the right). */
export const gs1CheckDigit = (body: string): number => {
  const d = digitsOf(body).reverse();
  const sum = d.reduce((s, x, i) => s + x * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
};

/** A GLN: 13 digits whose last is the GS1 check digit of the first twelve. */
export const isValidGln = (value: string): boolean =>
  /^\d{13}$/.test(value) && gs1CheckDigit(value.slice(0, 12)) === Number(value[12]);
