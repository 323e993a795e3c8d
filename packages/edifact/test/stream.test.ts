import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseStream } from '../src/parser.ts';
import type { Message } from '../src/model.ts';
import { listFixtures, parseChunks, readFixture, splitAt } from './helpers.ts';

// UNA and none, one line and CR LF, three messages, and broken envelopes, separators and terminators.
const SMALL = [
  'orders-d96a.edi',
  'orders-d96a-crlf.edi',
  'orders-d96a-batch.edi',
  'invoic-d96a-missing-unh.edi',
  'recadv-d01b-bad-una.edi',
  'pricat-d96a-missing-terminator.edi',
  'aperak-d01b-missing-unz.edi',
];

describe('chunk-split invariance', () => {
  it.each(SMALL)('every single split point of %s gives the same result', { timeout: 60_000 }, (name) => {
    const bytes = readFixture(name);
    const whole = parse(bytes);
    for (let p = 0; p <= bytes.length; p++) {
      expect(parseChunks(splitAt(bytes, [p])), `split at ${p}`).toEqual(whole);
    }
  });

  it('random splits of every fixture give the same result', { timeout: 120_000 }, () => {
    for (const name of listFixtures()) {
      const bytes = readFixture(name);
      const whole = parse(bytes);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), (points) => {
          expect(parseChunks(splitAt(bytes, points))).toEqual(whole);
        }),
        { numRuns: 8 },
      );
    }
  });

  it('one byte at a time equals one piece', () => {
    const bytes = readFixture('orders-d96a-batch.edi');
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i++) pieces.push(bytes.subarray(i, i + 1));
    expect(parseChunks(pieces)).toEqual(parse(bytes));
  });

  it('text input gives the same segments as bytes for ASCII', () => {
    const bytes = readFixture('invoic-d96a.edi');
    expect(parse(new TextDecoder().decode(bytes))).toEqual(parse(bytes));
  });

  it('parseStream yields every message once, without retaining them', async () => {
    const bytes = readFixture('orders-d96a-batch.edi');
    const messages: Message[] = [];
    const chunks = splitAt(bytes, [100, 700, 1100]);
    for await (const event of parseStream(chunks)) {
      if (event.type === 'message') messages.push(event.message);
      if (event.type === 'interchange') expect(event.interchange.messages).toEqual([]);
    }
    expect(messages.map((m) => m.reference)).toEqual(['1', '2', '3']);
    expect(messages.map((m) => m.reference)).toEqual(
      parse(bytes).interchanges.flatMap((i) => i.messages.map((m) => m.reference)),
    );
  });
});
