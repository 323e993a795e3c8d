/**
 * The shipped EANCOM guides against the UN directories they narrow: a guide may only narrow its directory, never
 * name a node, element or code the directory lacks, allow more repetitions than it, or forbid what it requires.
 */
import { describe, expect, it } from 'vitest';
import type { Directory, StructureNodeDef } from '../../src/directory/types.ts';
import type { Guide } from '../../src/map/guide.ts';
import { findUnresolvedGuideKeys } from '../../src/map/map-level.ts';
import { builtInGuidesPath, readGuideFolder } from '../../src/map/node/load-guides.ts';
import { getTestDirectory } from '../directory/helpers.ts';

/** A shipped guide may list the codes GS1 adds to a UN code list (EANCOM's "EAN codes", e.g. BGM 1001 50E). */
type ShippedGuide = Guide & { gs1Codes?: Record<string, string[]> };

type Node = { key: string; def: StructureNodeDef; parent: string | undefined };

/** The guide keys of a directory message, as the map level resolves them (`SG2`, `BGM`, `SG2/NAD`, `DTM#2`). */
const nodesOf = (directory: Directory, type: string): Map<string, Node> => {
  const nodes = new Map<string, Node>();
  const seen = new Map<string, number>();
  const walk = (children: readonly StructureNodeDef[], group: string | undefined): void => {
    for (const def of children) {
      const base = def.kind === 'group' ? def.name : group ? `${group}/${def.tag}` : def.tag;
      const nth = (seen.get(base) ?? 0) + 1;
      seen.set(base, nth);
      const key = nth === 1 ? base : `${base}#${nth}`;
      nodes.set(key, { key, def, parent: group });
      if (def.kind === 'group') walk(def.children, def.name);
    }
  };
  walk(directory.messages[type]?.children ?? [], undefined);
  return nodes;
};

/** The data element an element key names (`C506/1153` → 1153, `4183#2` → 4183), and whether it is mandatory. */
const elementOf = (directory: Directory, tag: string, key: string): { id: string; mandatory: boolean } | undefined => {
  const [outer = '', inner] = key.split('/');
  const [outerId = '', outerNth = '1'] = outer.split('#');
  const elements = directory.segments[tag]?.elements ?? [];
  const def = elements.filter((e) => e.id === outerId)[Number(outerNth) - 1];
  if (!def) return undefined;
  if (inner === undefined) return { id: def.id, mandatory: def.status === 'M' };
  const [innerId = '', innerNth = '1'] = inner.split('#');
  const component = directory.composites[def.id]?.components.filter((c) => c.id === innerId)[Number(innerNth) - 1];
  return component ? { id: component.id, mandatory: def.status === 'M' && component.status === 'M' } : undefined;
};

