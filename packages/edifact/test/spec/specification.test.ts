import { describe, expect, it } from 'vitest';
import { createMemoryDirectoryProvider } from '../../src/directory/types.ts';
import type { MessageContext } from '../../src/levels.ts';
import type { Finding } from '../../src/model.ts';
import { checkValue, parseFormat } from '../../src/spec/format.ts';
import { createSpecificationLevel, validateSpecification } from '../../src/spec/specification.ts';
import { getTestDirectory } from '../directory/helpers.ts';
import { buildMessage } from './build-message.ts';

const ORDERS_HEAD = "UNH+1+ORDERS:D:96A:UN:EAN008'BGM+220+PO1+9'DTM+137:20240101:102'";
const ORDERS_TAIL = "UNS+S'UNT+9+1'";
const PARTIES = "NAD+BY+5412345000013::9'NAD+SU+4012345000009::9'";
const LINE = "LIN+1++4000862141404:EN'QTY+21:2'";

const run = async (text: string, decimal = '.'): Promise<Finding[]> =>
  validateSpecification(buildMessage(text), await getTestDirectory('D96A'), { decimal, syntaxVersion: 3 });

const codes = (findings: Finding[]): string[] => findings.map((f) => `${f.code} ${f.path}`);

describe('representations (ISO 9735 clause 10)', () => {
  it.each([
    ['an..3', 'ABC', undefined],
    ['an..3', 'ABCD', 'too-long'],
    ['an3', 'AB', 'too-short'],
    ['a..3', 'A1', 'not-alphabetic'],
    ['n..3', '123', undefined],
    ['n..3', '-12.3', undefined],
    ['n..3', '1234', 'too-long'],
    ['n..3', '12.', 'not-numeric'],
    ['n..3', '.5', 'not-numeric'],
    ['n..3', '1,5', 'not-numeric'],
    ['n..3', '1A', 'not-numeric'],
    ['n3', '12', 'too-short'],
  ])('%s with %s', (format, value, problem) => {
    const parsed = parseFormat(format);
    if (!parsed) throw new Error('format');
    expect(checkValue(value, parsed, '.', false)).toBe(problem);
  });

  it('uses the decimal mark of UNA, and accepts both marks in syntax 4', () => {
    const parsed = parseFormat('n..5');
    if (!parsed) throw new Error('format');
    expect(checkValue('1,5', parsed, ',', false)).toBeUndefined();
    expect(checkValue('1.5', parsed, ',', false)).toBe('not-numeric');
    expect(checkValue('1.5', parsed, ',', true)).toBeUndefined();
  });
});

