/**
 * Level 3, map: a message against its implementation guide (e.g. EANCOM), chosen by UNH S009 0057. Reports only
 * what the guide adds to the directory (required where the directory says conditional, not used, fewer
 * repetitions, restricted code lists), so the specification level's findings are not repeated. Never throws.
 */
import type { Directory, DirectoryProvider } from '../directory/types.ts';
import type { MessageContext, ValidationLevelPlugin } from '../levels.ts';
import type { Finding, Message, Segment } from '../model.ts';
import { CappedFindings, MAX_FINDINGS_PER_MESSAGE } from '../findings.ts';
import {
  CodeSet,
  compileMessage,
  compileSegment,
  type CompiledMessage,
  type CompiledNode,
  type CompiledSegment,
} from '../spec/compile.ts';
import { directoryName, findingFactory, segmentName, type FindingFactory } from '../spec/specification.ts';
import { ShapeCache, shapeKeyOfCodes } from '../spec/shapes.ts';
import { SegmentTableWalker, walkScanned, type ScreenWalkListener } from '../spec/walker.ts';
import { withScreen, type ScannedMessage } from '../screen.ts';
import type { Guide, GuideElementRule, GuideIndex, GuideStatus } from './guide.ts';
import type { CodeAllowanceMessage } from '../levels.ts';

type ElementRule = {
  key: string;
  /** `key` without occurrence numbers (`4183#2` → `4183`): what paths and parameters show. */
  id: string;
  element: number;
  component: number;
  status: GuideStatus | undefined;
  codes: ReadonlySet<string> | undefined;
  /** `codes` as a finding shows them (joined once, not per finding). */
  codesText: string;
  codesParam: string;
  /** `codes` for look-ups of text ranges (the screen). */
  codeSet: CodeSet | undefined;
  name: string;
  directoryMandatory: boolean;
  compositeMandatory: boolean;
};

type NodeRule = { min: number; max: number; forbidden: boolean; elements: ElementRule[] };

/** A required qualifier (Guide.requiredQualifiers) bound to the directory: where to read it, and its codes. */
type QualifierRule = { node: number; value: ElementRule; codes: readonly string[]; tag: string; path: string };

type CompiledGuide = {
  guide: Guide;
  qualifiers: QualifierRule[];
  /** Per node: the indexes in `qualifiers` of the rules read at that segment (most nodes: undefined). */
  qualifiersAt: (number[] | undefined)[];
  message: CompiledMessage;
  rules: (NodeRule | undefined)[];
  unresolved: string[];
  /** Per node: 1 when leaving it can be a finding (a rule with a minimum): the walker calls `closed` for these only. */
  closeMask: Uint8Array;
  /** A walker kept between messages (taken out while in use). */
  walker: SegmentTableWalker | undefined;
  /** Tag sequences whose walk found nothing (the screen's). */
  shapes: ShapeCache<MapShape>;
};

/**
 * A tag sequence whose walk through the guide found nothing, with the element rules of each position and the
 * required qualifiers read there.
 */
type MapShape = {
  codes: Int32Array;
  rules: (readonly ElementRule[] | undefined)[];
  qualifiers: (number[] | undefined)[];
};

const compiledGuides = new WeakMap<Guide, WeakMap<Directory, CompiledGuide | undefined>>();

const isRequired = (status: GuideStatus | undefined): boolean => status === 'M' || status === 'R';

