/**
 * The shipped EANCOM guides on small messages written after GS1's own examples: a conforming message gets no map
 * finding; what EANCOM narrows (segments it does not use, elements marked N, required elements, restricted code
 * lists, GS1's own codes) is reported.
 */
import { describe, expect, it } from 'vitest';
import type { GuideIndex } from '../../src/map/guide.ts';
import { validateMap } from '../../src/map/map-level.ts';
import { loadGuides } from '../../src/map/node/load-guides.ts';
import { getTestDirectory } from '../directory/helpers.ts';
import { buildMessage } from '../spec/build-message.ts';

let index: GuideIndex | undefined;

const run = async (text: string): Promise<string[]> => {
  index ??= await loadGuides();
  const message = buildMessage(text);
  const guide = index.find(message.type, message.directory, message.association, message.agency);
  if (!guide) throw new Error(`no guide for ${message.type} ${message.directory} ${message.association ?? ''}`);
  const directory = await getTestDirectory(message.directory as 'D96A' | 'D01B');
  return validateMap(message, guide, directory).map(
    (f) => `${f.code} ${f.path}${f.actual === undefined ? '' : ` ${f.actual}`}`,
  );
};

const ORDERS_97 = [
  "UNH+ME000001+ORDERS:D:96A:UN:EAN008'",
  "BGM+220+128576+9'",
  "DTM+137:19970330:102'",
  "DTM+2:19970410:102'",
  "RFF+CT:652744'",
  "DTM+171:19970101:102'",
  "NAD+BY+5412345000013::9'",
  "RFF+VA:4012345500004'",
  "NAD+SU+4012345500004::9'",
  "NAD+DP+5412345000020::9'",
  "CUX+2:EUR:9'",
  "LIN+1++4000862141404:EN'",
  "PIA+1+ABC1234:SA'",
  "IMD+C++TU::9'",
  "QTY+21:48'",
  "PRI+AAA:27.5:CT:AAA'",
  "LIN+2++5412345111115:EN'",
  "QTY+21:12'",
  "UNS+S'",
  "CNT+2:2'",
  "UNT+20+ME000001'",
];

const INVOIC_2002 = [
  "UNH+ME000001+INVOIC:D:01B:UN:EAN011'",
  "BGM+380+IN432097+9'",
  "DTM+137:20020308:102'",
  "DTM+35:20020301:102'",
  "RFF+ON:ORD9523'",
  "NAD+SU+4012345500004::9'",
  "RFF+VA:4012345500004'",
  "NAD+BY+5412345000013::9'",
  "TAX+7+VAT+++:::21+S'",
  "CUX+2:EUR:4'",
  "PAT+1++5:3:D:30'",
  "LIN+1++5412345111115:SRV'",
  "QTY+47:40'",
  "MOA+203:1000'",
  "PRI+AAA:25'",
  "TAX+7+VAT+++:::21+S'",
  "UNS+S'",
  "CNT+2:1'",
  "MOA+77:1210'",
  "MOA+79:1000'",
  "MOA+124:210'",
  "TAX+7+VAT+++:::21+S'",
  "MOA+124:210'",
  "UNT+24+ME000001'",
];

const replace = (lines: string[], from: string, to: string | string[]): string => {
  const at = lines.indexOf(from);
  if (at < 0) throw new Error(`no line ${from}`);
  return [...lines.slice(0, at), ...(Array.isArray(to) ? to : [to]), ...lines.slice(at + 1)].join('');
};