describe('specification level: one case per finding code', () => {
  it('accepts a well-formed message', async () => {
    expect(await run(`${ORDERS_HEAD}${PARTIES}${LINE}${ORDERS_TAIL}`)).toEqual([]);
  });

  it.each([
    ['EDI_UNKNOWN_SEGMENT', `${ORDERS_HEAD}XYZ+1'${ORDERS_TAIL}`, 'EDI_UNKNOWN_SEGMENT XYZ'],
    [
      'EDI_UNEXPECTED_SEGMENT',
      `${ORDERS_HEAD}${ORDERS_TAIL.replace('UNT', "BGM+1'UNT")}`,
      'EDI_UNEXPECTED_SEGMENT BGM',
    ],
    [
      'EDI_MANDATORY_SEGMENT_MISSING (segment)',
      `UNH+1+ORDERS:D:96A:UN'DTM+137:20240101:102'${ORDERS_TAIL}`,
      'EDI_MANDATORY_SEGMENT_MISSING BGM',
    ],
    [
      'EDI_TOO_MANY_OCCURRENCES',
      `UNH+1+ORDERS:D:96A:UN'BGM+220+1'BGM+220+2'DTM+137:20240101:102'${ORDERS_TAIL}`,
      'EDI_TOO_MANY_OCCURRENCES BGM[2]',
    ],
    [
      'EDI_TOO_MANY_ELEMENTS',
      `${ORDERS_HEAD.replace('BGM+220+PO1+9', 'BGM+220+PO1+9+AA+X')}${ORDERS_TAIL}`,
      'EDI_TOO_MANY_ELEMENTS BGM[1]',
    ],
    [
      'EDI_TOO_MANY_COMPONENTS',
      `${ORDERS_HEAD.replace('BGM+220+PO1+9', 'BGM+220:::X:Y+PO1+9')}${ORDERS_TAIL}`,
      'EDI_TOO_MANY_COMPONENTS BGM[1]/C002',
    ],
    [
      'EDI_MANDATORY_ELEMENT_MISSING',
      `${ORDERS_HEAD}NAD++5412345000013::9'${ORDERS_TAIL}`,
      'EDI_MANDATORY_ELEMENT_MISSING SG2[1]/NAD[1]/3035',
    ],
    [
      'EDI_MANDATORY_COMPONENT_MISSING',
      `${ORDERS_HEAD}NAD+BY+:1:9'${ORDERS_TAIL}`,
      'EDI_MANDATORY_COMPONENT_MISSING SG2[1]/NAD[1]/C082/3039',
    ],
    [
      'EDI_INVALID_FORMAT',
      `${ORDERS_HEAD}${PARTIES}LIN+1++4000862141404:EN'QTY+21:2X'${ORDERS_TAIL}`,
      'EDI_INVALID_FORMAT SG25[1]/QTY[1]/C186/6060',
    ],
    [
      'EDI_INVALID_CODE',
      `${ORDERS_HEAD}NAD+QQQ+5412345000013::9'${ORDERS_TAIL}`,
      'EDI_INVALID_CODE SG2[1]/NAD[1]/3035',
    ],
    [
      'EDI_TOO_MANY_REPETITIONS',
      `${ORDERS_HEAD}NAD+BY*SU+5412345000013::9'${ORDERS_TAIL}`,
      'EDI_TOO_MANY_REPETITIONS SG2[1]/NAD[1]/3035',
    ],
  ])('%s', async (_name, text, expected) => {
    expect(codes(await run(text))).toContain(expected);
  });

  it('reports a mandatory group missing and counts group occurrences in paths', async () => {
    const d01b = await getTestDirectory('D01B');
    const text = "UNH+1+INVOIC:D:01B:UN'BGM+380+1+9'DTM+137:20240101:102'NAD+BY+1::9'NAD+SU+2::9'UNS+S'UNT+7+1'";
    const findings = validateSpecification(buildMessage(text), d01b);
    expect(codes(findings)).toEqual(['EDI_MANDATORY_SEGMENT_MISSING SG50']);
    expect(findings[0]).toMatchObject({
      level: 'specification',
      severity: 'error',
      messageType: 'INVOIC',
      version: 'D01B',
      documentNumber: '1',
      messageReference: '1',
      line: 1,
      params: { segment: 'SG50', group: 1 },
    });
  });

  it('starts a new group occurrence when the trigger segment repeats', async () => {
    const findings = await run(`${ORDERS_HEAD}${PARTIES}NAD+DP+3::9'NAD+ZZZ+4::9'${ORDERS_TAIL}`);
    expect(codes(findings)).toEqual([]);
    const bad = await run(`${ORDERS_HEAD}${PARTIES}NAD+DP+3::9'NAD+QQQ+4::9'${ORDERS_TAIL}`);
    expect(codes(bad)).toEqual(['EDI_INVALID_CODE SG2[4]/NAD[1]/3035']);
  });

  it('fills every field of a finding', async () => {
    const [finding] = await run(`${ORDERS_HEAD}${PARTIES}LIN+1++4000862141404:EN'QTY+21:2X'${ORDERS_TAIL}`);
    expect(finding).toEqual({
      code: 'EDI_INVALID_FORMAT',
      severity: 'error',
      level: 'specification',
      path: 'SG25[1]/QTY[1]/C186/6060',
      fieldName: 'Quantity',
      messageType: 'ORDERS',
      version: 'D96A',
      documentNumber: 'PO1',
      messageReference: '1',
      line: 1,
      column: 1,
      offset: expect.any(Number),
      expected: 'n..15',
      actual: '2X',
      params: { element: '6060', problem: 'not-numeric', position: 1 },
    });
  });

  it('reports EDI_UNSUPPORTED_MESSAGE for an unknown directory, type or agency', async () => {
    const d96a = await getTestDirectory('D96A');
    for (const unh of ['ORDERS:D:95Z:UN', 'XYZABC:D:96A:UN', 'ORDERS:D:96A:EG']) {
      const findings = validateSpecification(
        buildMessage(`UNH+1+${unh}'UNT+2+1'`),
        unh.includes('95Z') ? undefined : d96a,
      );
      expect(codes(findings)).toEqual(['EDI_UNSUPPORTED_MESSAGE UNH[1]/S009']);
    }
  });

  it('never throws on odd input', async () => {
    for (const text of ["UNH+1+ORDERS:D:96A:UN'", "UNH'", "BGM++++'", "UNH+1+ORDERS:D:96A:UN'UNT'UNT'UNH'"]) {
      expect(() => validateSpecification(buildMessage(text), undefined)).not.toThrow();
      await expect(run(text)).resolves.toBeInstanceOf(Array);
    }
  });
});

describe('specification level plugin', () => {
  it('loads the directory lazily and answers synchronously once loaded', async () => {
    const provider = createMemoryDirectoryProvider([await getTestDirectory('D96A')]);
    let loads = 0;
    const counting = { get: provider.get, load: (name: string) => (loads++, provider.load(name)) };
    const level = createSpecificationLevel({ directories: { ...counting, get: () => undefined } });
    const message = buildMessage(`${ORDERS_HEAD}${PARTIES}${ORDERS_TAIL}`);
    const context = { delimiters: { decimal: '.' }, syntaxVersion: 3 } as unknown as MessageContext;
    await expect(level.validateMessage(message, context)).resolves.toEqual([]);
    expect(loads).toBe(1);
    const sync = createSpecificationLevel({ directories: provider });
    expect(sync.validateMessage(message, context)).toEqual([]);
  });
});
