/**
 * Compiles a message's segment table into flat arrays for the segment-table state machine, and segment
 * definitions into element checks. Compiled once per directory and message type (cached on the directory
 * object), so validating a message does no table look-ups by name beyond one Map per segment.
 */
import type { Directory, StructureNodeDef } from '../directory/types.ts';
import { parseFormat, type ValueFormat } from './format.ts';
import { ShapeCache } from './shapes.ts';
import { work } from '../work.ts';

/** A node of the compiled segment table: a segment, or a group (whose `tag` is its trigger segment's tag). */
export type CompiledNode = {
  id: number;
  isGroup: boolean;
  /** Segment tag, or the group's trigger segment tag. */
  tag: string;
  /** `BGM` or `SG2`. */
  name: string;
  position: string;
  mandatory: boolean;
  max: number;
  parent: number;
  /** Index among the parent's children. */
  index: number;
  /** Child node ids (groups only). */
  children: number[];
  /** A service segment (UNH, UNT, UNS…): placed, its elements checked by the syntax level. */
  service: boolean;
};

/** Where a segment tag leads from a place in the table: leave `up` groups, then take child `index`. */
export type Transition = { up: number; index: number };

/** A message's compiled segment table. Node 0 is the message itself (a group without a tag). */
export type CompiledMessage = {
  type: string;
  nodes: CompiledNode[];
  /** Per node: the transitions found so far, by tag (`null`: the tag is not expected from there). */
  inclusive: Map<string, Transition | null>[];
  exclusive: Map<string, Transition | null>[];
  /** Per node: the tag of the last inclusive look-up and its answer. */
  lastTag: string[];
  lastTransition: (Transition | null)[];
  /** Per node: 1 when the specification level reports it missing (mandatory, not UNH/UNT). */
  mandatoryMask: Uint8Array;
  /** Per segment node: its compiled element checks (false: not in the directory; undefined: not looked up yet). */
  segmentDefs: (CompiledSegment | false | undefined)[];
  /** Tag sequences whose walk found nothing (see MessageShape). */
  shapes: ShapeCache<MessageShape>;
};

/**
 * A message's tag sequence whose walk through the segment table found nothing (no missing, unexpected or too many
 * segments), with the definition each segment's elements were checked against (false: none). The walk depends on
 * the tags alone, so a message with the same tags needs no walk unless its elements have something to report.
 */
export type MessageShape = {
  tags: string[];
  /** The tags as tagCode gives them (what the screen compares). */
  codes: Int32Array;
  defs: (CompiledSegment | false)[];
};

/**
 * A code list compiled for look-ups of fresh strings: codes of up to 4 ASCII characters (nearly all of them) are
 * packed into a small integer, so a look-up hashes a number inline instead of a new string in the runtime.
 */
export class CodeSet {
  private readonly short = new Set<number>();
  private readonly long = new Set<string>();
  /** The codes in list order, for what a finding shows as expected. */
  private readonly list: string[];

  constructor(codes: Iterable<string>) {
    this.list = [...codes];
    for (const code of this.list) {
      const key = CodeSet.pack(code);
      if (key >= 0) this.short.add(key);
      else this.long.add(code);
    }
  }

  /** `1` followed by 7 bits per character (so lengths stay apart): below 2^29, a small integer. -1 otherwise. */
  private static pack(value: string): number {
    const n = value.length;
    if (n === 0 || n > 4) return -1;
    let key = 1;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) return -1;
      key = (key << 7) | c;
    }
    return key;
  }

  /** `has` of a value packed as `pack` does (a short ASCII value; -1 is never held). */
  hasPacked(key: number): boolean {
    return this.short.has(key);
  }

  has(value: string): boolean {
    const key = CodeSet.pack(value);
    return key >= 0 ? this.short.has(key) : this.long.has(value);
  }

  /** `has(text.slice(start, end))`, slicing only codes longer than 4 characters. */
  hasRange(text: string, start: number, end: number): boolean {
    const n = end - start;
    if (n > 0 && n <= 4) {
      let key = 1;
      for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80) return this.long.has(text.slice(start, end));
        key = (key << 7) | c;
      }
      return this.short.has(key);
    }
    return this.long.has(text.slice(start, end));
  }

  /** What a finding shows as expected: `UNCL 4233: 1, 2, 3`, or for a long list `UNCL 7143 (120 codes)`. */
  describe(id: string): string {
    const list = this.list;
    return list.length <= 12 ? `UNCL ${id}: ${list.join(', ')}` : `UNCL ${id} (${list.length} codes)`;
  }

  get size(): number {
    return this.short.size + this.long.size;
  }
}

