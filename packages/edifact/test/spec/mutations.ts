/**
 * The project's D96A / D01B fixtures (EANCOM, good and broken) and random mutations of their values and structure, shared by the property tests that
 * compare a fast path of the specification level with its plain path.
 */
import fc from 'fast-check';
import type { Message } from '../../src/model.ts';
import { parse } from '../../src/parser.ts';
import { readFixture } from '../helpers.ts';

export const SAMPLES = [
  'invoic-d01b.edi',
  'orders-d96a-one-party.edi',
  'invoic-d96a.edi',
  'desadv-d01b.edi',
  'pricat-d96a.edi',
  'orders-d96a-batch.edi',
].map(readFixture);

export const messagesOf = (input: Uint8Array): Message[] =>
  parse(input).interchanges.flatMap((i) => [...i.messages, ...i.groups.flatMap((g) => g.messages)]);

/**
 * Runs `check` on each sample, then on 300 mutations of them: up to 8 inserted separators, letters, digits or
 * decimal marks, or a byte replaced by a `+`.
 */
export const checkSamplesAndMutations = (check: (input: Uint8Array) => void): void => {
  for (const source of SAMPLES) check(source);
  fc.assert(
    fc.property(
      fc.nat({ max: SAMPLES.length - 1 }),
      fc.array(fc.record({ at: fc.nat(), value: fc.constantFrom(0x2b, 0x3a, 0x41, 0x31, 0x2e, 0x2c, 0x2d, 0x20) }), {
        minLength: 1,
        maxLength: 8,
      }),
      (which, edits) => {
        const bytes = Array.from(SAMPLES[which] as Uint8Array);
        for (const e of edits)
          bytes.splice(e.at % (bytes.length + 1), e.value === 0x20 ? 1 : 0, e.value === 0x20 ? 0x2b : e.value);
        check(Uint8Array.from(bytes));
      },
    ),
    { numRuns: 300 },
  );
};
