/** The English texts the CLI prints for the finding codes (src/messages-en.ts). */
import { describe, expect, it } from 'vitest';
import { FINDING_CODES, type FindingCode } from '../src/codes.ts';
import { createFinding } from '../src/findings.ts';
import { describeFindingEn, FINDING_TEXTS_EN } from '../src/messages-en.ts';

const codes = Object.keys(FINDING_CODES) as FindingCode[];

describe('English texts of the finding codes', () => {
  it('every code of the catalogue has a text, and no text names a code outside it', () => {
    expect(Object.keys(FINDING_TEXTS_EN).sort()).toEqual([...codes].sort());
  });

  it.each(codes)('%s reads as a sentence with the finding’s values, never the code or “undefined”', (code) => {
    const finding = createFinding(code, {
      path: 'SG2[1]/NAD[1]/C082/3039',
      line: 3,
      column: 7,
      offset: 40,
      expected: 'an..35',
      actual: 'VALUE',
      params: {
        count: 4,
        max: 3,
        min: 1,
        plugin: 'map',
        error: 'boom',
        type: 'ORDERS',
        version: 'D',
        release: '95Z',
        agency: 'UN',
        status: 'M',
      },
    });
    const text = describeFindingEn(finding);
    expect(text).toMatch(/^[A-Z“]/);
    expect(text.length).toBeGreaterThan(20);
    expect(text).not.toContain(code);
    expect(text).not.toMatch(/undefined|null|\[object/);
  });

  it('picks the variant by level and parameters, as the web app does', () => {
    const at = { path: 'BGM[1]/C002/1001', line: 1, column: 1, offset: 0, actual: '380', expected: '220, 221' };
    expect(describeFindingEn(createFinding('EDI_INVALID_CODE', at))).toBe(
      'The value “380” of C002/1001 is not in the code list of the directory.',
    );
    expect(describeFindingEn(createFinding('EDI_INVALID_CODE', { ...at, level: 'map' }))).toBe(
      'The value “380” of C002/1001 is not allowed by the guide; allowed: 220, 221.',
    );
    const end = { path: 'UNH[1]', line: 1, column: 1, offset: 0 };
    expect(describeFindingEn(createFinding('EDI_MISSING_UNT', end))).toBe(
      'The message is not closed by a UNT segment before the end of the document.',
    );
    expect(describeFindingEn(createFinding('EDI_MISSING_UNT', { ...end, actual: 'UNZ' }))).toBe(
      'The message is not closed by a UNT segment before segment UNZ.',
    );
    expect(
      describeFindingEn(
        createFinding('EDI_UNSUPPORTED_MESSAGE', {
          ...end,
          params: { type: 'ORDERS', version: 'D', release: '95Z', agency: 'UN' },
        }),
      ),
    ).toBe('No directory D95Z (UN) is available to check message ORDERS.');
    expect(describeFindingEn({ ...createFinding('EDI_MISSING_UNH', end), code: 'X_PLUGIN_CODE' })).toBe(
      'X_PLUGIN_CODE at UNH[1]',
    );
  });
});