/** A component or a simple element, ready to check. */
export type CompiledValue = {
  id: string;
  name: string;
  mandatory: boolean;
  format: ValueFormat | undefined;
  codes: CodeSet | undefined;
  /**
   * The last short value (up to 4 ASCII characters, packed as CodeSet packs them) that passed both the format and
   * the code list under `acceptedMode` (decimal mark and syntax version), or -1: the same value again needs no check.
   */
  accepted: number;
  acceptedMode: number;
  /** The format flattened for the screen: FORMAT_* kind, and the length bounds (0 and Infinity without format). */
  kind: number;
  min: number;
  max: number;
};

/** CompiledValue.kind. */
export const FORMAT_NONE = 0;
export const FORMAT_AN = 1;
export const FORMAT_A = 2;
export const FORMAT_N = 3;

const kindOf = (format: ValueFormat | undefined): number =>
  format === undefined ? FORMAT_NONE : format.kind === 'an' ? FORMAT_AN : format.kind === 'a' ? FORMAT_A : FORMAT_N;

export type CompiledElement = CompiledValue & {
  repeat: number;
  /** Components of a composite; undefined for a simple element. */
  components: CompiledValue[] | undefined;
  /** Components up to the last mandatory one (absent ones after it are fine). */
  required: number;
  /**
   * A date/time composite (C507): the index of its value (2380) and of its format qualifier (2379) among the
   * components, -1 when it holds no such pair.
   */
  dateValue: number;
  dateFormat: number;
};

export type CompiledSegment = {
  tag: string;
  name: string;
  elements: CompiledElement[];
  /** Elements up to the last mandatory one. */
  required: number;
};

/** 1 + the index of the last mandatory entry, 0 when none is. */
const requiredCount = (entries: readonly { mandatory: boolean }[]): number => {
  let n = entries.length;
  while (n > 0 && !(entries[n - 1] as { mandatory: boolean }).mandatory) n--;
  return n;
};

type DirectoryCache = {
  messages: Map<string, CompiledMessage | undefined>;
  segments: Map<string, CompiledSegment | undefined>;
  codes: Map<string, CodeSet | undefined>;
};

const caches = new WeakMap<Directory, DirectoryCache>();

const cacheOf = (directory: Directory): DirectoryCache => {
  let cache = caches.get(directory);
  if (!cache) {
    cache = { messages: new Map(), segments: new Map(), codes: new Map() };
    caches.set(directory, cache);
  }
  return cache;
};

/** The compiled segment table of a message type, or undefined when the directory does not define it. */
export const compileMessage = (directory: Directory, type: string): CompiledMessage | undefined => {
  // Unknown types (any text in UNH) are not remembered: a stream of ever-new ones must not grow the cache.
  const definition = Object.hasOwn(directory.messages, type) ? directory.messages[type] : undefined;
  if (definition === undefined) return undefined;
  const cache = cacheOf(directory);
  if (cache.messages.has(type)) return cache.messages.get(type);
  let compiled: CompiledMessage | undefined;
  if (definition) {
    const nodes: CompiledNode[] = [];
    const root: CompiledNode = {
      id: 0,
      isGroup: true,
      tag: '',
      name: type,
      position: '',
      mandatory: true,
      max: 1,
      parent: -1,
      index: 0,
      children: [],
      service: false,
    };
    nodes.push(root);
    const add = (defs: readonly StructureNodeDef[], parent: CompiledNode): void => {
      defs.forEach((def, index) => {
        const node: CompiledNode = {
          id: nodes.length,
          isGroup: def.kind === 'group',
          tag: '',
          name: def.kind === 'group' ? def.name : def.tag,
          position: def.position,
          mandatory: def.status === 'M',
          max: def.max,
          parent: parent.id,
          index,
          children: [],
          service: false,
        };
        nodes.push(node);
        parent.children.push(node.id);
        if (def.kind === 'group') add(def.children, node);
        else node.tag = def.tag;
      });
    };
    add(definition.children, root);
    // A group is recognised by its trigger segment: the first segment of the group (UNSM rules, Part 4 2.6).
    for (let i = nodes.length - 1; i > 0; i--) {
      const node = nodes[i];
      if (node?.isGroup) node.tag = nodes[node.children[0] ?? -1]?.tag ?? '';
    }
    const mandatoryMask = new Uint8Array(nodes.length);
    for (const node of nodes) {
      node.service = !node.isGroup && /^U[A-Z]{2}$/.test(node.tag);
      if (node.mandatory && node.tag !== 'UNH' && node.tag !== 'UNT') mandatoryMask[node.id] = 1;
    }
    compiled = {
      type,
      nodes,
      inclusive: nodes.map(() => new Map()),
      exclusive: nodes.map(() => new Map()),
      mandatoryMask,
      segmentDefs: nodes.map(() => undefined),
      shapes: new ShapeCache<MessageShape>(),
      lastTag: nodes.map(() => ''),
      lastTransition: nodes.map(() => null),
    };
  }
  cache.messages.set(type, compiled);
  return compiled;
};