describe('EANCOM 97 ORDERS (EAN008)', () => {
  it("accepts a message written after GS1's example", async () => {
    expect(await run(ORDERS_97.join(''))).toEqual([]);
  });

  it('reports a group EANCOM does not use (closed guide)', async () => {
    const text = replace(ORDERS_97, "QTY+21:12'", ["QTY+21:12'", "CCI+++HUE'"]);
    expect(await run(text)).toContain('EDI_FORBIDDEN_SEGMENT SG25[2]/SG26[1] CCI');
  });

  it('reports an element EANCOM marks not used', async () => {
    const text = replace(ORDERS_97, "NAD+DP+5412345000020::9'", "NAD+DP+5412345000020::9+DELIVERY POINT 7'");
    expect(await run(text)).toContain('EDI_FORBIDDEN_ELEMENT SG2[3]/NAD[1]/C058 DELIVERY POINT 7');
  });

  it('reports a required element missing and a code outside the restricted list', async () => {
    expect(await run(replace(ORDERS_97, "BGM+220+128576+9'", "BGM+220+128576'"))).toContain(
      'EDI_MANDATORY_ELEMENT_MISSING BGM[1]/1225',
    );
    expect(await run(replace(ORDERS_97, "BGM+220+128576+9'", "BGM+380+128576+9'"))).toContain(
      'EDI_INVALID_CODE BGM[1]/C002/1001 380',
    );
    expect(await run(replace(ORDERS_97, "QTY+21:48'", "QTY+47:48'"))).toEqual([]);
    expect(await run(replace(ORDERS_97, "QTY+21:48'", "QTY+46:48'"))).toContain(
      'EDI_INVALID_CODE SG25[1]/QTY[1]/C186/6063 46',
    );
  });

  it('accepts the codes GS1 adds to the UN list (EAN codes)', async () => {
    expect(await run(replace(ORDERS_97, "BGM+220+128576+9'", "BGM+50E::9+128576+9'"))).toEqual([]);
    expect(await run(replace(ORDERS_97, "LIN+2++5412345111115:EN'", "LIN+2++5412345111115:SRV'"))).toEqual([]);
  });

  it('requires the parties group twice (buyer and supplier)', async () => {
    const text = ORDERS_97.filter((l) => !l.startsWith('NAD+SU') && !l.startsWith('NAD+DP')).join('');
    expect(await run(text)).toContain('EDI_TOO_FEW_OCCURRENCES SG2');
  });
});

describe('EANCOM 2002 INVOIC (EAN011)', () => {
  it("accepts a message written after GS1's example", async () => {
    expect(await run(INVOIC_2002.join(''))).toEqual([]);
  });

  it('narrows qualifiers and occurrences', async () => {
    expect(await run(replace(INVOIC_2002, "BGM+380+IN432097+9'", "BGM+220+IN432097+9'"))).toContain(
      'EDI_INVALID_CODE BGM[1]/C002/1001 220',
    );
    expect(await run(replace(INVOIC_2002, "TAX+7+VAT+++:::21+S'", "TAX+7+XYZ+++:::21+S'"))).toContain(
      'EDI_INVALID_CODE SG6[1]/TAX[1]/C241/5153 XYZ',
    );
    expect(await run(replace(INVOIC_2002, "LIN+1++5412345111115:SRV'", "LIN+1++5412345111115:SRV'PCD+1:5'"))).toContain(
      'EDI_FORBIDDEN_SEGMENT SG26[1]/PCD[1] PCD',
    );
  });
});

describe('EANCOM 97 DESADV (EAN005)', () => {
  const DESADV = [
    "UNH+ME000001+DESADV:D:96A:UN:EAN005'",
    "BGM+351+DES587441+9'",
    "DTM+137:19970812:102'",
    "DTM+11:19970812:102'",
    "RFF+ON:ORD1234'",
    "NAD+BY+5412345000013::9'",
    "NAD+SU+4012345500004::9'",
    "NAD+DP+5412345000020::9'",
    "CPS+1'",
    "PAC+1++201'",
    "PCI+33E'",
    "GIN+BJ+354123450000000014'",
    "LIN+1++5412345111115:EN'",
    "QTY+12:40'",
    "CNT+2:1'",
    "UNT+16+ME000001'",
  ];

  it("accepts GS1's returns advice code and a conforming consignment", async () => {
    expect(await run(DESADV.join(''))).toEqual([]);
    expect(await run(replace(DESADV, "BGM+351+DES587441+9'", "BGM+35E::9+DES587441+9'"))).toEqual([]);
  });

  it("reports a party qualifier outside EANCOM's list", async () => {
    expect(await run(replace(DESADV, "NAD+DP+5412345000020::9'", "NAD+SH+5412345000020::9'"))).toContain(
      'EDI_INVALID_CODE SG2[3]/NAD[1]/3035 SH',
    );
  });
});
