/**
 * Issue 16, items 1 and 2: every stage runs in time linear in its input and in memory bounded by its output.
 * Nothing here is timed: the engine counts its units of work (`work.steps`, see src/work.ts), and each pathological
 * shape at N and at 10·N must take at most about ten times the steps; what is built (findings listed, CONTRL text)
 * must stay within the caps, the rest counted in `omitted`.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildContrl } from '../src/contrl.ts';
import { createMemoryDirectoryProvider } from '../src/directory/types.ts';
import { MAX_FINDINGS_PER_MESSAGE, MAX_FINDINGS_PER_VALIDATION } from '../src/findings.ts';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import { createMapLevel } from '../src/map/map-level.ts';
import { loadGuides } from '../src/map/node/load-guides.ts';
import { parse } from '../src/parser.ts';
import { createSpecificationLevel } from '../src/spec/specification.ts';
import { validate, validateStream, validateSync, type ValidationResult } from '../src/validate.ts';
import { work } from '../src/work.ts';
import { ParallelValidator } from '../src/parallel/node/parallel.ts';
import { getTestDirectory, getTestStore } from './directory/helpers.ts';

const UNB = "UNB+UNOC:3+SENDER+RECIPIENT+200101:1200+IC1'";
const UNB4 = "UNB+UNOC:4+SENDER+RECIPIENT+200101:1200+IC1'";
const ORDERS = "UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'";

/** A message's body between `ORDERS` and its UNT, then UNZ. */
const inOrders = (body: string, unb = UNB): string => `${unb}${ORDERS}${body}UNT+3+1'UNZ+1+IC1'`;

/** The shapes of the attack probe and the further ones of the brief, each as a function of its size. */
const SHAPES: Record<string, (n: number) => string> = {
  'repeated SG25 after LIN': (n) => inOrders("LIN+1'" + "SG25'".repeat(n)),
  'repeated unknown segments after LIN': (n) => inOrders("LIN+1'" + "ZZZ+1'".repeat(n)),
  "repeated AB' in a message": (n) => inOrders("AB'".repeat(n)),
  "a file of only '": (n) => "'".repeat(n * 5),
  'whitespace only': (n) => ' \r\n'.repeat(n * 40),
  'many messages with the same reference': (n) =>
    UNB + "UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'UNT+3+1'".repeat(n) + `UNZ+${n}+IC1'`,
  'one segment with many components': (n) => inOrders('FTX+AAI+++' + ':'.repeat(n * 100) + "'"),
  'one element with many repetitions (syntax 4)': (n) => inOrders('FTX+AAI+++' + 'A*'.repeat(n * 100) + "'", UNB4),
  'many elements in one segment': (n) => inOrders('FTX' + '+A'.repeat(n * 50) + "'"),
  'a release character at every other position': (n) => inOrders('FTX+AAI+++' + '?:'.repeat(n * 50) + "'"),
  "one segment of released terminators (?')": (n) => inOrders('FTX+AAI+++' + "?'".repeat(n * 50) + "'"),
  'one unterminated segment': (n) => UNB + ORDERS + 'FTX+AAI+++' + 'A'.repeat(n * 100),
  'UNA with odd separators': (n) =>
    'UNA|^,\\ ~UNB^UNOC|3^S^R^200101|1200^IC1~UNH^1^ORDERS|D|96A|UN~BGM^220^1^9~LIN^1~' +
    'SG25~QTY^21|x|PCE~'.repeat(n) +
    'UNT^3^1~UNZ^1^IC1~',
  'a segment group nested and repeated': (n) =>
    UNB +
    "UNH+1+ORDERS:D:96A:UN:EAN008'BGM+220+PO1+9'DTM+137:20240115:102'NAD+BY+5412345000013::9'" +
    Array.from(
      { length: n },
      (_, i) => `LIN+${i + 1}++4012345600001:EN'QTY+21:3:PCE'PRI+AAA:12.50'RFF+ON:X${i}'DTM+171:20240101:102'`,
    ).join('') +
    `UNS+S'CNT+2:${n}'UNT+${5 * n + 7}+1'UNZ+1+IC1'`,
  'many distinct message types and versions': (n) => {
    const types = ['ORDERS', 'INVOIC', 'DESADV', 'ORDRSP', 'PRICAT', 'RECADV', 'ZZZZZZ'];
    const versions = ['D:96A', 'D:01B', 'D:93A', 'S:93A'];
    let out = UNB;
    for (let i = 0; i < n; i++) {
      out += `UNH+${i}+${types[i % types.length]}${i % 3 === 0 ? i : ''}:${versions[i % versions.length]}:UN'BGM+220+${i}+9'UNT+3+${i}'`;
    }
    return out + `UNZ+${n}+IC1'`;
  },
  // A line break after each segment, of one kind only: the other kind is never found, and must not be searched
  // for again at every segment.
  'one segment a line, LF only': (n) =>
    UNB + "\nUNH+1+ORDERS:D:96A:UN'\n" + "FTX+AAI+++TEXT'\n".repeat(n * 10) + "UNT+3+1'\nUNZ+1+IC1'\n",
  'one segment a line, CR only': (n) =>
    UNB + "\rUNH+1+ORDERS:D:96A:UN'\r" + "FTX+AAI+++TEXT'\r".repeat(n * 10) + "UNT+3+1'\rUNZ+1+IC1'\r",
  'many messages missing UNT': (n) => UNB + "UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'".repeat(n) + `UNZ+${n}+IC1'`,
};

