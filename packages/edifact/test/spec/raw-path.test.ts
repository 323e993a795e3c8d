/**
 * The specification level reads the tokenizer's segments straight from their text (RawSegment.raw). This checks
 * that it finds exactly what the element arrays give, on real D96A / D01B messages and random mutations of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Directory } from '../../src/directory/types.ts';
import type { Message, Segment } from '../../src/model.ts';
import { parse } from '../../src/parser.ts';
import { RawSegment } from '../../src/segment.ts';
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

/** The same message with every segment as a plain object (elements split eagerly). */
const plain = (message: Message): Message => {
  const copy = (s: Segment): Segment => ({
    tag: s.tag,
    elements: s.elements,
    position: s.position,
    length: s.length,
    index: s.index,
  });
  return { ...message, segments: message.segments.map(copy), header: copy(message.header) };
};

const messagesOf = (input: Uint8Array): Message[] =>
  parse(input).interchanges.flatMap((i) => [...i.messages, ...i.groups.flatMap((g) => g.messages)]);

describe('specification level on raw segments', () => {
  it('finds the same as on element arrays', { timeout: 60_000 }, async () => {
    const directories: Record<string, Directory> = {
      D96A: await getTestDirectory('D96A'),
      D01B: await getTestDirectory('D01B'),
    };
    let found = 0;
    const check = (input: Uint8Array): number => {
      let raw = 0;
      for (const message of messagesOf(input)) {
        for (const s of message.segments) if (s instanceof RawSegment && s.raw !== undefined) raw++;
        const directory = directories[message.directory.toUpperCase()];
        const options = { decimal: '.', syntaxVersion: 3 };
        const expected = validateSpecification(plain(message), directory, options);
        found += expected.length;
        // A fresh parse: `plain` has split the segments of this one.
        expect(validateSpecification(message, directory, options)).toEqual(expected);
      }
      return raw;
    };
    let raw = 0;
    for (const source of SOURCES) raw += check(source);
    expect(raw).toBeGreaterThan(0);
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
