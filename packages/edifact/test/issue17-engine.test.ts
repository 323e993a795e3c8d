/**
 * Issue 17 item 3 and the engine gaps found with it: date/time values against their format qualifier (2379) and
 * the UNB date by syntax version, the parties EANCOM requires, codes a guide allows (no UN code-list warning),
 * CONTRL as a service message, and the code list as what an EDI_INVALID_CODE expected. Each case is run with the
 * screen on and off: the findings must be the same.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidationLevelPlugin } from '../src/levels.ts';
import { createMapLevel } from '../src/map/map-level.ts';
import { CodeSet } from '../src/spec/compile.ts';
import { loadGuides } from '../src/map/node/load-guides.ts';
import { createSpecificationLevel } from '../src/spec/specification.ts';
import { validate, type ValidationResult } from '../src/validate.ts';
import { getTestStore } from './directory/helpers.ts';

let spec: ValidationLevelPlugin[];
let both: ValidationLevelPlugin[];
beforeAll(async () => {
  const directories = await getTestStore();
  spec = [createSpecificationLevel({ directories })];
  both = [...spec, createMapLevel({ guides: await loadGuides(), directories })];
});

const UNB = (date = '240115', version = 3) =>
  `UNA:+.? 'UNB+UNOC:${version}+5401234000012:14+8712345000011:14+${date}:0930+ORD0001'`;
const ORDER_BODY = [
  "BGM+220+PO2024-0115+9'",
  "DTM+137:20240115:102'",
  "NAD+BY+5401234000012::9'",
  "NAD+SU+8712345000011::9'",
  "LIN+1++5901234123457:EN'",
  "QTY+21:48'",
  "UNS+S'",
  "CNT+2:1'",
];
/** An EANCOM 97 order with `body` between UNH and UNT (the UNT count follows it). */
const order = (body: string[], unb = UNB()) =>
  `${unb}UNH+1+ORDERS:D:96A:UN:EAN008'${body.join('')}UNT+${body.length + 2}+1'UNZ+1+ORD0001'`;

/** Validates with the screen on and off, requires the same findings, and returns the result. */
const run = async (text: string, levels: ValidationLevelPlugin[]): Promise<ValidationResult> => {
  const screened = await validate(text, { levels });
  const plain = await validate(text, { levels, screen: false });
  expect(screened.findings).toEqual(plain.findings);
  expect(screened.ok).toBe(plain.ok);
  return screened;
};

const codes = (r: ValidationResult) => r.findings.map((f) => `${f.code} ${f.path} ${f.actual ?? ''}`.trim());

describe('date/time values against their format qualifier (2379)', () => {
  const withDate = (value: string, format: string) =>
    order(ORDER_BODY.map((s) => (s.startsWith('DTM+137') ? `DTM+137:${value}:${format}'` : s)));

  it('DTM+137:2026031X:102 is an error naming the format', async () => {
    const r = await run(withDate('2026031X', '102'), spec);
    expect(r.ok).toBe(false);
    const f = r.findings.find((x) => x.code === 'EDI_INVALID_DATE_TIME');
    expect(f).toMatchObject({
      severity: 'error',
      level: 'specification',
      path: 'DTM[1]/C507/2380',
      actual: '2026031X',
      expected: 'CCYYMMDD (2379 = 102)',
      params: { format: '102', problem: 'shape' },
    });
  });

  it.each([
    ['20260315', '102'],
    ['20240229', '102'],
    ['202603151230', '203'],
    ['20260315123059', '204'],
    ['20260301-20260331', '718'],
    ['2002080120020831', '718'],
    ['260315', '101'],
    ['2603152359', '201'],
    ['2026', '602'],
    ['202612', '610'],
    ['202653', '616'],
    ['3', '802'],
    ['12', '804'],
    ['1230', '401'],
    ['2026031X', 'ZZ'],
    ['whatever', '205'],
  ])('%s with format %s passes', async (value, format) => {
    const r = await run(withDate(value, format), spec);
    expect(codes(r).filter((c) => c.startsWith('EDI_INVALID_DATE_TIME'))).toEqual([]);
  });

  it.each([
    ['20260230', '102', 'calendar'],
    ['20230229', '102', 'calendar'],
    ['2026031', '102', 'shape'],
    ['202603151260', '203', 'calendar'],
    ['2026031512300', '204', 'shape'],
    ['20260301/20260331', '718', 'shape'],
    ['20260301-2026033', '718', 'shape'],
    ['202603012026033', '718', 'shape'],
    ['20260301-20261332', '718', 'calendar'],
    ['261315', '101', 'calendar'],
    ['2603152512', '201', 'calendar'],
    ['26', '602', 'shape'],
    ['202613', '610', 'calendar'],
    ['202654', '616', 'calendar'],
    ['3M', '802', 'shape'],
    ['2460', '401', 'calendar'],
  ])('%s with format %s is an error (%s)', async (value, format, problem) => {
    const r = await run(withDate(value, format), spec);
    expect(r.findings.filter((f) => f.code === 'EDI_INVALID_DATE_TIME').map((f) => f.params?.problem)).toEqual([
      problem,
    ]);
  });
});

