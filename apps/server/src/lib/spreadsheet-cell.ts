/**
 * Spreadsheets run a cell starting with these as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return): a CSV
 * export prefixes such cells with a quote, and an import of its own export takes the quote off again.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as a CSV export writes it: a value a spreadsheet would run as a formula gets a leading quote. */
export function exportCell(value: string | null): string {
  if (value === null) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}
