import { parse } from 'csv-parse/sync';
import {
  PRODUCT_FIELDS,
  PRODUCTS_IMPORT_MAX_ROWS,
  ProductRequestSchema,
  type ImportProblem,
  type ProductField,
  type ProductValues,
} from '@portal/contracts';
import { FORMULA_START } from '../../lib/spreadsheet-cell.ts';

/** Rows of the preview (the file may hold up to PRODUCTS_IMPORT_MAX_ROWS). */
export const PREVIEW_ROWS = 200;
/** One cell or row longer than this is not a catalogue line: the file is refused instead of read on. */
const MAX_RECORD_BYTES = 16 * 1024;

export type ParsedProductsImport = {
  rows: number;
  problems: ImportProblem[];
  preview: { line: number; values: Record<string, string> }[];
  /** The valid products with their lines, when the file has no problem at all. */
  entries: { line: number; values: ProductValues }[];
};

const FIELDS = new Set<string>(PRODUCT_FIELDS);
const REQUIRED_COLUMNS: readonly ProductField[] = ['description'];

/** The delimiter of the header line: Excel writes `;` where the decimal separator is a comma. */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length - 1] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

const fileProblem = (code: string, params?: ImportProblem['params']): ImportProblem => ({
  line: 0,
  field: 'file',
  code,
  ...(params ? { params } : {}),
});

/**
 * Reads a products CSV: a header row of field names (any order, any case), then one product per row. Every problem of
 * every row is reported, as the address book's import does; products come back only when there is none.
 * Time and memory are linear in the file, which the route caps at PRODUCTS_IMPORT_MAX_BYTES.
 */
export function parseProductsCsv(bytes: Uint8Array): ParsedProductsImport {
  const result: ParsedProductsImport = { rows: 0, problems: [], preview: [], entries: [] };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    result.problems.push(fileProblem('csvEncoding'));
    return result;
  }
  if (text.includes('\u0000')) {
    result.problems.push(fileProblem('csvEncoding'));
    return result;
  }
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: MAX_RECORD_BYTES,
      // One row past the limit is enough to know the file has too many.
      to_line: PRODUCTS_IMPORT_MAX_ROWS + 2,
    }) as string[][];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    result.problems.push(fileProblem('csvUnreadable', line ? { line } : undefined));
    return result;
  }
  const [header, ...rows] = records;
  if (!header || rows.length === 0) {
    result.problems.push(fileProblem('csvEmpty'));
    return result;
  }
  if (rows.length > PRODUCTS_IMPORT_MAX_ROWS) {
    result.problems.push(fileProblem('csvTooManyRows', { max: PRODUCTS_IMPORT_MAX_ROWS }));
    return result;
  }

  // Columns by field, matched without regard to case or surrounding spaces.
  const byLower = new Map(PRODUCT_FIELDS.map((f) => [f.toLowerCase(), f]));
  const columns: (ProductField | undefined)[] = header.map((name) => byLower.get(name.trim().toLowerCase()));
  header.forEach((name, i) => {
    if (!columns[i]) result.problems.push(fileProblem('csvUnknownColumn', { column: name.trim().slice(0, 50) }));
  });
  const seen = new Set<string>();
  columns.forEach((field) => {
    if (field && seen.has(field)) result.problems.push(fileProblem('csvDuplicateColumn', { column: field }));
    if (field) seen.add(field);
  });
  for (const field of REQUIRED_COLUMNS) {
    if (!seen.has(field)) result.problems.push(fileProblem('csvMissingColumn', { column: field }));
  }
  if (result.problems.length > 0) return result;

  result.rows = rows.length;
  const gtinLines = new Map<string, number>();
  rows.forEach((cells, index) => {
    // The header is line 1; a quoted value spanning lines makes this an approximation the user can still follow.
    const line = index + 2;
    const values: Record<string, string> = {};
    columns.forEach((field, i) => {
      const raw = cells[i] ?? '';
      // Undo the export's guard against spreadsheet formulas.
      values[field!] = raw.startsWith("'") && FORMULA_START.test(raw.slice(1)) ? raw.slice(1) : raw;
    });
    if (result.preview.length < PREVIEW_ROWS) result.preview.push({ line, values });
    if (cells.length > header.length) result.problems.push({ line, field: 'file', code: 'csvExtraCells' });
    const input = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
    const parsed = ProductRequestSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'file');
        result.problems.push({ line, field: FIELDS.has(field) ? field : 'file', code: issue.message });
      }
      return;
    }
    const gtin = parsed.data.gtin;
    if (gtin) {
      const first = gtinLines.get(gtin);
      if (first !== undefined) {
        result.problems.push({ line, field: 'gtin', code: 'gtinDuplicateInFile', params: { line: first } });
        return;
      }
      gtinLines.set(gtin, line);
    }
    result.entries.push({ line, values: parsed.data });
  });
  if (result.problems.length > 0) result.entries = [];
  return result;
}