describe('UNB date (S004 0017) by syntax version', () => {
  it('is YYMMDD in versions 1 to 3 and CCYYMMDD in version 4', async () => {
    const f = (r: ValidationResult) => r.findings.filter((x) => x.path.includes('0017')).map((x) => x.expected);
    expect(f(await run(order(ORDER_BODY, UNB('240115', 3)), spec))).toEqual([]);
    expect(f(await run(order(ORDER_BODY, UNB('20240115', 3)), spec))).toEqual(['n6']);
    expect(f(await run(order(ORDER_BODY, UNB('20240115', 4)), spec))).toEqual([]);
    expect(f(await run(order(ORDER_BODY, UNB('240115', 4)), spec))).toEqual(['n8']);
  });
});

describe('the parties EANCOM requires', () => {
  it('an EAN008 order without NAD+SU is an error naming SU; without BY and SU, both', async () => {
    const noSupplier = await run(order(ORDER_BODY.filter((s) => !s.startsWith('NAD+SU'))), both);
    expect(noSupplier.ok).toBe(false);
    expect(noSupplier.findings.filter((f) => f.code === 'EDI_REQUIRED_QUALIFIER_MISSING')).toMatchObject([
      { level: 'map', severity: 'error', path: 'SG2/NAD', expected: 'NAD 3035 = SU', params: { code: 'SU' } },
    ]);
    const none = await run(order(ORDER_BODY.filter((s) => !s.startsWith('NAD'))), both);
    expect(none.findings.filter((f) => f.code === 'EDI_REQUIRED_QUALIFIER_MISSING').map((f) => f.params?.code)).toEqual(
      ['BY', 'SU'],
    );
  });

  it('two parties but no supplier (BY and DP): only the missing SU, the group count being right', async () => {
    const r = await run(order(ORDER_BODY.map((s) => (s.startsWith('NAD+SU') ? "NAD+DP+5401234000029::9'" : s))), both);
    expect(r.findings.map((f) => `${f.code} ${f.expected ?? ''}`)).toEqual([
      'EDI_REQUIRED_QUALIFIER_MISSING NAD 3035 = SU',
    ]);
  });

  it('an order with both parties passes, also when they come in another order', async () => {
    const r = await run(order(ORDER_BODY), both);
    expect(r.findings).toEqual([]);
    const swapped = ORDER_BODY.slice();
    [swapped[2], swapped[3]] = [swapped[3] as string, swapped[2] as string];
    expect((await run(order(swapped), both)).findings).toEqual([]);
  });
});

describe('codes a guide allows', () => {
  const srv = order(ORDER_BODY.map((s) => (s.startsWith('LIN+') ? "LIN+1++5901234123457:SRV'" : s)));

  it('LIN C212/7143 SRV in an EAN008 order: no UN code-list warning with the guide, a warning without it', async () => {
    expect((await run(srv, both)).findings).toEqual([]);
    expect(codes(await run(srv, spec))).toEqual(['EDI_INVALID_CODE SG25[1]/LIN[1]/C212/7143 SRV']);
  });

  it('the allowance holds for the guide’s messages only: the same code without an association is warned', async () => {
    const bare = srv.replace(':EAN008', '');
    // Run after a message that took SRV through the guide, so nothing remembered may leak.
    await run(srv, both);
    expect(codes(await run(bare, both))).toEqual(['EDI_INVALID_CODE SG25[1]/LIN[1]/C212/7143 SRV']);
  });

  it('gives the code list as expected, with its codes when short', async () => {
    const r = await run(order(ORDER_BODY.map((s) => (s.startsWith('BGM') ? "BGM+ZZZ+PO2024-0115+9'" : s))), spec);
    expect(r.findings.find((f) => f.code === 'EDI_INVALID_CODE')?.expected).toMatch(/^UNCL 1001 \(\d+ codes\)$/);
    expect(new CodeSet(['1', '2', '9']).describe('4343')).toBe('UNCL 4343: 1, 2, 9');
  });
});

describe('CONTRL', () => {
  it('CONTRL D:3 is a service message: syntax level only, ok, no unsupported-message error', async () => {
    const text =
      "UNA:+.? 'UNB+UNOC:3+8712345000011:14+5401234000012:14+240115:0935+CTL0001'UNH+1+CONTRL:D:3:UN'" +
      "UCI+ORD0001+5401234000012:14+8712345000011:14+7'UNT+3+1'UNZ+1+CTL0001'";
    const r = await run(text, both);
    expect(r.findings).toEqual([]);
    expect(r.ok).toBe(true);
    // A broken envelope is still found.
    expect(codes(await run(text.replace('UNT+3+1', 'UNT+4+1'), both))[0]).toMatch(/^EDI_UNT_COUNT_MISMATCH/);
  });
});

describe('CONTRL of the new findings', () => {
  it('reports a bad date as invalid value (0085 = 12) and a missing party as missing (13)', async () => {
    const { buildContrl } = await import('../src/contrl.ts');
    const bad = order(
      ORDER_BODY.filter((s) => !s.startsWith('NAD+SU')).map((s) =>
        s.startsWith('DTM+137') ? "DTM+137:2026031X:102'" : s,
      ),
    );
    const contrl = buildContrl(await run(bad, both));
    expect(contrl).toMatch(/UCS\+3\+12'/); // DTM, the third segment
    expect(contrl).toMatch(/UCS\+\d+\+13'/);
  });
});
