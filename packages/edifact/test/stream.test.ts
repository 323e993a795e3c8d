import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Parser, parse, parseStream, type ParseResult } from '../src/parser.ts';
import { compareFindings } from '../src/findings.ts';
import type { Finding, Interchange, Message } from '../src/model.ts';
import { listSamples, readSample, splitAt } from './helpers.ts';

/** Parses the input fed in the given pieces. */
const parseChunks = (chunks: Uint8Array[]): ParseResult => {
  const interchanges: Interchange[] = [];
  const findings: Finding[] = [];
  const parser = new Parser({
    message: (_m, _i, f) => findings.push(...f),
    interchange: (i) => interchanges.push(i),
    finding: (f) => findings.push(f),
  });
  for (const c of chunks) parser.write(c);
  parser.end();
  findings.sort(compareFindings);
  return { interchanges, findings };
};

const SMALL = [
  'Chemaclass_edifact-parser__edifact-sample.edi',
  'ConnectingEurope_eInvoicing-EN16931__EDIFACT_EXAMPLE5.TXT',
  'EdiFabric_EDIFACT.NET__DespatchAdvice.txt',
  'bots-edi_bots-plugins__0T0000000004.edi',
  'php-edifact_edifact__example_utf8.edi',
  'smooks_smooks-edi-cartridge__1_unedifact-msg-02.edi',
];

describe('chunk-split invariance', () => {
  it.each(SMALL)('every single split point of %s gives the same result', { timeout: 60_000 }, (name) => {
    const bytes = readSample(name);
    const whole = parse(bytes);
    for (let p = 0; p <= bytes.length; p++) {
      expect(parseChunks(splitAt(bytes, [p])), `split at ${p}`).toEqual(whole);
    }
  });

  it('random splits of every sample give the same result', { timeout: 120_000 }, () => {
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

  it('one byte at a time equals one piece', () => {
    const bytes = readSample('bots-edi_bots-plugins__1_1.edi');
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i++) pieces.push(bytes.subarray(i, i + 1));
    expect(parseChunks(pieces)).toEqual(parse(bytes));
  });

  it('text input gives the same segments as bytes for ASCII', () => {
    const bytes = readSample('bots-edi_bots-plugins__4_1.edi');
    expect(parse(new TextDecoder().decode(bytes))).toEqual(parse(bytes));
  });

  it('parseStream yields every message once, without retaining them', async () => {
    const bytes = readSample('bots-edi_bots-plugins__1_orders02.edi');
    const messages: Message[] = [];
    const chunks = splitAt(bytes, [100, 1000, 5000]);
    for await (const event of parseStream(chunks)) {
      if (event.type === 'message') messages.push(event.message);
      if (event.type === 'interchange') expect(event.interchange.messages).toEqual([]);
    }
    expect(messages.map((m) => m.reference)).toEqual(
      parse(bytes).interchanges.flatMap((i) => i.messages.map((m) => m.reference)),
    );
  });
});
