import { describe, expect, it } from 'vitest';
import { indexGuides, parseGuide, type Guide } from '../../src/map/guide.ts';
import { createMapLevel, findUnresolvedGuideKeys, validateMap } from '../../src/map/map-level.ts';
import { builtInGuidesPath, loadGuides, readGuideFolder } from '../../src/map/node/load-guides.ts';
import { createMemoryDirectoryProvider } from '../../src/directory/types.ts';
import type { MessageContext } from '../../src/levels.ts';
import type { Finding } from '../../src/model.ts';
import { getTestDirectory } from '../directory/helpers.ts';
import { buildMessage } from '../spec/build-message.ts';

const guide: Guide = {
  format: 'edifact-guide/1',
  id: 'TEST-ORDERS',
  message: 'ORDERS',
  directory: 'D96A',
  associations: ['TEST01'],
  segments: {
    BGM: {
      elements: { 'C002/1001': { status: 'R', codes: ['220'] }, '1225': { status: 'R' }, '4343': { status: 'N' } },
    },
    DTM: { max: 2 },
    PAI: { status: 'N' },
    FTX: { status: 'R', min: 2 },
    'SG2/NAD': { elements: { 'C082/1131': { status: 'N' }, 'C082/3055': { status: 'R' } } },
    SG2: { status: 'R', min: 2 },
    SG1: { status: 'R' },
  },
};

const HEAD = "UNH+1+ORDERS:D:96A:UN:TEST01'BGM+220+PO1+9'DTM+137:20240101:102'";
const OK_BODY = "FTX+AAI+++a'FTX+AAI+++b'RFF+CT:1'NAD+BY+1::9'NAD+SU+2::9'";
const TAIL = "UNS+S'UNT+10+1'";

const run = async (text: string): Promise<string[]> =>
  validateMap(buildMessage(text), guide, await getTestDirectory('D96A')).map((f: Finding) => `${f.code} ${f.path}`);

describe('map level: one case per finding code', () => {
  it('accepts a message that follows the guide', async () => {
    expect(await run(`${HEAD}${OK_BODY}${TAIL}`)).toEqual([]);
  });

  it.each([
    ['EDI_FORBIDDEN_SEGMENT', `${HEAD}PAI+1'${OK_BODY}${TAIL}`, 'EDI_FORBIDDEN_SEGMENT PAI[1]'],
    [
      'EDI_FORBIDDEN_ELEMENT',
      `${HEAD.replace('PO1+9', 'PO1+9+AP')}${OK_BODY}${TAIL}`,
      'EDI_FORBIDDEN_ELEMENT BGM[1]/4343',
    ],
    [
      'EDI_FORBIDDEN_COMPONENT',
      `${HEAD}${OK_BODY.replace('NAD+BY+1::9', 'NAD+BY+1:X:9')}${TAIL}`,
      'EDI_FORBIDDEN_COMPONENT SG2[1]/NAD[1]/C082/1131',
    ],
    [
      'EDI_MANDATORY_ELEMENT_MISSING',
      `${HEAD.replace('PO1+9', 'PO1')}${OK_BODY}${TAIL}`,
      'EDI_MANDATORY_ELEMENT_MISSING BGM[1]/1225',
    ],
    [
      'EDI_MANDATORY_COMPONENT_MISSING',
      `${HEAD}${OK_BODY.replace('NAD+SU+2::9', 'NAD+SU+2')}${TAIL}`,
      'EDI_MANDATORY_COMPONENT_MISSING SG2[2]/NAD[1]/C082/3055',
    ],
    [
      'EDI_MANDATORY_SEGMENT_MISSING',
      `${HEAD}FTX+AAI+++a'FTX+AAI+++b'NAD+BY+1::9'NAD+SU+2::9'${TAIL}`,
      'EDI_MANDATORY_SEGMENT_MISSING SG1',
    ],
    [
      'EDI_TOO_FEW_OCCURRENCES',
      `${HEAD}FTX+AAI+++a'RFF+CT:1'NAD+BY+1::9'NAD+SU+2::9'${TAIL}`,
      'EDI_TOO_FEW_OCCURRENCES FTX',
    ],
    [
      'EDI_TOO_FEW_OCCURRENCES (group)',
      `${HEAD}FTX+AAI+++a'FTX+AAI+++b'RFF+CT:1'NAD+BY+1::9'${TAIL}`,
      'EDI_TOO_FEW_OCCURRENCES SG2',
    ],
    [
      'EDI_TOO_MANY_OCCURRENCES',
      `${HEAD}DTM+2:20240102:102'DTM+2:20240103:102'${OK_BODY}${TAIL}`,
      'EDI_TOO_MANY_OCCURRENCES DTM[3]',
    ],
    ['EDI_INVALID_CODE', `${HEAD.replace('BGM+220', 'BGM+221')}${OK_BODY}${TAIL}`, 'EDI_INVALID_CODE BGM[1]/C002/1001'],
  ])('%s', async (_name, text, expected) => {
    expect(await run(text)).toContain(expected);
  });

  it('reports guide code violations as errors at the map level with the association as version', async () => {
    const [finding] = validateMap(
      buildMessage(`${HEAD.replace('BGM+220', 'BGM+221')}${OK_BODY}${TAIL}`),
      guide,
      await getTestDirectory('D96A'),
    );
    expect(finding).toMatchObject({
      code: 'EDI_INVALID_CODE',
      severity: 'error',
      level: 'map',
      version: 'TEST01',
      actual: '221',
    });
  });

  it('does not repeat what the directory already requires', async () => {
    // BGM and UNS are mandatory in the directory: missing, they are the specification level's findings.
    expect(await run(`UNH+1+ORDERS:D:96A:UN:TEST01'DTM+137:20240101:102'${OK_BODY}UNT+9+1'`)).toEqual([]);
  });
});

