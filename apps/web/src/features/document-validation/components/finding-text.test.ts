import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { EdifactFinding } from '@portal/contracts';
import { describeFinding, findingMessage, splitPath } from './finding-text.ts';

const base = { severity: 'error', level: 'syntax', line: 1, column: 1, offset: 0 } as const;

async function translate(finding: EdifactFinding, language = 'en'): Promise<string> {
  await i18next.loadNamespaces('edifact');
  await i18next.loadLanguages(language);
  const t = i18next.getFixedT(language, 'edifact');
  return describeFinding({ t, exists: (key) => i18next.exists(key, { ns: 'edifact', lng: language }) }, finding);
}

describe('splitPath', () => {
  it('finds the segment and the element, skipping groups and positions', () => {
    expect(splitPath('SG2[1]/NAD[1]/C082/3039')).toEqual({ segment: 'NAD', element: 'C082/3039' });
    expect(splitPath('UNT[1]/0074')).toEqual({ segment: 'UNT', element: '0074' });
    expect(splitPath('BGM')).toEqual({ segment: 'BGM', element: '' });
    expect(splitPath('SG2[3]')).toEqual({ segment: '', element: '' });
  });
});

describe('describeFinding', () => {
  it('words a control count mismatch with the declared and counted numbers', async () => {
    const finding: EdifactFinding = {
      ...base,
      code: 'EDI_UNT_COUNT_MISMATCH',
      path: 'UNT[1]/0074',
      expected: '9',
      actual: '12',
      params: { element: 1, declared: 12, counted: 9 },
    };
    expect(await translate(finding)).toBe('Segment UNT says 12 segments, the message has 9.');
    expect(await translate(finding, 'de')).toBe('Das Segment UNT gibt 12 Segmente an, die Nachricht hat 9.');
  });

  it('words a map-level code list finding with the allowed codes', async () => {
    const finding: EdifactFinding = {
      ...base,
      level: 'map',
      code: 'EDI_INVALID_CODE',
      path: 'BGM[1]/C002/1001',
      expected: '220, 221',
      actual: '999',
      params: { element: 'C002/1001', codes: '220,221' },
    };
    expect(findingMessage(finding).key).toBe('findings.EDI_INVALID_CODE_map');
    expect(await translate(finding)).toBe(
      'The value “999” of C002/1001 is not allowed by the guide; allowed: 220, 221.',
    );
  });

  it('tells a missing segment group from a missing segment, and the format problems apart', async () => {
    expect(
      await translate({
        ...base,
        level: 'specification',
        code: 'EDI_MANDATORY_SEGMENT_MISSING',
        path: 'SG2',
        expected: 'SG2 (NAD)',
        params: { segment: 'SG2', group: 1 },
      }),
    ).toBe('The mandatory segment group SG2 (NAD) is missing.');
    expect(
      await translate({
        ...base,
        level: 'specification',
        code: 'EDI_INVALID_FORMAT',
        path: 'DTM[1]/C507/2380',
        expected: 'an..35',
        actual: 'x'.repeat(40),
        params: { problem: 'too-long' },
      }),
    ).toBe(`The value “${'x'.repeat(40)}” of C507/2380 is too long for the format an..35.`);
  });

  it('isolates the values inside right-to-left text', async () => {
    await i18next.loadLanguages('ar');
    const t = i18next.getFixedT('ar', 'edifact');
    const text = describeFinding(
      { t, exists: (key) => i18next.exists(key, { ns: 'edifact', lng: 'ar' }), isolate: true },
      { ...base, code: 'EDI_UNKNOWN_SEGMENT', level: 'specification', path: 'XYZ', actual: 'XYZ' },
    );
    expect(text).toBe('المقطع \u2066XYZ\u2069 غير معرَّف في الدليل.');
  });

  it('keeps a code it does not know readable', async () => {
    expect(await translate({ ...base, code: 'EDI_SOMETHING_NEW', path: 'LIN[2]' })).toBe(
      'Finding EDI_SOMETHING_NEW at LIN[2].',
    );
  });
});

describe('the catalog', () => {
  it('has a text for every finding code of packages/edifact in every language', async () => {
    const { existsSync, readFileSync, readdirSync } = await import('node:fs');
    const { dirname, join } = await import('node:path');
    // The repository root, wherever vitest runs from (happy-dom gives import.meta.url an http address).
    let root = process.cwd();
    while (!existsSync(join(root, 'packages/edifact/src/codes.ts')) && dirname(root) !== root) root = dirname(root);
    root = join(root, 'packages');
    const codes = [...readFileSync(join(root, 'edifact/src/codes.ts'), 'utf8').matchAll(/^\s+(EDI_[A-Z_]+):/gm)].map(
      (m) => m[1],
    );
    expect(codes.length).toBeGreaterThan(40);
    for (const language of readdirSync(join(root, 'i18n/locales'))) {
      const catalog = JSON.parse(readFileSync(join(root, `i18n/locales/${language}/edifact.json`), 'utf8')) as {
        findings: Record<string, string>;
      };
      const missing = codes.filter((code) => !catalog.findings[`${code ?? ''}`]);
      expect({ language, missing }).toEqual({ language, missing: [] });
    }
  });
});