/** Every way a guide fails to be a narrowing of its directory message. */
const problemsOf = (guide: ShippedGuide, directory: Directory): string[] => {
  const problems = findUnresolvedGuideKeys(guide, directory).map((key) => `unresolved ${key}`);
  const nodes = nodesOf(directory, guide.message);
  const used = (key: string): boolean => {
    const rule = guide.segments[key];
    return rule ? rule.status !== 'N' : !guide.closed;
  };
  const gs1Used = new Set<string>();
  for (const [key, rule] of Object.entries(guide.segments)) {
    const node = nodes.get(key);
    if (!node) continue;
    const { def } = node;
    if (rule.max !== undefined && rule.max > def.max) problems.push(`${key}: max ${rule.max} > directory ${def.max}`);
    if (rule.min !== undefined && rule.min > (rule.max ?? def.max)) problems.push(`${key}: min ${rule.min} > max`);
    if (rule.status === 'N' && def.status === 'M' && (!node.parent || used(node.parent))) {
      problems.push(`${key}: not used, but mandatory in the directory`);
    }
    if (node.parent && rule.status !== 'N' && !used(node.parent))
      problems.push(`${key}: used in a group the guide does not use`);
    if (def.kind === 'group' && rule.status !== 'N') {
      const trigger = def.children[0];
      const triggerKey = trigger && trigger.kind === 'segment' ? `${def.name}/${trigger.tag}` : '';
      if (!used(triggerKey)) problems.push(`${key}: used, but its trigger segment ${triggerKey} is not`);
    }
    for (const [elementKey, element] of Object.entries(rule.elements ?? {})) {
      if (def.kind !== 'segment') continue;
      const resolved = elementOf(directory, def.tag, elementKey);
      if (!resolved) continue; // reported as unresolved
      if (element.status === 'N' && resolved.mandatory)
        problems.push(`${key}:${elementKey}: not used, but mandatory in the directory`);
      const list = directory.codes[resolved.id];
      if (list && !element.codes && guide.gs1Codes?.[resolved.id]) {
        // A list the guide leaves open: its GS1 codes are declared in gs1Codes only (PCI 4233 33E).
        for (const code of guide.gs1Codes[resolved.id] ?? []) gs1Used.add(`${resolved.id} ${code}`);
      }
      if (!list || !element.codes) continue;
      for (const code of element.codes) {
        if (code in list) continue;
        if (guide.gs1Codes?.[resolved.id]?.includes(code)) gs1Used.add(`${resolved.id} ${code}`);
        else problems.push(`${key}:${elementKey}: code ${code} not in UNCL ${resolved.id} of ${directory.name}`);
      }
    }
  }
  for (const [id, codes] of Object.entries(guide.gs1Codes ?? {})) {
    for (const code of codes) {
      if (directory.codes[id] && code in directory.codes[id])
        problems.push(`gs1Codes ${id} ${code}: in the UN list, no need to list it`);
      else if (!gs1Used.has(`${id} ${code}`))
        problems.push(`gs1Codes ${id} ${code}: not used by any rule nor by an element that leaves its list open`);
    }
  }
  if (guide.closed) {
    // A closed guide must list every node the directory makes mandatory where the guide uses its parent.
    for (const node of nodes.values()) {
      if (node.def.status === 'M' && (!node.parent || used(node.parent)) && !used(node.key)) {
        problems.push(`${node.key}: mandatory in the directory, not listed in a closed guide`);
      }
    }
  }
  return problems;
};

describe('shipped guides narrow their directory', async () => {
  const { guides, problems } = await readGuideFolder(builtInGuidesPath());

  it('all parse', () => {
    expect(problems).toEqual([]);
    expect(guides.length).toBeGreaterThanOrEqual(14);
  });

  it.each(guides.map((g) => [g.id, g] as const))('%s', async (_id, guide) => {
    const directory = await getTestDirectory(guide.directory as 'D96A' | 'D01B');
    expect(directory.messages[guide.message], `${guide.message} in ${guide.directory}`).toBeDefined();
    expect(problemsOf(guide, directory)).toEqual([]);
  });

  it('catches a guide that names what the directory lacks', async () => {
    const directory = await getTestDirectory('D96A');
    const broken: ShippedGuide = {
      format: 'edifact-guide/1',
      id: 'BROKEN',
      message: 'ORDERS',
      directory: 'D96A',
      associations: ['X'],
      closed: true,
      gs1Codes: { '1001': ['220', '99E'] },
      segments: {
        UNH: { status: 'M' },
        BGM: {
          status: 'M',
          elements: { 'C002/1001': { codes: ['220', 'ZZZZ'] }, '9999': { status: 'R' }, '1004': { status: 'N' } },
        },
        DTM: { status: 'M', max: 99 },
        SG99: { status: 'O' },
        'SG2/NAD': { status: 'M' },
        SG3: { status: 'O' },
        SG25: { status: 'O' },
        UNS: { status: 'N' },
        UNT: { status: 'M' },
      },
    };
    expect(problemsOf(broken, directory)).toEqual(
      expect.arrayContaining([
        'unresolved SG99',
        'unresolved BGM:9999',
        'DTM: max 99 > directory 35',
        'BGM:C002/1001: code ZZZZ not in UNCL 1001 of D96A',
        'gs1Codes 1001 220: in the UN list, no need to list it',
        'gs1Codes 1001 99E: not used by any rule nor by an element that leaves its list open',
        'UNS: not used, but mandatory in the directory',
        'SG2/NAD: used in a group the guide does not use',
        'SG3: used in a group the guide does not use',
        'SG25: used, but its trigger segment SG25/LIN is not',
      ]),
    );
  });
});
