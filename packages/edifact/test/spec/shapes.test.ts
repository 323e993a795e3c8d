/**
 * The specification level skips the segment-table walk for a message whose tag sequence it has walked before
 * without finding anything (MessageShape). This checks that it finds exactly what a first walk finds, on real
 * D96A / D01B messages and random mutations of their values and structure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Directory } from '../../src/directory/types.ts';
import type { Message } from '../../src/model.ts';
import { parse } from '../../src/parser.ts';
import { validateSpecification } from '../../src/spec/specification.ts';
import { getTestDirectory } from '../directory/helpers.ts';
import { readSample } from '../helpers.ts';

const SOURCES = [
  'hupe1980_edifact-rs__d01b_invoic_conforming.edi',
  'hupe1980_edifact-rs__d96a_orders_malformed.edi',
  'EdiFabric_EDIFACT.NET__Invoice.txt',
  'bots-edi_bots-plugins__invoic1.edi',
  'SYN_INVRPT_D96A_EAN008_valid.edi',
].map(readSample);

const messagesOf = (input: Uint8Array): Message[] =>
  parse(input).interchanges.flatMap((i) => [...i.messages, ...i.groups.flatMap((g) => g.messages)]);

describe('specification level on known message shapes', () => {
  it('finds the same as a first walk', { timeout: 60_000 }, async () => {
    // `warm` keeps its compiled tables (and shapes) across checks; a copy of a directory has fresh ones.
    const warm: Record<string, Directory> = {
      D96A: await getTestDirectory('D96A'),
      D01B: await getTestDirectory('D01B'),
    };
    const options = { decimal: '.', syntaxVersion: 3 };
    let found = 0;
    const check = (input: Uint8Array): void => {
      for (const message of messagesOf(input)) {
        const directory = warm[message.directory.toUpperCase()];
        const fresh = directory ? { ...directory } : undefined;
        const expected = validateSpecification(message, fresh, options);
        found += expected.length;
        // Twice: the first may record the shape, the second uses it.
        expect(validateSpecification(message, directory, options)).toEqual(expected);
        expect(validateSpecification(message, directory, options)).toEqual(expected);
      }
    };
    for (const source of SOURCES) check(source);
    fc.assert(
      fc.property(
        fc.nat({ max: SOURCES.length - 1 }),
        fc.array(fc.record({ at: fc.nat(), value: fc.constantFrom(0x2b, 0x3a, 0x41, 0x31, 0x2e, 0x2c, 0x2d, 0x20) }), {
          minLength: 1,
          maxLength: 8,
        }),
        (which, edits) => {
          const bytes = Array.from(SOURCES[which] as Uint8Array);
          for (const e of edits)
            bytes.splice(e.at % (bytes.length + 1), e.value === 0x20 ? 1 : 0, e.value === 0x20 ? 0x2b : e.value);
          check(Uint8Array.from(bytes));
        },
      ),
      { numRuns: 300 },
    );
    expect(found).toBeGreaterThan(100);
  });
});
