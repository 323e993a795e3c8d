/**
 * The Polish NIP checksum (weights 6 5 7 2 3 4 5 6 7, sum mod 11 is the last digit; 10 never occurs). KSeF PRD
 * refuses invoices whose NIPs fail it (NOTES §12); the XSD checks only the shape.
 */
const WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7] as const;

/** Whether `nip` is ten digits with a correct check digit (separators `-` and spaces are ignored). */
export function isValidNip(nip: string): boolean {
  const digits = nip.replace(/[\s-]/g, '');
  if (!/^\d{10}$/.test(digits)) return false;
  const sum = WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(digits[i]), 0);
  const check = sum % 11;
  return check !== 10 && check === Number(digits[9]);
}