/**
 * Finds where `tag` leads from child `index` of `group` (that child included unless `exclusive`): the first
 * later sibling with that tag (a group by its trigger), else the same search one level up from the group itself,
 * which, when the group's trigger has the tag, starts a new occurrence of the group.
 */
export const findTransition = (
  message: CompiledMessage,
  group: number,
  index: number,
  tag: string,
  exclusive: boolean,
): Transition | null => {
  const fromId = message.nodes[group]?.children[index];
  if (fromId === undefined) return null;
  // The last answer per node first: tags are interned, so a segment table walk mostly hits it by identity.
  if (!exclusive && message.lastTag[fromId] === tag) return message.lastTransition[fromId] as Transition | null;
  const cache = (exclusive ? message.exclusive : message.inclusive)[fromId] as Map<string, Transition | null>;
  const known = cache.get(tag);
  if (known !== undefined) {
    if (!exclusive) {
      message.lastTag[fromId] = tag;
      message.lastTransition[fromId] = known;
    }
    return known;
  }
  let result: Transition | null = null;
  let current = message.nodes[group];
  let start = exclusive ? index + 1 : index;
  let up = 0;
  while (current) {
    const children = current.children;
    work.steps += children.length - start;
    for (let j = start; j < children.length; j++) {
      if (message.nodes[children[j] ?? -1]?.tag === tag) {
        result = { up, index: j };
        break;
      }
    }
    if (result || current.parent < 0) break;
    start = current.index;
    current = message.nodes[current.parent];
    up++;
  }
  // Unknown tags from the input are not remembered beyond a bound (a stream of junk tags keeps memory flat).
  if (cache.size < 256) cache.set(tag, result);
  return result;
};

const codesOf = (directory: Directory, id: string): CodeSet | undefined => {
  const cache = cacheOf(directory);
  if (cache.codes.has(id)) return cache.codes.get(id);
  const list = Object.hasOwn(directory.codes, id) ? directory.codes[id] : undefined;
  const codes = list ? new CodeSet(Object.keys(list)) : undefined;
  cache.codes.set(id, codes);
  return codes;
};

/** Where a composite holds a date/time value and its format qualifier (2380 and 2379, as C507 does). */
const datePair = (components: readonly CompiledValue[] | undefined): { dateValue: number; dateFormat: number } => {
  const value = components?.findIndex((c) => c.id === '2380') ?? -1;
  const format = components?.findIndex((c) => c.id === '2379') ?? -1;
  return value >= 0 && format >= 0 ? { dateValue: value, dateFormat: format } : { dateValue: -1, dateFormat: -1 };
};

/** The compiled element checks of a segment, or undefined when the directory does not define the tag. */
export const compileSegment = (directory: Directory, tag: string): CompiledSegment | undefined => {
  const definition = Object.hasOwn(directory.segments, tag) ? directory.segments[tag] : undefined;
  if (definition === undefined) return undefined;
  const cache = cacheOf(directory);
  if (cache.segments.has(tag)) return cache.segments.get(tag);
  let compiled: CompiledSegment | undefined;
  if (definition) {
    const elements = definition.elements.map((element): CompiledElement => {
      const composite = Object.hasOwn(directory.composites, element.id) ? directory.composites[element.id] : undefined;
      const simple = directory.elements[element.id];
      const format = composite ? undefined : parseFormat(element.format || simple?.format || '');
      const components = composite?.components.map((component): CompiledValue => {
        const componentFormat = parseFormat(component.format || directory.elements[component.id]?.format || '');
        return {
          id: component.id,
          name: directory.elements[component.id]?.name ?? component.id,
          mandatory: component.status === 'M',
          format: componentFormat,
          codes: codesOf(directory, component.id),
          accepted: -1,
          acceptedMode: -1,
          kind: kindOf(componentFormat),
          min: componentFormat?.min ?? 0,
          max: componentFormat?.max ?? Infinity,
        };
      });
      const dates = datePair(components);
      return {
        id: element.id,
        name: composite?.name ?? simple?.name ?? element.id,
        mandatory: element.status === 'M',
        repeat: element.repeat,
        format,
        codes: composite ? undefined : codesOf(directory, element.id),
        accepted: -1,
        acceptedMode: -1,
        kind: kindOf(format),
        min: format?.min ?? 0,
        max: format?.max ?? Infinity,
        components,
        required: components ? requiredCount(components) : 0,
        dateValue: dates.dateValue,
        dateFormat: dates.dateFormat,
      };
    });
    compiled = { tag, name: definition.name, elements, required: requiredCount(elements) };
  }
  cache.segments.set(tag, compiled);
  return compiled;
};
