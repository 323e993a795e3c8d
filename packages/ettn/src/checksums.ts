/**
 * Check digits of the identifiers an e-TTN carries. Pure functions of a string; they never throw.
 */

const digitsOf = (value: string): number[] => [...value].map(Number);

/**
 * ЄДРПОУ (EDRPOU, 8 digits, legal entities): the last digit is a weighted sum of the first seven mod 11, with
 * weights 1…7, or 7,1…6 for codes between 30 000 000 and 60 000 000; when the sum gives 10 the weights are raised
 * by 2 and the sum taken again, and a second 10 counts as 0.
 */
export const isValidEdrpou = (value: string): boolean => {
  if (!/^\d{8}$/.test(value)) return false;
  const d = digitsOf(value);
  const n = Number(value);
  const weights = n < 30_000_000 || n > 60_000_000 ? [1, 2, 3, 4, 5, 6, 7] : [7, 1, 2, 3, 4, 5, 6];
  const sum = (add: number) => weights.reduce((s, w, i) => s + (w + add) * (d[i] ?? 0), 0) % 11;
  let check = sum(0);
  if (check === 10) check = sum(2) % 10;
  return check === d[7];
};

/**
 * РНОКПП (RNOKPP, 10 digits, individuals): the last digit is
 * ((−1·d1 + 5·d2 + 7·d3 + 9·d4 + 4·d5 + 6·d6 + 10·d7 + 5·d8 + 7·d9) mod 11) mod 10.
 */
export const isValidRnokpp = (value: string): boolean => {
  if (!/^\d{10}$/.test(value)) return false;
  const d = digitsOf(value);
  const weights = [-1, 5, 7, 9, 4, 6, 10, 5, 7];
  const sum = weights.reduce((s, w, i) => s + w * (d[i] ?? 0), 0);
  return (((sum % 11) + 11) % 11) % 10 === d[9];
};

/** The GS1 check digit of the digits before it (weights 3,1,3,… from the right). */
export const gs1CheckDigit = (body: string): number => {
  const d = digitsOf(body).reverse();
  const sum = d.reduce((s, x, i) => s + x * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
};

/** A GLN: 13 digits whose last is the GS1 check digit of the first twelve. */
export const isValidGln = (value: string): boolean =>
  /^\d{13}$/.test(value) && gs1CheckDigit(value.slice(0, 12)) === Number(value[12]);
