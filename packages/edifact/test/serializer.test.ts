import { describe, expect, it } from 'vitest';
import { parse } from '../src/parser.ts';
import { serializeInterchange, serializeInterchangeBytes } from '../src/serializer.ts';
import type { Interchange, Segment } from '../src/model.ts';
import { listFixtures, readFixture } from './helpers.ts';

const latin1 = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join('');

/** The line break a sample puts after every terminator, or undefined when it mixes them. */
const lineBreakOf = (text: string, terminator: string): string | undefined => {
  const breaks = new Set<string>();
  const re = new RegExp(`\\${terminator}(\\r\\n|\\n|\\r|)(?=[A-Z]{3})`, 'g');
  for (const m of text.matchAll(re)) breaks.add(m[1] ?? '');
  return breaks.size === 1 ? [...breaks][0] : undefined;
};

const segmentsOf = (i: Interchange): Segment[] => {
  const out: Segment[] = [];
  for (const g of i.groups) for (const m of g.messages) out.push(...m.segments);
  for (const m of i.messages) out.push(...m.segments);
  return out;
};

describe('round trip', () => {
  // Findings that leave the data intact: lenient whitespace/BOM, characters outside the declared repertoire.
  const WELL_FORMED_CODES = new Set([
    'EDI_WHITESPACE_BETWEEN_SEGMENTS',
    'EDI_BYTE_ORDER_MARK',
    'EDI_INVALID_CHARACTER',
  ]);
  const envelopeOnly = (code: string): boolean =>
    /_(COUNT|REFERENCE)_MISMATCH$|^EDI_UNSUPPORTED_SYNTAX$|^EDI_MISSING_UNZ$/.test(code);

  it('parse then serialize gives the same bytes for every well-formed fixture', { timeout: 30_000 }, () => {
    let checked = 0;
    for (const name of listFixtures()) {
      let bytes = readFixture(name);
      const { interchanges, findings } = parse(bytes);
      // Well-formed: only lenient whitespace/BOM findings or wrong control values (which are kept as data).
      if (findings.some((f) => !WELL_FORMED_CODES.has(f.code) && !envelopeOnly(f.code))) continue;
      if (interchanges.some((i) => !i.header)) continue;
      if (bytes[0] === 0xef) bytes = bytes.subarray(3);
      const text = latin1(bytes).replace(/\s+$/, '');
      const lineBreak = lineBreakOf(text, interchanges[0]?.delimiters.segment ?? "'");
      if (lineBreak === undefined || /^\s/.test(text) || /[\r\n]\s+[A-Z]{3}/.test(text)) continue;
      const out = latin1(
        Uint8Array.from(interchanges.flatMap((i) => Array.from(serializeInterchangeBytes(i, { lineBreak })))),
      ).replace(/\s+$/, '');
      expect(out, name).toBe(text);
      checked++;
    }
    // Every fixture but the four whose envelope or separators are broken (no UNH, no UNZ, bad UNA, a lost terminator).
    expect(checked).toBeGreaterThanOrEqual(28);
  });

  it('serialize then parse gives the same segments for every fixture', { timeout: 30_000 }, () => {
    for (const name of listFixtures()) {
      const { interchanges } = parse(readFixture(name));
      for (const i of interchanges) {
        if (!i.header) continue;
        const again = parse(serializeInterchange(i)).interchanges[0];
        expect(again && segmentsOf(again).map((s) => [s.tag, s.elements]), name).toEqual(
          segmentsOf(i).map((s) => [s.tag, s.elements]),
        );
      }
    }
  });

  it('escapes service characters with the release character', () => {
    const input = "UNB+UNOC:3+S+R+240101:1200+R1'UNH+1+ORDERS:D:96A:UN'FTX+AAA+++10?+10=20 ?:?' ??'UNT+3+1'UNZ+1+R1'";
    const { interchanges } = parse(input);
    expect(interchanges[0]?.messages[0]?.segments[1]?.elements[3]?.components[0]).toBe("10+10=20 :' ?");
    expect(serializeInterchange(interchanges[0] as Interchange)).toBe(input);
  });
});
