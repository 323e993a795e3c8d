/**
 * The screen (src/screen.ts) must change nothing but speed: the same findings, summaries and parse tree as the
 * plain path, on the project's fixtures, on random mutations of them, in any chunk split, and on clean traffic where it takes
 * nearly every message.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { message as benchMessage, interchangeChunks } from '../bench/generate.ts';
import { createMemoryDirectoryProvider, type Directory, type DirectoryProvider } from '../src/directory/types.ts';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import type { Interchange } from '../src/model.ts';
import { ScreenedMessage } from '../src/screen.ts';
import { compileSegment, type CompiledValue } from '../src/spec/compile.ts';
import { createSpecificationLevel } from '../src/spec/specification.ts';
import { createMapLevel } from '../src/map/map-level.ts';
import { loadGuides } from '../src/map/node/load-guides.ts';
import { indexGuides, type Guide, type GuideSegmentRule } from '../src/map/guide.ts';
import { validate, validateStream, validateSync, type ValidationResult } from '../src/validate.ts';
import { getTestDirectory } from './directory/helpers.ts';
import { listFixtures, readFixture, splitAt } from './helpers.ts';
import { checkSamplesAndMutations } from './spec/mutations.ts';

let directories: DirectoryProvider;
beforeAll(async () => {
  directories = createMemoryDirectoryProvider([await getTestDirectory('D96A'), await getTestDirectory('D01B')]);
});

/** The result as plain data: screened messages with their segments built, segments as their plain shape. */
const plain = (result: Omit<ValidationResult, 'interchanges'> & { interchanges?: Interchange[] }): unknown =>
  JSON.parse(
    JSON.stringify(result, (_key, value: unknown) =>
      value instanceof ScreenedMessage ? { ...value, segments: value.segments } : value,
    ),
  );

const allMessages = (result: ValidationResult) =>
  result.interchanges.flatMap((i) => [...i.messages, ...i.groups.flatMap((g) => g.messages)]);

/**
 * The levels, each counting the messages it had to validate the plain way (`validateMessage`): a message the
 * screen took through every level never reaches the last level's.
 */
const counting = (levels: ValidationLevelPlugin[]): { levels: ValidationLevelPlugin[]; plainCalls: () => number } => {
  let calls = 0;
  const last = levels.at(-1) as ValidationLevelPlugin;
  const counted: ValidationLevelPlugin = {
    ...last,
    validateMessage: (message, context) => {
      calls++;
      return last.validateMessage(message, context);
    },
  };
  return { levels: [...levels.slice(0, -1), counted], plainCalls: () => calls };
};

/** Runs the screened validation and says how many of its messages the screen took through every level. */
const screenedRun = (
  input: Uint8Array | string,
  counted: ReturnType<typeof counting>,
  strict = false,
): { result: ValidationResult; taken: number } => {
  const before = counted.plainCalls();
  const result = validateSync(input, { levels: counted.levels, strict });
  const all = allMessages(result);
  // Every message is either taken by the screen or validated the plain way by the last level.
  return { result, taken: all.length - (counted.plainCalls() - before) };
};

