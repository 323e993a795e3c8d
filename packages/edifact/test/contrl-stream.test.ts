/**
 * `buildContrlStream`: the CONTRL of a validation read as a stream is the one `buildContrl` makes of the whole
 * result, for every fixture and for the shapes the stream reads differently (groups, empty groups, several
 * interchanges, repeated references, messages past the per-message cap), with the directory levels and without.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildContrl, buildContrlStream } from '../src/contrl.ts';
import { createMemoryDirectoryProvider } from '../src/directory/types.ts';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import { createMapLevel } from '../src/map/map-level.ts';
import { loadGuides } from '../src/map/node/load-guides.ts';
import { createSpecificationLevel } from '../src/spec/specification.ts';
import { validate, validateStream } from '../src/validate.ts';
import { getTestDirectory } from './directory/helpers.ts';
import { listFixtures, readFixture } from './helpers.ts';

const date = new Date(Date.UTC(2026, 10, 28, 9, 30));
const UNB = "UNA:+.? 'UNB+UNOC:3+5901234000017:14+4012345000016:14+261128:0930+IC1'";
const ORDER = (ref: string, body = "BGM+220+PO1+9'DTM+137:20261128:102'") =>
  `UNH+${ref}+ORDERS:D:96A:UN:EAN008'${body}UNT+${body.split("'").length + 1}+${ref}'`;

const SHAPES: Record<string, string> = {
  'two groups, the second without messages':
    `${UNB}UNG+ORDERS+5901234000017+4012345000016+261128:0930+G1+UN+D:96A'${ORDER('1')}${ORDER('2', "BGM+220+PO2'")}` +
    "UNE+2+G1'UNG+ORDERS+5901234000017+4012345000016+261128:0930+G2+UN+D:96A'UNE+0+G2'UNZ+2+IC1'",
  'a group with errors and a clean one':
    `${UNB}UNG+ORDERS+A+B+261128:0930+G1+UN+D:96A'${ORDER('1', "XXX'")}UNE+1+G1'` +
    `UNG+ORDERS+A+B+261128:0930+G2+UN+D:96A'${ORDER('2')}UNE+1+G2'UNZ+2+IC1'`,
  'a group left open': `${UNB}UNG+ORDERS+A+B+261128:0930+G1+UN+D:96A'${ORDER('1')}UNZ+1+IC1'`,
  'two interchanges (the second is not answered)': `${UNB}${ORDER('1')}UNZ+1+IC1'${UNB.replace('IC1', 'IC2')}${ORDER('1', "BGM+220'")}UNZ+1+IC2'`,
  'repeated references': `${UNB}${ORDER('1')}${ORDER('1', "XXX'")}${ORDER('1')}UNZ+3+IC1'`,
  'no UNZ': `${UNB}${ORDER('1')}`,
  'a bad UNZ count': `${UNB}${ORDER('1')}UNZ+7+IC1'`,
  'no interchange at all': "UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'UNT+3+1'",
  'empty input': '',
  'many findings in one message': `${UNB}${ORDER('1', "BGM+220+PO1+9'" + "ZZZ+1'".repeat(1500))}UNZ+1+IC1'`,
};

let levels: ValidationLevelPlugin[];
beforeAll(async () => {
  const directories = createMemoryDirectoryProvider([await getTestDirectory('D96A'), await getTestDirectory('D01B')]);
  levels = [createSpecificationLevel({ directories }), createMapLevel({ guides: await loadGuides(), directories })];
});

const both = async (input: Uint8Array | string, withLevels: boolean) => {
  const options = withLevels ? { levels } : {};
  const whole = buildContrl(await validate(input, options), { date, lineBreak: '\n' });
  // In small chunks, so that messages and groups end in other chunks than they start.
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const chunks = Array.from({ length: Math.ceil(bytes.length / 97) }, (_, i) => bytes.subarray(i * 97, i * 97 + 97));
  const streamed = await buildContrlStream(validateStream(chunks, options), { date, lineBreak: '\n' });
  return { whole, streamed };
};

describe('buildContrlStream', () => {
  for (const withLevels of [false, true]) {
    const label = withLevels ? 'with the directory and guide levels' : 'syntax only';
    it.each(listFixtures())(`answers fixture %s as buildContrl does (${label})`, async (name) => {
      const { whole, streamed } = await both(readFixture(name), withLevels);
      expect(streamed).toBe(whole);
    });
    it.each(Object.keys(SHAPES))(`answers %s as buildContrl does (${label})`, async (shape) => {
      const { whole, streamed } = await both(SHAPES[shape]!, withLevels);
      expect(streamed).toBe(whole);
    });
  }

  it('answers each group with UCF and each message with UCM in order, counted in UNT', async () => {
    // Message 1's UNT miscounts its segments (a syntax error); message 2 is clean.
    const input =
      `${UNB}UNG+ORDERS+A+B+261128:0930+G1+UN+D:96A'UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'UNT+9+1'UNE+1+G1'` +
      "UNG+ORDERS+A+B+261128:0930+G2+UN+D:96A'UNH+2+ORDERS:D:96A:UN'BGM+220+2+9'UNT+3+2'UNE+1+G2'UNZ+2+IC1'";
    const { whole, streamed } = await both(input, false);
    expect(streamed).toBe(whole);
    const segments = streamed.trim().split('\n');
    const tags = segments.map((s) => s.slice(0, 3));
    expect(tags.filter((t) => ['UCF', 'UCM'].includes(t))).toEqual(['UCF', 'UCM', 'UCF', 'UCM']);
    expect(segments.filter((s) => s.startsWith('UCF'))).toEqual(["UCF+G1+++4'", "UCF+G2+++7'"]);
    const unt = segments.find((s) => s.startsWith('UNT'))!;
    const counted = segments.slice(tags.indexOf('UNH'), tags.indexOf('UNT') + 1).length;
    expect(unt).toBe(`UNT+${counted}+1'`);
  });
});