/** Work steps and copied units `run` takes (after one warm-up run, so that first-use compilation is not counted). */
const workOf = async (run: () => unknown): Promise<{ steps: number; copied: number }> => {
  await run();
  const steps = work.steps;
  const copied = work.copied;
  await run();
  return { steps: work.steps - steps, copied: work.copied - copied };
};

const stepsOf = async (run: () => unknown): Promise<number> => (await workOf(run)).steps;

const N = 1000;
/**
 * The larger input (about ten times the smaller, exactly so where its numbers have more digits) may take at most
 * this many times the steps per unit of input: linear, with some slack for fixed costs.
 */
const MAX_RATIO = 1.2;
/** Units copied into the tokenizer's buffer, at most, per unit of input (each once, and a bounded number again). */
const MAX_COPIES = 4;

/** Steps per unit of input of `large` over those of `small`. */
const perUnit = async (
  validateIt: (input: string | Uint8Array) => unknown,
  small: string | Uint8Array,
  large: string | Uint8Array,
) => {
  const s = await workOf(() => validateIt(small));
  const l = await workOf(() => validateIt(large));
  expect(l.copied).toBeLessThanOrEqual(MAX_COPIES * large.length + 128 * 1024);
  return l.steps / large.length / (s.steps / small.length);
};

let levels: ValidationLevelPlugin[];
beforeAll(async () => {
  const directories = createMemoryDirectoryProvider([await getTestDirectory('D96A'), await getTestDirectory('D01B')]);
  levels = [createSpecificationLevel({ directories }), createMapLevel({ guides: await loadGuides(), directories })];
});

const total = (r: ValidationResult): number =>
  r.findings.length + (r.omitted ? r.omitted.errors + r.omitted.warnings + r.omitted.infos : 0);

// Large inputs on a shared machine: generous limits (nothing here measures time).
vi.setConfig({ testTimeout: 120_000 });

describe.each([
  ['syntax level only', false],
  ['specification and map levels', true],
])('linear work, %s', (_name, withLevels) => {
  const options = (): { levels?: ValidationLevelPlugin[] } => (withLevels ? { levels } : {});

  it.each(Object.keys(SHAPES))('%s: 10 times the input takes at most about 10 times the steps', async (shape) => {
    const make = SHAPES[shape] as (n: number) => string;
    const small = make(N);
    const large = make(10 * N);
    expect(large.length / small.length).toBeGreaterThanOrEqual(9.5);
    const run = (screen: boolean) => (input: string | Uint8Array) => validate(input, { ...options(), screen });
    expect(await perUnit(run(true), small, large), shape).toBeLessThanOrEqual(MAX_RATIO);
    // As bytes too (the tokenizer reads them another way), and with the screen off (the plain path alone).
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(await perUnit(run(true), bytes(small), bytes(large)), shape).toBeLessThanOrEqual(MAX_RATIO);
    expect(await perUnit(run(false), small, large), shape).toBeLessThanOrEqual(MAX_RATIO);
  });

  it.each(Object.keys(SHAPES))('%s: findings are capped, the rest counted', async (shape) => {
    const make = SHAPES[shape] as (n: number) => string;
    const small = await validate(make(N), options());
    const large = await validate(make(10 * N), options());
    expect(large.findings.length).toBeLessThanOrEqual(MAX_FINDINGS_PER_VALIDATION);
    // Counted, not lost: ten times the input has at least as many findings in all.
    expect(total(large)).toBeGreaterThanOrEqual(total(small));
    if (total(large) > 0 && large.findings.every((f) => f.severity !== 'error')) {
      expect(large.ok).toBe((large.omitted?.errors ?? 0) === 0);
    }
  });
});

