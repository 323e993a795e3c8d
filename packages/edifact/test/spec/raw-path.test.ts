/**
 * The specification level reads the tokenizer's segments straight from their text (RawSegment.raw). This checks
 * that it finds exactly what the element arrays give, on real D96A / D01B messages and random mutations of them.
 */
import { describe, expect, it } from 'vitest';
import type { Directory } from '../../src/directory/types.ts';
import type { Message, Segment } from '../../src/model.ts';
import { RawSegment } from '../../src/segment.ts';
import { validateSpecification } from '../../src/spec/specification.ts';
import { getTestDirectory } from '../directory/helpers.ts';
import { checkSamplesAndMutations, messagesOf, SAMPLES } from './mutations.ts';

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

describe('specification level on raw segments', () => {
  it('finds the same as on element arrays', { timeout: 60_000 }, async () => {
    const directories: Record<string, Directory> = {
      D96A: await getTestDirectory('D96A'),
      D01B: await getTestDirectory('D01B'),
    };
    let found = 0;
    const check = (input: Uint8Array): void => {
      for (const message of messagesOf(input)) {
        const directory = directories[message.directory.toUpperCase()];
        const options = { decimal: '.', syntaxVersion: 3 };
        const expected = validateSpecification(plain(message), directory, options);
        found += expected.length;
        // A fresh parse: `plain` has split the segments of this one.
        expect(validateSpecification(message, directory, options)).toEqual(expected);
      }
    };
    // The samples do take the raw path.
    let raw = 0;
    for (const message of SAMPLES.flatMap(messagesOf)) {
      for (const s of message.segments) if (s instanceof RawSegment && s.raw !== undefined) raw++;
    }
    expect(raw).toBeGreaterThan(0);
    checkSamplesAndMutations(check);
    expect(found).toBeGreaterThan(100);
  });
});
