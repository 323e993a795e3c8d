import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { AppError } from './app-error.ts';
import { applyCsvImport, csvExportRows, parseCsvImport, type ParsedCsvImport } from './csv-import.ts';

// A feature of two fields, as the address book and the products give theirs: the row schema's messages are codes.
const FIELDS = ['name', 'code'] as const;
const RowSchema = z.object({
  name: z.string().max(10, 'tooLong'),
  code: z
    .string()
    .regex(/^\d+$/, 'digits')
    .nullish()
    .transform((v) => v ?? null),
});
type Row = z.output<typeof RowSchema>;

const parse = parseCsvImport({
  fields: FIELDS,
  requiredColumns: ['name'],
  rowSchema: RowSchema,
  maxRows: 3,
  unique: { field: 'code', code: 'codeDuplicateInFile' },
});
const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseCsvImport', () => {
  it('reads the header in any order and case, with the delimiter it uses, into entries and a preview', () => {
    const parsed = parse(bytes('\uFEFF Code ;NAME\r\n12;Anna\r\n\r\n;Ben\r\n'));
    expect(parsed).toEqual({
      rows: 2,
      problems: [],
      preview: [
        { line: 2, values: { code: '12', name: 'Anna' } },
        { line: 3, values: { code: '', name: 'Ben' } },
      ],
      entries: [
        { line: 2, values: { name: 'Anna', code: '12' } },
        { line: 3, values: { name: 'Ben', code: null } },
      ],
    });
    expect(parse(bytes('name\tcode\nAnna\t1\n')).entries).toEqual([{ line: 2, values: { name: 'Anna', code: '1' } }]);
  });

  it("takes off the export's quote before a formula, and only there", () => {
    const parsed = parse(bytes("name\n'=SUM(A1)\n'plain\n"));
    expect(parsed.entries.map((e) => e.values.name)).toEqual(['=SUM(A1)', "'plain"]);
  });

  it('reports every problem of every row by line and field, and gives no entry then', () => {
    const parsed = parse(bytes('name,code\nAnna,x\nNobody-too-long,1\nCid,1,extra\n'));
    expect(parsed.rows).toBe(3);
    expect(parsed.problems).toEqual([
      { line: 2, field: 'code', code: 'digits' },
      { line: 3, field: 'name', code: 'tooLong' },
      { line: 4, field: 'file', code: 'csvExtraCells' },
    ]);
    expect(parsed.preview).toHaveLength(3);
    expect(parsed.entries).toEqual([]);
  });

  it('names a unique value repeated in the file with the line where it first appears', () => {
    const parsed = parse(bytes('name,code\nAnna,7\nBen,8\nCid,7\n'));
    expect(parsed.problems).toEqual([{ line: 4, field: 'code', code: 'codeDuplicateInFile', params: { line: 2 } }]);
    expect(parsed.entries).toEqual([]);
  });

  it('names the problems of the file itself, on line 0', () => {
    const file = (text: string | Uint8Array) =>
      parse(typeof text === 'string' ? bytes(text) : text).problems.map((p) => [p.code, p.params]);
    expect(file(new Uint8Array([0x6e, 0xff, 0x0a]))).toEqual([['csvEncoding', undefined]]);
    expect(file('name\nA\u0000\n')).toEqual([['csvEncoding', undefined]]);
    expect(file('name\n')).toEqual([['csvEmpty', undefined]]);
    expect(file('name\na\nb\nc\nd\n')).toEqual([['csvTooManyRows', { max: 3 }]]);
    expect(file('name\n"open\n')).toEqual([['csvUnreadable', { line: 2 }]]);
    expect(file('code,colour,CODE\n1,red,2\n')).toEqual([
      ['csvUnknownColumn', { column: 'colour' }],
      ['csvDuplicateColumn', { column: 'code' }],
      ['csvMissingColumn', { column: 'name' }],
    ]);
    expect(parse(bytes('name,colour\nA,b\n')).problems[0]).toEqual({
      line: 0,
      field: 'file',
      code: 'csvUnknownColumn',
      params: { column: 'colour' },
    });
  });
});

