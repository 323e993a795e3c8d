/**
 * Conformance: the engine's invariants over the third-party sample corpus beside the clone
 * (`../shared/samples/edifact`, 100-odd files from other EDIFACT projects, never copied here). Skipped when it is not
 * there. The same invariants run on the project's own fixtures in every `npm test`: chunk splits (stream.test.ts,
 * segment.test.ts), round trips (serializer.test.ts), the screen (screen.test.ts), the parallel mode
 * (parallel.test.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryDirectoryProvider, type DirectoryProvider } from '../src/directory/types.ts';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import { createMapLevel } from '../src/map/map-level.ts';
import { loadGuides } from '../src/map/node/load-guides.ts';
import type { Interchange, Segment } from '../src/model.ts';
import { ParallelValidator } from '../src/parallel/node/parallel.ts';
import { parse } from '../src/parser.ts';
import { ScreenedMessage } from '../src/screen.ts';
import { RawSegment } from '../src/segment.ts';
import { serializeInterchange, serializeInterchangeBytes } from '../src/serializer.ts';
import { createSpecificationLevel } from '../src/spec/specification.ts';
import { tokenize, Tokenizer } from '../src/tokenizer.ts';
import { validate, validateSync, type ValidationResult } from '../src/validate.ts';
import { getTestDirectory, getTestStore } from './directory/helpers.ts';
import { hasSamples, listSamples, parseChunks, readSample, splitAt } from './helpers.ts';

const latin1 = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join('');

const segmentsOf = (i: Interchange): Segment[] => [
  ...i.groups.flatMap((g) => g.messages.flatMap((m) => m.segments)),
  ...i.messages.flatMap((m) => m.segments),
];

/** A result as plain data: screened messages with their segments built. */
const plain = (result: Omit<ValidationResult, 'interchanges'> & { interchanges?: Interchange[] }): unknown =>
  JSON.parse(
    JSON.stringify(result, (_key, value: unknown) =>
      value instanceof ScreenedMessage ? { ...value, segments: value.segments } : value,
    ),
  );

describe.skipIf(!hasSamples)('the sample corpus', () => {
  it('random chunk splits of every sample give the same parse', { timeout: 120_000 }, () => {
    for (const name of listSamples()) {
      const bytes = readSample(name);
      if (bytes.length > 200_000) continue;
      const whole = parse(bytes);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), (points) => {
          expect(parseChunks(splitAt(bytes, points))).toEqual(whole);
        }),
        { numRuns: 8 },
      );
    }
  });

  it('random chunk splits give the same segment contents and positions', { timeout: 120_000 }, () => {
    let raw = 0;
    for (const name of listSamples()) {
      const bytes = readSample(name);
      if (bytes.length > 200_000) continue;
      const whole = tokenize(bytes).segments;
      raw += whole.filter((s) => s instanceof RawSegment).length;
      const expected: unknown = JSON.parse(JSON.stringify(whole));
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 20 }), (points) => {
          const segments: Segment[] = [];
          const tokenizer = new Tokenizer({ segment: (s) => void segments.push(s), finding: () => undefined });
          for (const c of splitAt(bytes, points)) tokenizer.write(c);
          tokenizer.end();
          expect(JSON.parse(JSON.stringify(segments))).toEqual(expected);
        }),
        { numRuns: 4 },
      );
    }
    expect(raw).toBeGreaterThan(100);
  });

  it('parse then serialize gives the same bytes for every well-formed sample', { timeout: 30_000 }, () => {
    const lenient = new Set(['EDI_WHITESPACE_BETWEEN_SEGMENTS', 'EDI_BYTE_ORDER_MARK', 'EDI_INVALID_CHARACTER']);
    const envelopeOnly = (code: string): boolean =>
      /_(COUNT|REFERENCE)_MISMATCH$|^EDI_UNSUPPORTED_SYNTAX$|^EDI_MISSING_UNZ$/.test(code);
    let checked = 0;
    for (const name of listSamples()) {
      let bytes = readSample(name);
      const { interchanges, findings } = parse(bytes);
      if (findings.some((f) => !lenient.has(f.code) && !envelopeOnly(f.code))) continue;
      if (interchanges.some((i) => !i.header)) continue;
      if (bytes[0] === 0xef) bytes = bytes.subarray(3);
      const text = latin1(bytes).replace(/\s+$/, '');
      const terminator = interchanges[0]?.delimiters.segment ?? "'";
      const breaks = new Set(
        [...text.matchAll(new RegExp(`\\${terminator}(\\r\\n|\\n|\\r|)(?=[A-Z]{3})`, 'g'))].map((m) => m[1] ?? ''),
      );
      const lineBreak = breaks.size === 1 ? [...breaks][0] : undefined;
      if (lineBreak === undefined || /^\s/.test(text) || /[\r\n]\s+[A-Z]{3}/.test(text)) continue;
      const out = latin1(
        Uint8Array.from(interchanges.flatMap((i) => Array.from(serializeInterchangeBytes(i, { lineBreak })))),
      ).replace(/\s+$/, '');
      expect(out, name).toBe(text);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('serialize then parse gives the same segments for every sample', { timeout: 30_000 }, () => {
    for (const name of listSamples()) {
      for (const i of parse(readSample(name)).interchanges) {
        if (!i.header) continue;
        const again = parse(serializeInterchange(i)).interchanges[0];
        expect(again && segmentsOf(again).map((s) => [s.tag, s.elements]), name).toEqual(
          segmentsOf(i).map((s) => [s.tag, s.elements]),
        );
      }
    }
  });

  describe.each(['specification', 'specification and map'])('the screen, %s', (which) => {
    let levels: ValidationLevelPlugin[];
    beforeAll(async () => {
      const directories: DirectoryProvider = createMemoryDirectoryProvider([
        await getTestDirectory('D96A'),
        await getTestDirectory('D01B'),
      ]);
      const spec = createSpecificationLevel({ directories });
      levels = which === 'specification' ? [spec] : [spec, createMapLevel({ guides: await loadGuides(), directories })];
    });

    it('gives the plain path’s result on every sample, as bytes and as text', { timeout: 120_000 }, () => {
      for (const name of listSamples()) {
        const bytes = readSample(name);
        const inputs: (Uint8Array | string)[] =
          bytes.length > 1024 * 1024 ? [bytes] : [bytes, Buffer.from(bytes).toString('latin1')];
        for (const input of inputs) {
          const expected = validateSync(input, { levels, screen: false });
          validateSync(input, { levels }); // teaches the levels the message shapes
          expect(plain(validateSync(input, { levels })), name).toEqual(plain(expected));
        }
      }
    });
  });

  describe('the parallel mode', () => {
    let parallel: ParallelValidator | undefined;
    let levels: ValidationLevelPlugin[];
    beforeAll(async () => {
      const store = await getTestStore();
      parallel = new ParallelValidator({ store: store.path, workers: 3, minPartSize: 2000 });
      levels = [createSpecificationLevel({ directories: store })];
    });
    afterAll(async () => {
      await parallel?.close();
    });

    it('finds what validate() finds on every sample', { timeout: 120_000 }, async () => {
      for (const name of listSamples()) {
        const bytes = readSample(name);
        if (bytes.length > 300_000) continue;
        const { parts: _parts, ...result } = await (parallel as ParallelValidator).validate(bytes);
        const { interchanges: _interchanges, ...expected } = await validate(bytes, { levels });
        expect(result, name).toEqual(expected);
      }
    });
  });
});
