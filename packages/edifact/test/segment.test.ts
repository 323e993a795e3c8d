/**
 * RawSegment keeps the tokenizer's text privately (equality of segments ignores it): these check through the
 * plain shape (`toJSON`) that segment contents do not depend on how the input was chunked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../src/model.ts';
import { tokenize, Tokenizer } from '../src/tokenizer.ts';
import { RawSegment } from '../src/segment.ts';
import { listFixtures, readFixture, splitAt } from './helpers.ts';

const tokenizeChunks = (chunks: Uint8Array[]): Segment[] => {
  const segments: Segment[] = [];
  const tokenizer = new Tokenizer({ segment: (s) => void segments.push(s), finding: () => undefined });
  for (const c of chunks) tokenizer.write(c);
  tokenizer.end();
  return segments;
};

const plain = (segments: Segment[]): unknown => JSON.parse(JSON.stringify(segments));

describe('RawSegment', () => {
  it('gives the same contents and positions for any chunk split', { timeout: 120_000 }, () => {
    let raw = 0;
    for (const name of listFixtures()) {
      const bytes = readFixture(name);
      const whole = tokenize(bytes).segments;
      raw += whole.filter((s) => s instanceof RawSegment).length;
      const expected = plain(whole);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 20 }), (points) => {
          expect(plain(tokenizeChunks(splitAt(bytes, points)))).toEqual(expected);
        }),
        { numRuns: 4 },
      );
    }
    expect(raw).toBeGreaterThan(100);
  });

  it('reads its data, position and elements from the text it was cut from', () => {
    const { segments } = tokenize("UNA:+.? 'UNB+UNOC:3+A+B+240101:1200+1'\nUNH+1+ORDERS:D:96A:UN'DTM+137:2024'UNS'");
    const dtm = segments.find((s) => s.tag === 'DTM') as RawSegment;
    expect(dtm).toBeInstanceOf(RawSegment);
    expect(dtm.raw).toBe('+137:2024');
    expect(dtm.text?.slice(dtm.from, dtm.to)).toBe('+137:2024');
    expect(dtm.position).toEqual({ line: 2, column: 23, offset: 61 });
    expect(dtm.elements).toEqual([{ components: ['137', '2024'] }]);
    const uns = segments.find((s) => s.tag === 'UNS') as RawSegment;
    expect(uns.raw).toBe('');
    expect(uns.elements).toEqual([]);
    dtm.elements = [{ components: ['2'] }];
    expect(dtm.raw).toBeUndefined();
    expect(dtm.toJSON().elements).toEqual([{ components: ['2'] }]);
  });
});