// Once with the specification level, once with the map level (the EANCOM guides) after it.
describe.each(['specification', 'specification and map'])('the screen, %s', (which) => {
  let levels: ValidationLevelPlugin[];
  let counted: ReturnType<typeof counting>;
  beforeAll(async () => {
    const level = createSpecificationLevel({ directories });
    levels = which === 'specification' ? [level] : [level, createMapLevel({ guides: await loadGuides(), directories })];
    counted = counting(levels);
  });

  /** Plain path, then the screen twice (the first run teaches the levels the message shapes). */
  const compare = (input: Uint8Array | string, strict = false): number => {
    const expected = validateSync(input, { levels, strict, screen: false });
    validateSync(input, { levels, strict });
    const screened = screenedRun(input, counted, strict);
    expect(plain(screened.result)).toEqual(plain(expected));
    return screened.taken;
  };

  it(
    'gives the plain path’s result on every fixture, as bytes and as text, lenient and strict',
    { timeout: 60_000 },
    () => {
      let taken = 0;
      for (const name of listFixtures()) {
        const bytes = readFixture(name);
        taken += compare(bytes);
        taken += compare(bytes, true);
        taken += compare(Buffer.from(bytes).toString('latin1'));
      }
      // Not a vacuous comparison: the clean fixtures' messages do go through the screen.
      expect(taken).toBeGreaterThan(20);
    },
  );

  it('gives the plain path’s result on random mutations of real messages', { timeout: 60_000 }, () => {
    let taken = 0;
    checkSamplesAndMutations((input) => {
      taken += compare(input);
    });
    // Fewer with the map level: most samples are not clean EANCOM.
    expect(taken).toBeGreaterThan(which === 'specification' ? 15 : 0);
  });

  it(
    'reports every value at the edge of its format and code list as the plain path does',
    { timeout: 60_000 },
    async () => {
      const directory = await getTestDirectory('D96A');
      const header = "UNB+UNOC:3+5412345000013:14+4012345500004:14+240115:1200+IC0001'";
      const variantsOf = (value: CompiledValue): string[] => {
        const format = value.format;
        const out = ['', 'Z', '1', 'ZZZ', '-1.5'];
        if (format) {
          const unit = format.kind === 'a' ? 'A' : '7';
          out.push(unit.repeat(format.max), unit.repeat(format.max + 1));
          if (format.min > 1) out.push(unit.repeat(format.min - 1));
          if (format.kind === 'n') {
            out.push(`1.${'2'.repeat(format.max - 1)}`, `1.${'2'.repeat(format.max)}`, '1.', '.5', '1.2.3', '-', '1-2');
          }
        }
        return out;
      };
      let compared = 0;
      let taken = 0;
      for (const n of [1, 2]) {
        const segments = benchMessage(n).split("'").slice(0, -1);
        const wrap = (body: string[]): string => `${header}${body.join("'")}'UNZ+1+IC0001'`;
        // Text and bytes are screened by different code (bytes are read directly).
        const both = (input: string): number => compare(input) + compare(new TextEncoder().encode(input));
        compare(wrap(segments)); // teaches the level this message's shape
        const seen = new Set<string>();
        segments.forEach((segment, s) => {
          const elements = segment.split('+');
          const tag = elements[0] as string;
          const definition = compileSegment(directory, tag);
          // The first segment of each tag (the others repeat its definition).
          if (!definition || tag.startsWith('UN') || seen.has(tag)) return;
          seen.add(tag);
          definition.elements.forEach((element, e) => {
            const values = element.components ?? [element];
            values.forEach((value, c) => {
              for (const variant of variantsOf(value)) {
                const components = (elements[e + 1] ?? '').split(':');
                while (components.length <= c) components.push('');
                components[c] = variant;
                const changed = [...elements];
                while (changed.length <= e + 1) changed.push('');
                changed[e + 1] = components.join(':');
                const body = [...segments];
                body[s] = changed.join('+');
                taken += both(wrap(body));
                compared++;
              }
            });
          });
          // One element and one component too many.
          taken += compare(wrap(segments.map((x, i) => (i === s ? `${x}+1` : x))));
          taken += compare(wrap(segments.map((x, i) => (i === s ? `${x}:1` : x))));
        });
      }
      expect(compared).toBeGreaterThan(500);
      expect(taken).toBeGreaterThan(100);
    },
  );

  it('finds the segment table problems the plain path finds, in shapes it has not seen', () => {
    const header = "UNB+UNOC:3+5412345000013:14+4012345500004:14+240115:1200+IC0001'";
    let compared = 0;
    let taken = 0;
    for (const n of [3, 4]) {
      // The body between UNH and UNT; each variant gets a UNT that counts right, so only the table is wrong.
      const segments = benchMessage(n).split("'").slice(0, -1);
      const unh = segments[0] as string;
      const body = segments.slice(1, -1);
      const wrap = (variant: string[]): string =>
        `${header}${unh}'${variant.join("'")}'UNT+${variant.length + 2}+${unh.split('+')[1]}'UNZ+1+IC0001'`;
      const variants: string[][] = [];
      body.forEach((segment, i) => {
        variants.push(body.filter((_, j) => j !== i)); // missing
        variants.push([...body.slice(0, i), ...Array<string>(100).fill(segment), ...body.slice(i + 1)]); // too many
        if (i + 1 < body.length)
          variants.push([...body.slice(0, i), body[i + 1] as string, segment, ...body.slice(i + 2)]);
      });
      // Too many line items (groups) and a clean message of a length not seen before.
      const line = body.findIndex((x) => x.startsWith('LIN'));
      const items = body.slice(
        line,
        body.findIndex((x) => x.startsWith('UNS')),
      );
      variants.push([...body.slice(0, line), ...Array.from({ length: 3 }, () => items).flat(), ...body.slice(line)]);
      for (const variant of variants) {
        taken += compare(wrap(variant));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(taken).toBeGreaterThan(20);
  });

  it('takes clean messages with line breaks between segments, with the plain path’s lines', () => {
    const messages = Array.from({ length: 30 }, (_, i) => benchMessage(i + 1).replaceAll("'", "'\r\n"));
    const input =
      "UNA:+.? 'UNB+UNOC:3+5412345000013:14+4012345500004:14+240115:1200+IC0001'\r\n" +
      messages.join('') +
      "UNZ+30+IC0001'\r\n";
    const taken = compare(input);
    // The first message of each shape takes the plain path (and the first line break is reported there).
    expect(taken).toBeGreaterThan(5);
    const result = validateSync(input, { levels });
    expect(result.messages[29]?.line).toBe(input.slice(0, input.lastIndexOf('UNH+M000000030')).split('\n').length);
  });

  it('gives the plain path’s result in any chunk split (streaming)', async () => {
    const inputs = ['orders-d96a-batch.edi', 'invoic-d01b.edi', 'desadv-d96a-unt-count.edi'].map(readFixture);
    const collect = async (chunks: Uint8Array[], screen: boolean): Promise<unknown[]> => {
      const out: unknown[] = [];
      for await (const event of validateStream(chunks, { levels, screen })) {
        if (event.type === 'message') out.push({ summary: event.summary, findings: event.findings });
        else if (event.type === 'finding') out.push(event.finding);
      }
      return plain({ ok: true, messages: [], findings: out as never }) as unknown[];
    };
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: inputs.length - 1 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (which, points) => {
          const bytes = inputs[which] as Uint8Array;
          const chunks = splitAt(
            bytes,
            points.map((p) => p % (bytes.length + 1)),
          );
          expect(await collect(chunks, true)).toEqual(await collect([bytes], false));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the map level screen, rule by rule', () => {
  // One guide per rule over D96A ORDERS (association TEST01), so that each rule alone decides: a screen that
  // ignored it would take a message the plain path reports.
  const rules: Record<string, GuideSegmentRule>[] = [
    { FTX: { status: 'N' } }, // a segment not used
    { DTM: { max: 1 } }, // fewer repetitions than the directory's
    { SG2: { max: 2 } }, // a group
    { 'SG25/PIA': { min: 2 } }, // too few
    { 'SG25/QTY': { elements: { 'C186/6411': { status: 'N' } } } }, // a component not used
    { 'SG2/NAD': { elements: { '3035': { codes: ['BY', 'SU'] } } } }, // a restricted code list
    { BGM: { elements: { '4343': { status: 'R' } } } }, // a required element the directory leaves conditional
    { 'SG25/LIN': { elements: { 'C212/7143': { status: 'R', codes: ['EN'] } } } }, // all present and allowed
    { DTM: { max: 35 }, SG2: { status: 'R', max: 99 } }, // nothing to report
  ];

  it.each(rules.map((segments, i) => [i, segments] as const))('rule set %i', async (_i, segments) => {
    const guide: Guide = {
      format: 'edifact-guide/1',
      id: 'TEST-ORDERS',
      message: 'ORDERS',
      directory: 'D96A',
      associations: ['TEST01'],
      segments,
    };
    const counted = counting([
      createSpecificationLevel({ directories }),
      createMapLevel({ guides: indexGuides([guide]), directories }),
    ]);
    const levels = counted.levels;
    const header = "UNB+UNOC:3+5412345000013:14+4012345500004:14+240115:1200+IC0001'";
    const body = [2, 4, 6].map((n) => benchMessage(n).replace(':EAN008', ':TEST01')).join('');
    const input = `${header}${body}UNZ+3+IC0001'`;
    const expected = validateSync(input, { levels, screen: false });
    validateSync(input, { levels });
    const screened = screenedRun(input, counted);
    expect(plain(screened.result)).toEqual(plain(expected));
    const findings = expected.findings.filter((f) => f.level === 'map').length;
    // The last two rule sets find nothing: the screen takes all three messages; the others report something.
    if (_i >= rules.length - 2) expect(screened.taken).toBe(3);
    else expect(findings).toBeGreaterThan(0);
  });
});

describe('validate() with directories loaded on first use', () => {
  it('loads them after the first message, so that the rest of the input is screened', async () => {
    const base = directories;
    const loaded = new Map<string, Directory | undefined>();
    const lazy: DirectoryProvider = {
      get: (name) => loaded.get(name),
      load: async (name) => {
        const directory = await base.load(name);
        loaded.set(name, directory);
        return directory;
      },
    };
    const counted = counting([createSpecificationLevel({ directories: lazy })]);
    const input = [...interchangeChunks(512 * 1024, 64 * 1024)].join('');
    const result = await validate(input, { levels: counted.levels });
    expect(result.findings).toEqual([]);
    // Only the messages of the first 64 KB slice, read before the directory was loaded, take the plain path.
    expect(counted.plainCalls()).toBeGreaterThan(0);
    expect(counted.plainCalls()).toBeLessThan(result.messages.length / 4);
  });
});