describe('the attack probe’s requests (issue 16 items 1 and 2)', () => {
  it('CONTRL of messages that all carry reference 1 grows linearly (was 13 MB for 1,000, out of memory for 8,000)', async () => {
    const make = SHAPES['many messages with the same reference'] as (n: number) => string;
    const contrlOf = async (n: number) => buildContrl(await validate(make(n), { levels }), { date: new Date(0) });
    const small = await contrlOf(800);
    const large = await contrlOf(8000);
    expect(large.length / small.length).toBeLessThanOrEqual(12);
    // Each message is answered once, with its own errors only (every one lacks the mandatory DTM of D96A ORDERS).
    expect(large.match(/UCM\+1\+ORDERS:D:96A:UN\+4/g)?.length).toBe(8000);
    expect(large.length).toBeLessThan(2_000_000);
    // Syntax only: the first message is accepted, every later one rejected for its duplicate reference.
    const syntax = buildContrl(await validate(make(8000)), { date: new Date(0) });
    expect(syntax.match(/UCM\+1\+ORDERS:D:96A:UN\+7'/g)?.length).toBe(1);
    expect(syntax.match(/UCM\+1\+ORDERS:D:96A:UN\+4\+26\+UNH\+1'/g)?.length).toBe(7999);
    const steps = (n: number) => stepsOf(async () => buildContrl(await validate(make(n)), { date: new Date(0) }));
    expect((await steps(8000)) / (await steps(800))).toBeLessThanOrEqual(12);
  });

  it('CONTRL answers each message with its own findings when references repeat', async () => {
    // Message 2 repeats reference 1 and has no BGM; messages 1 and 3 are clean apart from the duplicate.
    const input =
      UNB +
      "UNH+1+ORDERS:D:96A:UN'BGM+220+1+9'UNT+3+1'" +
      "UNH+1+ORDERS:D:96A:UN'UNT+2+1'" +
      "UNH+2+ORDERS:D:96A:UN'BGM+220+1+9'UNT+3+2'" +
      "UNZ+3+IC1'";
    const result = await validate(input, { levels });
    const contrl = buildContrl(result, { date: new Date(0) });
    const ucm = contrl.split("'").filter((s) => s.startsWith('UCM'));
    expect(ucm).toHaveLength(3);
    expect(ucm[2]).toMatch(/^UCM\+2\+ORDERS:D:96A:UN\+/);
    // A copy of the result (no record of which message a finding came from) is answered the same way.
    const copy = JSON.parse(JSON.stringify(result)) as ValidationResult;
    expect(buildContrl(copy, { date: new Date(0) })).toBe(contrl);
  });

  it('SG25 repeated after LIN: at most MAX_FINDINGS_PER_MESSAGE listed per message, the rest counted', async () => {
    const make = SHAPES['repeated SG25 after LIN'] as (n: number) => string;
    const result = await validate(make(20_000), { levels });
    expect(result.findings.length).toBe(MAX_FINDINGS_PER_MESSAGE);
    // Each SG25 is an invalid tag (syntax) and an unknown segment (specification): 40,000 errors, and a few more.
    const errors = result.findings.filter((f) => f.severity === 'error').length + (result.omitted?.errors ?? 0);
    expect(errors).toBeGreaterThanOrEqual(40_000);
    expect(errors).toBeLessThan(40_010);
    expect(result.ok).toBe(false);
    expect(result.messages[0]?.status).toBe('error');
    // The listed ones are the first by position.
    expect(result.findings.at(-1)?.offset).toBeLessThan(make(600).length);
  });

  it("10 MB of ' lists MAX_FINDINGS_PER_VALIDATION findings and counts the rest", () => {
    const result = validateSync("'".repeat(1_000_000));
    expect(result.findings).toHaveLength(MAX_FINDINGS_PER_VALIDATION);
    expect(result.findings.length + (result.omitted?.errors ?? 0)).toBe(1_000_001);
    const parsed = parse("'".repeat(100_000));
    expect(parsed.findings).toHaveLength(MAX_FINDINGS_PER_VALIDATION);
    expect(parsed.omitted?.errors).toBe(100_001 - MAX_FINDINGS_PER_VALIDATION);
  });

  it('ok is false when only an omitted finding is an error', async () => {
    // A lowered cap lists nothing: the errors are only counted.
    const input = inOrders("LIN+1'SG25'");
    const result = await validate(input, { levels, maxFindingsPerMessage: 0 });
    expect(result.findings).toHaveLength(0);
    expect(result.omitted?.errors).toBeGreaterThan(0);
    expect(result.ok).toBe(false);
    expect(result.messages[0]?.status).toBe('error');
  });

  it('the streaming validator caps each message and counts the rest in its omitted', async () => {
    const make = SHAPES["repeated AB' in a message"] as (n: number) => string;
    const events = [];
    for await (const event of validateStream([make(5000)], { levels })) events.push(event);
    const message = events.find((e) => e.type === 'message');
    expect(message?.type === 'message' && message.findings.length).toBe(MAX_FINDINGS_PER_MESSAGE);
    expect(message?.type === 'message' && message.findings.length + message.omitted.errors).toBe(
      (await validate(make(5000), { levels })).findings.length +
        ((await validate(make(5000), { levels })).omitted?.errors ?? 0),
    );
  });
});

describe('the caps are the same in every mode', () => {
  // Twelve messages of 1,500 bad segments each: past the cap per message and, together, past the cap per run.
  const input = new TextEncoder().encode(
    UNB +
      Array.from(
        { length: 12 },
        (_, i) => `UNH+${i}+ORDERS:D:96A:UN'BGM+220+1+9'${"AB'".repeat(1500)}UNT+3+${i}'`,
      ).join('') +
      "UNZ+12+IC1'",
  );

  it('validate, validateSync, the stream and the parallel mode list and count the same', async () => {
    const store = await getTestStore();
    const specification = [createSpecificationLevel({ directories: store })];
    await validate(input, { levels: specification });
    const { interchanges: _i, ...expected } = await validate(input, { levels: specification });
    expect(expected.findings).toHaveLength(MAX_FINDINGS_PER_VALIDATION);
    expect(expected.omitted?.errors).toBeGreaterThan(0);
    const { interchanges: _s, ...sync } = validateSync(input, { levels: specification });
    expect(sync).toEqual(expected);

    // The stream caps each message (and leaves the run's cap to its consumer): per message, the same counts.
    const all = await validate(input, { levels: specification, maxFindings: MAX_FINDINGS_PER_VALIDATION });
    let streamed = 0;
    let streamedOmitted = 0;
    for await (const event of validateStream([input], { levels: specification })) {
      if (event.type !== 'message') continue;
      expect(event.findings.length).toBeLessThanOrEqual(MAX_FINDINGS_PER_MESSAGE);
      streamed += event.findings.length;
      streamedOmitted += event.omitted.errors + event.omitted.warnings + event.omitted.infos;
    }
    expect(streamed + streamedOmitted).toBe(
      total(all) - all.findings.filter((f) => f.messageReference === undefined).length,
    );

    const parallel = new ParallelValidator({ store: store.path, workers: 2, minPartSize: 2000 });
    try {
      const { parts, ...result } = await parallel.validate(input);
      expect(parts).toBe(2);
      expect(result).toEqual(expected);
    } finally {
      await parallel.close();
    }
  });
});