/** Resolves `C002/1001`, `1004`, `4183#2` to positions in the directory's segment definition. */
const resolveElement = (segment: CompiledSegment, key: string, rule: GuideElementRule): ElementRule | undefined => {
  const [outer = '', inner] = key.split('/');
  const [outerId = '', outerNth = '1'] = outer.split('#');
  let seen = 0;
  const element = segment.elements.findIndex((e) => e.id === outerId && ++seen === Number(outerNth));
  const def = segment.elements[element];
  if (!def) return undefined;
  let component = -1;
  let name = def.name;
  let directoryMandatory = def.mandatory;
  if (inner !== undefined) {
    const [innerId = '', innerNth = '1'] = inner.split('#');
    let count = 0;
    component = def.components?.findIndex((c) => c.id === innerId && ++count === Number(innerNth)) ?? -1;
    const componentDef = def.components?.[component];
    if (!componentDef) return undefined;
    name = componentDef.name;
    directoryMandatory = componentDef.mandatory && def.mandatory;
  }
  return {
    key,
    id: key.replace(/#\d+/g, ''),
    element,
    component,
    status: rule.status,
    codes: rule.codes ? new Set(rule.codes) : undefined,
    codesText: rule.codes ? [...new Set(rule.codes)].join(', ') : '',
    codesParam: rule.codes ? [...new Set(rule.codes)].join(',') : '',
    codeSet: rule.codes ? new CodeSet(rule.codes) : undefined,
    name,
    directoryMandatory,
    compositeMandatory: def.mandatory,
  };
};

/** Binds a guide to a directory's compiled message (cached per guide and directory). */
export const compileGuide = (guide: Guide, directory: Directory): CompiledGuide | undefined => {
  let perDirectory = compiledGuides.get(guide);
  if (!perDirectory) {
    perDirectory = new WeakMap();
    compiledGuides.set(guide, perDirectory);
  }
  if (perDirectory.has(directory)) return perDirectory.get(directory);
  const message = compileMessage(directory, guide.message);
  let compiled: CompiledGuide | undefined;
  if (message) {
    const rules: (NodeRule | undefined)[] = message.nodes.map(() => undefined);
    const unresolved: string[] = [];
    const keyOf = new Map<string, number>();
    const seen = new Map<string, number>();
    for (const node of message.nodes) {
      if (node.id === 0) continue;
      const parent = message.nodes[node.parent];
      const base = node.isGroup ? node.name : parent && parent.id !== 0 ? `${parent.name}/${node.name}` : node.name;
      const nth = (seen.get(base) ?? 0) + 1;
      seen.set(base, nth);
      keyOf.set(nth === 1 ? base : `${base}#${nth}`, node.id);
    }
    for (const [key, rule] of Object.entries(guide.segments)) {
      const id = keyOf.get(key);
      const node = id === undefined ? undefined : message.nodes[id];
      if (!node) {
        unresolved.push(key);
        continue;
      }
      const segment = node.isGroup ? undefined : compileSegment(directory, node.tag);
      const elements: ElementRule[] = [];
      for (const [elementKey, elementRule] of Object.entries(rule.elements ?? {})) {
        const resolved = segment ? resolveElement(segment, elementKey, elementRule) : undefined;
        if (resolved) elements.push(resolved);
        else unresolved.push(`${key}:${elementKey}`);
      }
      rules[node.id] = {
        min: rule.min ?? (isRequired(rule.status) ? 1 : 0),
        max: Math.min(rule.max ?? node.max, node.max),
        forbidden: rule.status === 'N',
        elements,
      };
    }
    if (guide.closed) {
      for (const node of message.nodes) {
        if (node.id !== 0 && !rules[node.id]) rules[node.id] = { min: 0, max: 0, forbidden: true, elements: [] };
      }
    }
    const qualifiers: QualifierRule[] = [];
    const qualifiersAt: (number[] | undefined)[] = message.nodes.map(() => undefined);
    for (const q of guide.requiredQualifiers ?? []) {
      const id = keyOf.get(q.segment);
      const node = id === undefined ? undefined : message.nodes[id];
      const segment = node && !node.isGroup ? compileSegment(directory, node.tag) : undefined;
      const value = segment ? resolveElement(segment, q.element, {}) : undefined;
      if (!node || !value) {
        unresolved.push(`requiredQualifiers:${q.segment}:${q.element}`);
        continue;
      }
      (qualifiersAt[node.id] ??= []).push(qualifiers.length);
      qualifiers.push({ node: node.id, value, codes: [...new Set(q.codes)], tag: node.tag, path: q.segment });
    }
    const closeMask = new Uint8Array(message.nodes.length);
    rules.forEach((rule, id) => {
      if (rule && !rule.forbidden && rule.min > 0) closeMask[id] = 1;
    });
    compiled = {
      guide,
      qualifiers,
      qualifiersAt,
      message,
      rules,
      unresolved,
      closeMask,
      walker: undefined,
      shapes: new ShapeCache(),
    };
  }
  perDirectory.set(directory, compiled);
  return compiled;
};

/** The element rules of one segment; its path (`path()`) is built only for a finding. */
const checkElementRules = (
  segment: Segment,
  rules: readonly ElementRule[],
  path: () => string,
  make: FindingFactory,
  findings: CappedFindings,
): void => {
  for (const rule of rules) {
    const element = segment.elements[rule.element];
    const components = element?.components;
    const composite = rule.component >= 0;
    const value = (composite ? components?.[rule.component] : components?.[0]) ?? '';
    const id = rule.id;
    if (value === '') {
      // The specification level already reports a mandatory element, or a mandatory component of a mandatory
      // composite (directoryMandatory).
      if (isRequired(rule.status) && !rule.directoryMandatory) {
        findings.push(
          make(
            composite ? 'EDI_MANDATORY_COMPONENT_MISSING' : 'EDI_MANDATORY_ELEMENT_MISSING',
            segment,
            `${path()}/${id}`,
            {
              fieldName: rule.name,
              params: { element: id, status: rule.status ?? 'R' },
            },
          ),
        );
      }
      continue;
    }
    if (rule.status === 'N') {
      findings.push(
        make(composite ? 'EDI_FORBIDDEN_COMPONENT' : 'EDI_FORBIDDEN_ELEMENT', segment, `${path()}/${id}`, {
          fieldName: rule.name,
          actual: value,
          params: { element: id },
        }),
      );
      continue;
    }
    if (rule.codes && !rule.codes.has(value)) {
      findings.push(
        make('EDI_INVALID_CODE', segment, `${path()}/${id}`, {
          severity: 'error',
          fieldName: rule.name,
          expected: rule.codesText,
          actual: value,
          params: { element: id, codes: rule.codesParam },
        }),
      );
    }
  }
};

/**
 * Validates one message against a guide. Returns no findings when the guide does not fit the directory. At most
 * `limits.maxFindings` (default and upper bound `MAX_FINDINGS_PER_MESSAGE`) are returned, the first by position;
 * the others are counted with `limits.omit`.
 */
export const validateMap = (
  message: Message,
  guide: Guide,
  directory: Directory,
  limits: Pick<MessageContext, 'maxFindings' | 'omit'> = {},
): Finding[] => {
  const compiled = compileGuide(guide, directory);
  if (!compiled || compiled.message.type !== message.type) return [];
  const make = findingFactory(message, 'map', message.association ?? guide.id);
  const findings = new CappedFindings(
    Math.max(0, Math.min(limits.maxFindings ?? MAX_FINDINGS_PER_MESSAGE, MAX_FINDINGS_PER_MESSAGE)),
  );
  const { rules } = compiled;
  // One walker per compiled guide, reset for each message (taken out while in use, so re-entry gets its own).
  const walker = compiled.walker ?? new SegmentTableWalker(compiled.message, compiled.closeMask);
  compiled.walker = undefined;
  walker.reset();
  const { qualifiers, qualifiersAt } = compiled;
  // Per required qualifier, the codes seen (a message has few qualified segments and a rule few codes).
  const seen = qualifiers.map(() => new Set<string>());
  const listener = {
    placed(segment: Segment, node: CompiledMessage['nodes'][number], count: number) {
      const at = qualifiersAt[node.id];
      if (at !== undefined) {
        for (const q of at) {
          const rule = (qualifiers[q] as QualifierRule).value;
          const components = segment.elements[rule.element]?.components;
          const value = components?.[rule.component >= 0 ? rule.component : 0];
          if (value) seen[q]?.add(value);
        }
      }
      const rule = rules[node.id];
      if (!rule) return;
      if (rule.forbidden) {
        if (count === 1 || !node.isGroup) {
          findings.push(
            make('EDI_FORBIDDEN_SEGMENT', segment, walker.nodePath(node, count), {
              fieldName: node.isGroup ? node.name : segmentName(directory, node.tag),
              actual: segment.tag,
              params: { segment: node.name },
            }),
          );
        }
        return;
      }
      if (count > rule.max && count <= node.max) {
        findings.push(
          make('EDI_TOO_MANY_OCCURRENCES', segment, walker.nodePath(node, count), {
            fieldName: node.isGroup ? node.name : segmentName(directory, node.tag),
            params: { segment: node.name, max: rule.max, count },
          }),
        );
      }
      if (!node.isGroup && rule.elements.length > 0) {
        checkElementRules(segment, rule.elements, () => walker.nodePath(node, count), make, findings);
      }
    },
    closed(node: CompiledMessage['nodes'][number], count: number, at: Segment) {
      const rule = rules[node.id];
      if (!rule || rule.forbidden || count >= rule.min) return;
      if (count === 0 && node.mandatory) return; // the specification level reports it
      findings.push(
        make(count === 0 ? 'EDI_MANDATORY_SEGMENT_MISSING' : 'EDI_TOO_FEW_OCCURRENCES', at, walker.nodePath(node), {
          fieldName: node.isGroup ? node.name : segmentName(directory, node.tag),
          expected: node.isGroup ? `${node.name} (${node.tag})` : node.tag,
          params: { segment: node.name, min: rule.min, count },
        }),
      );
    },
    unplaced() {
      // Out-of-place segments are the specification level's finding.
    },
  };
  for (const segment of message.segments) walker.push(segment, listener);
  const last = message.segments[message.segments.length - 1] ?? message.header;
  walker.end(last, listener);
  compiled.walker = walker;
  qualifiers.forEach((q, i) => {
    for (const code of q.codes) {
      if (seen[i]?.has(code)) continue;
      // Reported where the message ends: the segment is missing, so there is no place of its own.
      findings.push(
        make('EDI_REQUIRED_QUALIFIER_MISSING', last, q.path, {
          fieldName: segmentName(directory, q.tag),
          expected: `${q.tag} ${q.value.id} = ${code}`,
          params: { segment: q.tag, element: q.value.id, code },
        }),
      );
    }
  });
  return findings.finish(limits.omit);
};

/**
 * The screen of the map level (see screen.ts): true when `validateMap` would find nothing in the scanned message.
 * Walks the guide's segment table once per tag sequence (kept as a MapShape), then checks each segment's element
 * rules on the text ranges the scan recorded.
 */
export const screenMap = (m: ScannedMessage, guide: Guide, directory: Directory): boolean => {
  const compiled = compileGuide(guide, directory);
  if (!compiled || compiled.message.type !== m.type) return true;
  const n = m.count;
  const key = shapeKeyOfCodes(m.codes, n);
  const shape = compiled.shapes.find(key, m.codes, n) ?? walkMapShape(m, compiled, key);
  if (shape === undefined) return false;
  for (let i = 0; i < n; i++) {
    const rules = shape.rules[i];
    if (rules !== undefined && !screenElementRules(m, i, rules)) return false;
  }
  return compiled.qualifiers.length === 0 || screenQualifiers(m, compiled.qualifiers, shape.qualifiers);
};

/** The required qualifiers' check of validateMap as a yes/no question: every code of every rule seen. */
const screenQualifiers = (
  m: ScannedMessage,
  qualifiers: readonly QualifierRule[],
  at: readonly (number[] | undefined)[],
): boolean => {
  const seen = qualifiers.map(() => new Set<string>());
  for (let i = 0; i < m.count; i++) {
    const list = at[i];
    if (list === undefined) continue;
    for (const q of list) {
      valueRange(m, i, (qualifiers[q] as QualifierRule).value);
      if (rangeEnd > rangeStart) seen[q]?.add(m.text.slice(rangeStart, rangeEnd));
    }
  }
  return qualifiers.every((q, i) => q.codes.every((code) => seen[i]?.has(code)));
};

/** validateMap's walk as a yes/no question: the shape when it finds nothing (kept while there is room). */
const walkMapShape = (m: ScannedMessage, compiled: CompiledGuide, key: number): MapShape | undefined => {
  const walker = compiled.walker ?? new SegmentTableWalker(compiled.message, compiled.closeMask);
  compiled.walker = undefined;
  const walk = new MapShapeWalk(compiled.rules, compiled.qualifiersAt, m.count);
  const ok = walkScanned(walker, m, walk);
  compiled.walker = walker;
  if (!ok) return undefined;
  const shape: MapShape = { codes: m.codes.slice(0, m.count), rules: walk.rules, qualifiers: walk.qualifiers };
  compiled.shapes.add(key, shape);
  return shape;
};

/** validateMap's walk listener, without the findings: whether there are any, and each position's element rules. */
class MapShapeWalk implements ScreenWalkListener {
  ok = true;
  position = 0;
  readonly rules: (readonly ElementRule[] | undefined)[];
  readonly qualifiers: (number[] | undefined)[];

  constructor(
    private readonly nodeRules: readonly (NodeRule | undefined)[],
    private readonly qualifiersAt: readonly (number[] | undefined)[],
    n: number,
  ) {
    this.rules = new Array<readonly ElementRule[] | undefined>(n).fill(undefined);
    this.qualifiers = new Array<number[] | undefined>(n).fill(undefined);
  }

  placed(_segment: Segment, node: CompiledNode, count: number): void {
    const at = this.qualifiersAt[node.id];
    if (at !== undefined) this.qualifiers[this.position] = at;
    const rule = this.nodeRules[node.id];
    if (!rule) return;
    if (rule.forbidden) {
      if (count === 1 || !node.isGroup) this.ok = false;
      return;
    }
    if (count > rule.max && count <= node.max) this.ok = false;
    if (!node.isGroup && rule.elements.length > 0) this.rules[this.position] = rule.elements;
  }

  closed(node: CompiledNode, count: number): void {
    const rule = this.nodeRules[node.id];
    if (!rule || rule.forbidden || count >= rule.min) return;
    if (count === 0 && node.mandatory) return;
    this.ok = false;
  }

  unplaced(): void {
    // The specification level's finding (and its screen's).
  }
}

/** screenElementRules' scratch: indexes in seps of the element separators of one segment. */
let elementSeps = new Int32Array(64);

/** checkElementRules as a yes/no question, on the text ranges of segment `i` of a scanned message. */
const screenElementRules = (m: ScannedMessage, i: number, rules: readonly ElementRule[]): boolean => {
  const seps = m.seps;
  const from = m.sepStarts[i] as number;
  const to = m.sepStarts[i + 1] as number;
  // Where each element's separator is among seps (element separators are the entries >= 0).
  let elements = 0;
  for (let k = from; k < to; k++) {
    if ((seps[k] as number) < 0) continue;
    if (elements === elementSeps.length) {
      const bigger = new Int32Array(elements * 2);
      bigger.set(elementSeps);
      elementSeps = bigger;
    }
    elementSeps[elements++] = k;
  }
  for (const rule of rules) {
    rangeOf(m, i, rule, elements, to);
    const start = rangeStart;
    const end = rangeEnd;
    if (end === start) {
      if (isRequired(rule.status) && !rule.directoryMandatory) return false;
      continue;
    }
    if (rule.status === 'N') return false;
    if (rule.codeSet !== undefined && !rule.codeSet.hasRange(m.text, start, end)) return false;
  }
  return true;
};

/** rangeOf's answer: the text range of a rule's value (empty when absent). */
let rangeStart = 0;
let rangeEnd = 0;

/** The range of a rule's value in segment `i`, whose element separators are elementSeps[0, elements). */
const rangeOf = (m: ScannedMessage, i: number, rule: ElementRule, elements: number, to: number): void => {
  const seps = m.seps;
  // The element, then the component after its component separators.
  const k = rule.element < elements ? (elementSeps[rule.element] as number) : to;
  let start = 0;
  let end = 0;
  if (k < to) {
    start = (seps[k] as number) + 1;
    let j = k + 1;
    let present = true;
    for (let c = 0; c < rule.component; c++) {
      if (j < to && (seps[j] as number) < 0) start = ~(seps[j++] as number) + 1;
      else {
        present = false;
        break;
      }
    }
    if (present) {
      const next = j < to ? (seps[j] as number) : ~(m.ends[i] as number);
      end = next < 0 ? ~next : next;
    } else end = start;
  }
  rangeStart = start;
  rangeEnd = end;
};

/** rangeOf for one rule of segment `i` (finds the element separators first). */
const valueRange = (m: ScannedMessage, i: number, rule: ElementRule): void => {
  const seps = m.seps;
  const from = m.sepStarts[i] as number;
  const to = m.sepStarts[i + 1] as number;
  let elements = 0;
  for (let k = from; k < to && elements <= rule.element; k++) {
    if ((seps[k] as number) < 0) continue;
    if (elements === elementSeps.length) {
      const bigger = new Int32Array(elements * 2);
      bigger.set(elementSeps);
      elementSeps = bigger;
    }
    elementSeps[elements++] = k;
  }
  rangeOf(m, i, rule, elements, to);
};

/** The codes a guide's element rules allow, by data element id (`7143` → EN, UP, SRV), for allowsCode. */
const allowedCodes = new WeakMap<Guide, Map<string, Set<string>>>();

const allowedCodesOf = (guide: Guide): Map<string, Set<string>> => {
  let allowed = allowedCodes.get(guide);
  if (allowed === undefined) {
    allowed = new Map();
    for (const rule of Object.values(guide.segments)) {
      for (const [key, element] of Object.entries(rule.elements ?? {})) {
        if (!element.codes) continue;
        const id = (key.split('/').pop() ?? key).replace(/#\d+$/, '');
        let set = allowed.get(id);
        if (set === undefined) allowed.set(id, (set = new Set()));
        for (const code of element.codes) set.add(code);
      }
    }
    for (const [id, codes] of Object.entries(guide.gs1Codes ?? {})) {
      let set = allowed.get(id);
      if (set === undefined) allowed.set(id, (set = new Set()));
      for (const code of codes) set.add(code);
    }
    allowedCodes.set(guide, allowed);
  }
  return allowed;
};

/** Options of the map level plugin. */
export type MapLevelOptions = { guides: GuideIndex; directories: DirectoryProvider };

/**
 * The map level as a plugin. A message without an association code, or with one no guide covers, gets no map
 * findings; so does a message the specification level found unsupported.
 */
export const createMapLevel = (options: MapLevelOptions): ValidationLevelPlugin => {
  const { guides, directories } = options;
  const run = (message: Message, context: MessageContext, directory: Directory | undefined): Finding[] => {
    if (!directory || context.previous.some((f) => f.code === 'EDI_UNSUPPORTED_MESSAGE')) return [];
    const guide = guides.find(message.type, directoryName(message), message.association, message.agency);
    return guide ? validateMap(message, guide, directory, context) : [];
  };
  const level: ValidationLevelPlugin = {
    name: 'map',
    level: 'map',
    allowsCode(message: CodeAllowanceMessage, element: string, code: string): boolean {
      if (!message.association) return false;
      const name = `${message.version}${message.release}`.toUpperCase();
      const guide = guides.find(message.type, name, message.association, message.agency);
      return guide !== undefined && (allowedCodesOf(guide).get(element)?.has(code) ?? false);
    },
    async prepare(message) {
      await directories.load(directoryName(message)).catch(() => undefined);
    },
    validateMessage(message, context) {
      if (!guides.find(message.type, directoryName(message), message.association, message.agency)) return [];
      const ready = directories.get(directoryName(message));
      if (ready) return run(message, context, ready);
      return directories.load(directoryName(message)).then(
        (directory) => run(message, context, directory),
        () => [],
      );
    },
  };
  return withScreen(level, (message) => {
    const name = message.version + message.release;
    const guide = message.association
      ? guides.find(message.type, name, message.association, message.agency)
      : undefined;
    if (!guide) return true;
    const directory = directories.get(name);
    return directory !== undefined && screenMap(message, guide, directory);
  });
};

/** The guide keys and element keys that do not exist in the directory (for checking a guide file). */
export const findUnresolvedGuideKeys = (guide: Guide, directory: Directory): string[] =>
  compileGuide(guide, directory)?.unresolved ?? [`message ${guide.message} not in ${directory.name}`];
