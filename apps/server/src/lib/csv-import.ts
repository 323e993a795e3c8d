/**
 * The CSV import and export of a feature's records (the address book, products): one reader, one import flow and
 * one export writer, each feature giving only its fields, row schema, limits and codes.
 */
import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import type { ErrorCode, ImportProblem } from '@portal/contracts';
import type { Db } from '../db/client.ts';
import { AppError } from './app-error.ts';
import { exportCell, FORMULA_START } from './spreadsheet-cell.ts';

/** Rows of the preview (the file may hold up to the feature's maxRows). */
const PREVIEW_ROWS = 200;
/** One cell or row longer than this is not a record: the file is refused instead of read on. */
const MAX_RECORD_BYTES = 16 * 1024;

export type CsvImportSpec<F extends string, V> = {
  /** The columns a file may have, by field name (matched without regard to case or surrounding spaces). */
  fields: readonly F[];
  /** Columns the header must name. */
  requiredColumns: readonly F[];
  /** One row's values (its non-blank cells by field); an issue's message is the problem's code. */
  rowSchema: z.ZodType<V>;
  maxRows: number;
  /** A field whose value appears once in the file: a second row with it is a problem of that code. */
  unique?: { field: F & keyof V; code: string };
};

export type CsvPreviewRow = { line: number; values: Record<string, string> };

export type ParsedCsvImport<V> = {
  rows: number;
  problems: ImportProblem[];
  preview: CsvPreviewRow[];
  /** The valid rows with their lines, when the file has no problem at all. */
  entries: { line: number; values: V }[];
};

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
 * A reader of a feature's CSV: a header row of field names (any order, any case), then one record per row. Every
 * problem of every row is reported (to show them all in the preview at once); records come back only when there is
 * none. Time and memory are linear in the file, whose size the route caps. Built once per feature, as the CPU pool's
 * task gets only the bytes (a zod schema does not cross the thread boundary).
 */
export function parseCsvImport<F extends string, V>(
  spec: CsvImportSpec<F, V>,
): (bytes: Uint8Array) => ParsedCsvImport<V> {
  const { fields, requiredColumns, rowSchema, maxRows, unique } = spec;
  const known = new Set<string>(fields);
  const byLower = new Map(fields.map((f) => [f.toLowerCase(), f]));

  return (bytes) => {
    const result: ParsedCsvImport<V> = { rows: 0, problems: [], preview: [], entries: [] };
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
        to_line: maxRows + 2,
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
    if (rows.length > maxRows) {
      result.problems.push(fileProblem('csvTooManyRows', { max: maxRows }));
      return result;
    }

    const columns: (F | undefined)[] = header.map((name) => byLower.get(name.trim().toLowerCase()));
    header.forEach((name, i) => {
      if (!columns[i]) result.problems.push(fileProblem('csvUnknownColumn', { column: name.trim().slice(0, 50) }));
    });
    const seen = new Set<string>();
    columns.forEach((field) => {
      if (field && seen.has(field)) result.problems.push(fileProblem('csvDuplicateColumn', { column: field }));
      if (field) seen.add(field);
    });
    for (const field of requiredColumns) {
      if (!seen.has(field)) result.problems.push(fileProblem('csvMissingColumn', { column: field }));
    }
    if (result.problems.length > 0) return result;

    result.rows = rows.length;
    const uniqueLines = new Map<string, number>();
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
      const parsed = rowSchema.safeParse(input);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? 'file');
          result.problems.push({ line, field: known.has(field) ? field : 'file', code: issue.message });
        }
        return;
      }
      const key = unique ? parsed.data[unique.field] : undefined;
      if (unique && typeof key === 'string' && key) {
        const first = uniqueLines.get(key);
        if (first !== undefined) {
          result.problems.push({ line, field: unique.field, code: unique.code, params: { line: first } });
          return;
        }
        uniqueLines.set(key, line);
      }
      result.entries.push({ line, values: parsed.data });
    });
    if (result.problems.length > 0) result.entries = [];
    return result;
  };
}

/** What an import answers (the contracts' `*ImportResult`). */
export type CsvImportResult = {
  dryRun: boolean;
  rows: number;
  created: number;
  problems: ImportProblem[];
  preview: CsvPreviewRow[];
};

/**
 * Unless it is a dry run or any row has a problem, saves every record of a parsed file in one transaction: all or
 * nothing. A unique value already saved (`existing`) is a problem of its row; `invalid` is the error of a real import
 * with problems (400, each problem a detail on `rows.<line>.<field>`).
 */
export async function applyCsvImport<V>(options: {
  parsed: ParsedCsvImport<V>;
  dryRun: boolean;
  db: Db;
  inTransaction: <T>(run: (tx: Db) => Promise<T>) => Promise<T>;
  existing: {
    field: keyof V & string;
    code: string;
    /** Which of these values are saved already. */
    find: (values: string[], tx: Db) => Promise<{ has(value: string): boolean }>;
  };
  save: (values: V[], tx: Db) => Promise<number>;
  invalid: ErrorCode;
}): Promise<CsvImportResult> {
  const { parsed, dryRun, existing } = options;
  const problems: ImportProblem[] = [...parsed.problems];
  const keyOf = (values: V): string | undefined => {
    const key = values[existing.field];
    return typeof key === 'string' && key ? key : undefined;
  };
  const check = async (tx: Db) => {
    const keys = parsed.entries.flatMap((e) => keyOf(e.values) ?? []);
    const taken = await existing.find(keys, tx);
    for (const { line, values } of parsed.entries) {
      const key = keyOf(values);
      if (key && taken.has(key)) problems.push({ line, field: existing.field, code: existing.code });
    }
  };
  const result = (created: number): CsvImportResult => ({
    dryRun,
    rows: parsed.rows,
    created,
    problems: problems.sort((a, b) => a.line - b.line),
    preview: parsed.preview,
  });
  if (dryRun || problems.length > 0) {
    if (problems.length === 0) await check(options.db);
    if (!dryRun) throw importInvalid(options.invalid, problems);
    return result(0);
  }
  return options.inTransaction(async (tx) => {
    await check(tx);
    if (problems.length > 0) throw importInvalid(options.invalid, problems);
    const values = parsed.entries.map((e) => e.values);
    return result(await options.save(values, tx));
  });
}

function importInvalid(code: ErrorCode, problems: readonly ImportProblem[]): AppError {
  return new AppError(code, {
    details: problems.slice(0, 1000).map((p) => ({
      field: p.line === 0 ? 'file' : `rows.${p.line}.${p.field}`,
      code: p.code,
      ...(p.params ? { params: p.params } : {}),
    })),
  });
}

/** The export page size: memory stays flat however many records there are. */
const EXPORT_PAGE = 500;

/**
 * Every record as CSV rows (a header of the field names first), read in keyset pages; cells that a spreadsheet would
 * run as a formula get the quote the import takes off again.
 */
export async function* csvExportRows<F extends string, R extends { sortKey: string; id: string }>(
  fields: readonly F[],
  page: (after: { key: string; id: string } | undefined, limit: number) => Promise<R[]>,
  valuesOf: (row: R) => Record<F, string | null>,
): AsyncGenerator<string[]> {
  yield [...fields];
  let after: { key: string; id: string } | undefined;
  for (;;) {
    const rows = await page(after, EXPORT_PAGE);
    for (const row of rows) {
      const values = valuesOf(row);
      yield fields.map((field) => exportCell(values[field]));
    }
    if (rows.length < EXPORT_PAGE) return;
    const last = rows.at(-1)!;
    after = { key: last.sortKey, id: last.id };
  }
}
