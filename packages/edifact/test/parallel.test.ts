/**
 * The parallel mode finds exactly what `validate` finds with the same levels: on generated D96A interchanges cut
 * into parts, on mutations of them (which may also make the plan fall back to one worker) and on the fixtures.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interchangeChunks } from '../bench/generate.ts';
import { createSpecificationLevel } from '../src/spec/specification.ts';
import { validate } from '../src/validate.ts';
import { ParallelValidator } from '../src/parallel/node/parallel.ts';
import { planParts } from '../src/parallel/node/plan.ts';
import { getTestStore } from './directory/helpers.ts';
import { listFixtures, readFixture } from './helpers.ts';

let parallel: ParallelValidator;
let sequential: (input: Uint8Array) => Promise<unknown>;

beforeAll(async () => {
  const store = await getTestStore();
  parallel = new ParallelValidator({ store: store.path, workers: 3, minPartSize: 2000 });
  const levels = [createSpecificationLevel({ directories: store })];
  sequential = async (input) => {
    const { interchanges: _interchanges, ...rest } = await validate(input, { levels });
    return rest;
  };
});

afterAll(async () => {
  await parallel.close();
});

const generated = (size: number): Uint8Array => Buffer.from([...interchangeChunks(size, 4096)].join(''), 'latin1');

const same = async (input: Uint8Array): Promise<number> => {
  const { parts, ...result } = await parallel.validate(input);
  expect(result).toEqual(await sequential(input));
  return parts;
};

describe('parallel mode', () => {
  it('cuts a plain interchange at message boundaries and finds the same', { timeout: 60_000 }, async () => {
    const input = generated(60_000);
    expect(planParts(input, 3, 2000)?.length).toBe(3);
    expect(await same(input)).toBe(3);
  });

  it(
    'finds the same on line breaks, duplicate references, a missing UNT and wrong counts',
    { timeout: 60_000 },
    async () => {
      let text = Buffer.from(generated(60_000)).toString('latin1');
      text = text.replaceAll("'UNH+", "'\r\nUNH+").replace('UNZ+', 'UNZ+9');
      // The same reference in every part, and one message without UNT.
      text = text.replaceAll('M000000007', 'M000000003').replaceAll('M000000031', 'M000000003');
      text = text.replace(/UNT\+\d+\+M000000020'/, '');
      const input = Buffer.from(text, 'latin1');
      const result = await parallel.validate(input);
      expect(result.findings.map((f) => f.code)).toEqual(
        expect.arrayContaining([
          'EDI_DUPLICATE_MESSAGE_REFERENCE',
          'EDI_MISSING_UNT',
          'EDI_UNZ_COUNT_MISMATCH',
          'EDI_WHITESPACE_BETWEEN_SEGMENTS',
        ]),
      );
      expect(await same(input)).toBeGreaterThan(1);
    },
  );

  it('finds the same on mutated interchanges', { timeout: 120_000 }, async () => {
    const base = Array.from(generated(30_000));
    let split = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ at: fc.nat(), value: fc.constantFrom(0x2b, 0x3a, 0x27, 0x3f, 0x0a, 0x41, 0x31, 0x2e, 0x20) }),
          { minLength: 1, maxLength: 6 },
        ),
        async (edits) => {
          const bytes = [...base];
          for (const e of edits)
            bytes.splice(e.at % (bytes.length + 1), e.value === 0x20 ? 1 : 0, e.value === 0x20 ? 0x2b : e.value);
          if ((await same(Uint8Array.from(bytes))) > 1) split++;
        },
      ),
      { numRuns: 40 },
    );
    expect(split).toBeGreaterThan(10);
  });

  it('finds the same on the fixtures (most are read by one worker)', { timeout: 120_000 }, async () => {
    for (const name of listFixtures()) await same(readFixture(name));
  });
});