describe('applyCsvImport', () => {
  const db = {} as Db;
  const parsedOf = (text: string) => parse(bytes(text));
  function run(parsed: ParsedCsvImport<Row>, dryRun: boolean, taken: string[] = []) {
    const saved: Row[][] = [];
    const transactions: string[] = [];
    const result = applyCsvImport({
      parsed,
      dryRun,
      db,
      inTransaction: (body) => {
        transactions.push('tx');
        return body(db);
      },
      existing: {
        field: 'code',
        code: 'codeTaken',
        find: async (codes) => new Set(codes.filter((c) => taken.includes(c))),
      },
      invalid: 'validation.failed',
      save: async (values) => {
        saved.push(values);
        return values.length;
      },
    });
    return { result, saved, transactions };
  }

  it('on a dry run checks saved values and saves nothing', async () => {
    const { result, saved, transactions } = run(parsedOf('name,code\nAnna,1\nBen,2\n'), true, ['2']);
    expect(await result).toEqual({
      dryRun: true,
      rows: 2,
      created: 0,
      problems: [{ line: 3, field: 'code', code: 'codeTaken' }],
      preview: [
        { line: 2, values: { name: 'Anna', code: '1' } },
        { line: 3, values: { name: 'Ben', code: '2' } },
      ],
    });
    expect(saved).toEqual([]);
    expect(transactions).toEqual([]);
  });

  it('saves every row in one transaction when nothing is wrong', async () => {
    const { result, saved, transactions } = run(parsedOf('name,code\nAnna,1\nBen\n'), false);
    expect(await result).toMatchObject({ dryRun: false, rows: 2, created: 2, problems: [] });
    expect(saved).toEqual([
      [
        { name: 'Anna', code: '1' },
        { name: 'Ben', code: null },
      ],
    ]);
    expect(transactions).toEqual(['tx']);
  });

  it('refuses the whole file with its problems as details, in the order of the lines', async () => {
    const taken = run(parsedOf('name,code\nAnna,1\nBen,2\n'), false, ['2', '1']);
    const error = await taken.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation.failed');
    expect((error as AppError).details).toEqual([
      { field: 'rows.2.code', code: 'codeTaken' },
      { field: 'rows.3.code', code: 'codeTaken' },
    ]);
    expect(taken.saved).toEqual([]);

    const bad = run(parsedOf('name,colour\nA,b\n'), false);
    const refused = (await bad.result.catch((e: unknown) => e)) as AppError;
    expect(refused.details).toEqual([{ field: 'file', code: 'csvUnknownColumn', params: { column: 'colour' } }]);
    expect(bad.transactions).toEqual([]);
  });
});

describe('csvExportRows', () => {
  it('writes the header, then every row page by page, defusing formulas', async () => {
    const all = Array.from({ length: 501 }, (_, i) => ({
      id: `id${i}`,
      sortKey: `k${i}`,
      name: i === 0 ? '=1+1' : `n${i}`,
    }));
    const asked: ({ key: string; id: string } | undefined)[] = [];
    const rows: string[][] = [];
    const page = async (after: { key: string; id: string } | undefined, limit: number) => {
      asked.push(after);
      const from = after ? all.findIndex((r) => r.id === after.id) + 1 : 0;
      return all.slice(from, from + limit);
    };
    for await (const row of csvExportRows(['name'], page, (r) => ({ name: r.name }))) rows.push(row);
    expect(rows).toHaveLength(502);
    expect(rows.slice(0, 3)).toEqual([['name'], ["'=1+1"], ['n1']]);
    expect(rows.at(-1)).toEqual(['n500']);
    expect(asked).toEqual([undefined, { key: 'k499', id: 'id499' }]);
  });
});