describe('guides', () => {
  it('parses and rejects guide files with clear problems', () => {
    expect(parseGuide(guide)).toEqual({ guide });
    expect(parseGuide({ format: 'x', segments: { BGM: { status: 'Q', min: -1 } } })).toEqual({
      problems: expect.arrayContaining([
        'format must be "edifact-guide/1"',
        'segments.BGM.status',
        'segments.BGM.min must be a whole number',
      ]),
    });
  });

  it('ships EANCOM 97 and 2002 guides for the seven messages, every key resolving in the directory', async () => {
    const { guides, problems } = await readGuideFolder(builtInGuidesPath());
    expect(problems).toEqual([]);
    const covered = guides.map((g) => `${g.directory} ${g.message}`).sort();
    for (const directory of ['D96A', 'D01B']) {
      for (const type of ['APERAK', 'DESADV', 'INVOIC', 'ORDERS', 'ORDRSP', 'PRICAT', 'RECADV']) {
        expect(covered).toContain(`${directory} ${type}`);
      }
    }
    for (const g of guides) {
      expect(findUnresolvedGuideKeys(g, await getTestDirectory(g.directory as 'D96A' | 'D01B')), g.id).toEqual([]);
    }
    const index = await loadGuides();
    expect(index.find('ORDERS', 'D96A', 'EAN008')?.id).toBe('EANCOM97-ORDERS');
    expect(index.find('INVOIC', 'D01B', 'EAN011')?.id).toBe('EANCOM2002-INVOIC');
    expect(index.find('ORDERS', 'D96A', undefined)).toBeUndefined();
  });

  it('lets a later guide for the same association override a shipped one', () => {
    const index = indexGuides([guide, { ...guide, id: 'RETAILER-ORDERS' }]);
    expect(index.find('ORDERS', 'D96A', 'TEST01')?.id).toBe('RETAILER-ORDERS');
  });

  it('runs as a plugin only for messages with a guide', async () => {
    const level = createMapLevel({
      guides: indexGuides([guide]),
      directories: createMemoryDirectoryProvider([await getTestDirectory('D96A')]),
    });
    const context = { previous: [] } as unknown as MessageContext;
    expect(
      level.validateMessage(buildMessage(`${HEAD.replace('BGM+220', 'BGM+221')}${OK_BODY}${TAIL}`), context),
    ).toHaveLength(1);
    expect(level.validateMessage(buildMessage(`${HEAD.replace('TEST01', 'OTHER')}${TAIL}`), context)).toEqual([]);
  });
});
