import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from '../src/parser.ts';
import { validateSync } from '../src/validate.ts';
import { lineColumnAt, readFixture } from './helpers.ts';

// UNA and none, CR LF, three messages, broken envelopes and separators.
const SOURCES = [
  'orders-d96a-crlf.edi',
  'orders-d96a-batch.edi',
  'invoic-d01b.edi',
  'recadv-d01b-bad-una.edi',
  'pricat-d96a-missing-terminator.edi',
].map(readFixture);

const SERVICE = [0x27, 0x2b, 0x3a, 0x3f, 0x2a, 0x0a, 0x0d, 0xef, 0xff, 0x00, 0x1c, 0x1d];

type Mutation = { kind: 'flip' | 'delete' | 'insert' | 'separator'; at: number; value: number; length: number };

const mutation = fc.record({
  kind: fc.constantFrom<Mutation['kind']>('flip', 'delete', 'insert', 'separator'),
  at: fc.nat(),
  value: fc.nat({ max: 255 }),
  length: fc.integer({ min: 1, max: 20 }),
});

const mutate = (source: Uint8Array, mutations: Mutation[]): Uint8Array => {
  let bytes = Array.from(source);
  for (const m of mutations) {
    const at = bytes.length === 0 ? 0 : m.at % (bytes.length + 1);
    if (m.kind === 'flip' && at < bytes.length) bytes[at] = m.value;
    else if (m.kind === 'delete') bytes.splice(at, m.length);
    else if (m.kind === 'insert') bytes.splice(at, 0, m.value);
    else bytes.splice(at, 0, SERVICE[m.value % SERVICE.length] as number);
  }
  bytes = bytes.slice(0, 200_000);
  return Uint8Array.from(bytes);
};

describe('random mutations of real messages', () => {
  it('never throw, always finish, and every finding points inside the input', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(
        fc.nat({ max: SOURCES.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 12 }),
        (which, mutations) => {
          const input = mutate(SOURCES[which] as Uint8Array, mutations);
          const { findings } = parse(input);
          for (const f of findings) {
            expect(f.offset).toBeGreaterThanOrEqual(0);
            expect(f.offset).toBeLessThanOrEqual(input.length);
            if (input.length > 0) expect(f.offset).toBeLessThan(input.length);
            expect(lineColumnAt(input, f.offset)).toEqual({ line: f.line, column: f.column });
            expect(typeof f.code).toBe('string');
          }
          const result = validateSync(input, { strict: true });
          expect(result.findings.length).toBeGreaterThanOrEqual(findings.length);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('arbitrary bytes and text never throw', { timeout: 30_000 }, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(() => parse(bytes)).not.toThrow();
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(() => parse(text)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
