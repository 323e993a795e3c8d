/**
 * Level 2, specification: a message against the UN/EDIFACT directory of its UNH version and release: segment order
 * and groups, mandatory segments and groups, maximum repetitions, unknown and unexpected segments, too many
 * elements or components, mandatory elements and components, representations, and code lists (a value outside
 * the list is a warning here). Never throws on bad input.
 */
import { FINDING_CODES, type FindingCode } from '../codes.ts';
import type { Directory, DirectoryProvider } from '../directory/types.ts';
import type { MessageContext, ValidationLevelPlugin } from '../levels.ts';
import type { Element, Finding, Message, Segment, Severity } from '../model.ts';
import {
  compareFindings,
  countOmitted,
  MAX_FINDINGS_PER_MESSAGE,
  noneOmitted,
  type OmittedFindings,
} from '../findings.ts';
import {
  compileMessage,
  compileSegment,
  type MessageShape,
  type CompiledElement,
  type CompiledMessage,
  type CompiledNode,
  type CompiledSegment,
  type CompiledValue,
  FORMAT_AN,
  FORMAT_N,
  FORMAT_NONE,
} from './compile.ts';
import { checkRange, checkValue, type ValueFormat } from './format.ts';
import { checkDateTime, dateTimeShape } from './datetime.ts';
import { RawSegment } from '../segment.ts';
import { SegmentTableWalker, walkScanned, type ScreenWalkListener, type WalkListener } from './walker.ts';
import { shapeKey, shapeKeyOfCodes } from './shapes.ts';
import { tagCode, withScreen, type ScannedMessage } from '../screen.ts';
import { work } from '../work.ts';

/** What the specification check needs to know besides the message. */
export type SpecificationOptions = {
  /** Decimal mark of the interchange (UNA, default `.`). */
  decimal?: string;
  /** Syntax version (UNB S001 0002); from 4 on both `.` and `,` are accepted as decimal mark. */
  syntaxVersion?: number;
  /** Findings returned, at most: the first by position (default and upper bound `MAX_FINDINGS_PER_MESSAGE`). */
  maxFindings?: number;
  /** Counts the findings left out past `maxFindings` (see `MessageContext.omit`). */
  omit?(severity: Severity, count?: number): void;
  /** Codes another level (the message's guide) allows beyond the code list: not warned (`MessageContext.allowsCode`). */
  allowsCode?(element: string, code: string): boolean;
};

/** Service segments inside a message (ISO 9735): checked by the syntax level, placed but not re-checked here. */
const isServiceTag = (tag: string): boolean => tag.length === 3 && tag.startsWith('U') && /^U[A-Z]{2}$/.test(tag);

/** Names of the service segments a message table holds (ISO 9735 part 1 annex / syntax 3 annex B). */
const SERVICE_NAMES: Record<string, string> = {
  UNH: 'Message header',
  UNT: 'Message trailer',
  UNS: 'Section control',
  UGH: 'Anti-collision segment group header',
  UGT: 'Anti-collision segment group trailer',
};

/** The name of a segment tag, from the directory or, for a service segment, from ISO 9735. */
export const segmentName = (directory: Directory, tag: string): string | undefined =>
  directory.segments[tag]?.name ?? SERVICE_NAMES[tag];

/** Fills the fields every finding of a message shares. */
export type FindingFactory = (
  code: FindingCode,
  segment: Segment,
  path: string,
  extra?: Partial<Pick<Finding, 'fieldName' | 'expected' | 'actual' | 'params' | 'severity'>>,
) => Finding;

/** A finding factory for one message at one level; `version` is the directory (`D96A`) or the guide (`EAN008`). */
export const findingFactory = (message: Message, level: Finding['level'], version: string): FindingFactory => {
  return (code, segment, path, extra) => {
    const finding: Finding = {
      code,
      severity: extra?.severity ?? FINDING_CODES[code].severity,
      level,
      path,
      messageType: message.type,
      version,
      documentNumber: message.documentNumber,
      messageReference: message.reference,
      line: segment.position.line,
      column: segment.position.column,
      offset: segment.position.offset,
    };
    if (extra?.fieldName !== undefined) finding.fieldName = extra.fieldName;
    if (extra?.expected !== undefined) finding.expected = extra.expected;
    if (extra?.actual !== undefined) finding.actual = extra.actual;
    if (extra?.params !== undefined) finding.params = extra.params;
    return finding;
  };
};

const isEmptyElement = (element: Element | undefined): boolean => {
  if (element === undefined) return true;
  const components = element.components;
  for (let i = 0; i < components.length; i++) if (components[i] !== '') return false;
  return true;
};

const walkers = new WeakMap<CompiledMessage, SegmentTableWalker>();

/**
 * One message's run of the specification check: the walk listener, with the state it needs. Paths are built only
 * when a finding is made (most segments have none), so a clean segment costs no string building.
 */
class SpecificationRun implements WalkListener {
  readonly findings: Finding[] = [];
  /** Findings left out past the limit. */
  readonly omitted: OmittedFindings = noneOmitted();
  /** While a segment's raw check may still insert at an earlier index of `findings`: no compaction. */
  private holding = false;
  /** Once compacted: the findings kept are the first `limit` by position, the last of them at this offset. */
  private threshold = Infinity;
  private node: CompiledNode;
  private count = 0;
  private path: string | undefined;

  constructor(
    private readonly directory: Directory,
    private readonly compiled: CompiledMessage,
    private readonly walker: SegmentTableWalker,
    private readonly make: FindingFactory,
    private readonly decimal: string,
    private readonly anyDecimal: boolean,
    private readonly limit: number,
    private readonly allowsCode: ((element: string, code: string) => boolean) | undefined,
  ) {
    this.node = compiled.nodes[0] as CompiledNode;
    this.decimalCode = decimal.length === 1 ? decimal.charCodeAt(0) : -1;
    this.mode = (this.decimalCode + 1) * 2 + (anyDecimal ? 1 : 0);
  }

  private readonly decimalCode: number;
  /** What a format check depends on besides the value (see CompiledValue.accepted). */
  private readonly mode: number;
  /** End offsets of the components of the element being checked (checkRawElements). */
  private readonly ends: number[] = [0];
  /** While a walk records its shape: the definition each segment was checked against, by position. */
  shapeDefs: (CompiledSegment | false)[] | undefined = undefined;
  /** The position in the message of the segment being placed. */
  position = 0;
  /** The walk itself found something (the message's shape is then not kept). */
  structural = false;

  /**
   * Keeps a finding. A message of thousands of bad segments keeps only the first `limit` by position: at twice
   * that the list is sorted and cut, and a finding past the last one kept is only counted.
   */
  private add(finding: Finding): void {
    work.steps++;
    if (finding.offset > this.threshold) {
      countOmitted(this.omitted, finding.severity);
      return;
    }
    const findings = this.findings;
    findings.push(finding);
    if (findings.length >= 2 * this.limit && !this.holding) this.compact();
  }

  /** Sorts the findings and cuts them to the first `limit` (stable: equal positions keep their order). */
  compact(): void {
    const findings = this.findings;
    if (findings.length <= this.limit) return;
    work.steps += findings.length;
    findings.sort(compareFindings);
    for (let i = this.limit; i < findings.length; i++) countOmitted(this.omitted, (findings[i] as Finding).severity);
    findings.length = this.limit;
    this.threshold = this.limit > 0 ? (findings[this.limit - 1] as Finding).offset : -1;
  }

  /** The element checks of a segment whose place is known (a message of a known shape). */
  checkShaped(segment: Segment, definition: CompiledSegment): void {
    this.path = undefined;
    this.checkElements(segment, definition);
  }

  placed(segment: Segment, node: CompiledNode, count: number): void {
    if (count > node.max) {
      this.structural = true;
      this.add(
        this.make('EDI_TOO_MANY_OCCURRENCES', segment, this.walker.nodePath(node, count), {
          fieldName: node.isGroup ? node.name : segmentName(this.directory, node.tag),
          params: { segment: node.name, max: node.max, count, position: node.position },
        }),
      );
    }
    if (node.isGroup || node.service) return;
    const defs = this.compiled.segmentDefs;
    let definition = defs[node.id];
    if (definition === undefined) definition = defs[node.id] = compileSegment(this.directory, node.tag) ?? false;
    if (definition === false) return;
    if (this.shapeDefs !== undefined) this.shapeDefs[this.position] = definition;
    this.node = node;
    this.count = count;
    this.path = undefined;
    this.checkElements(segment, definition);
  }

  closed(node: CompiledNode, count: number, at: Segment): void {
    if (count > 0 || !node.mandatory || node.tag === 'UNH' || node.tag === 'UNT') return;
    this.structural = true;
    this.add(
      this.make('EDI_MANDATORY_SEGMENT_MISSING', at, this.walker.nodePath(node), {
        fieldName: node.isGroup ? node.name : segmentName(this.directory, node.tag),
        expected: node.isGroup ? `${node.name} (${node.tag})` : node.tag,
        params: { segment: node.name, position: node.position, group: node.isGroup ? 1 : 0 },
      }),
    );
  }

  unplaced(segment: Segment): void {
    this.structural = true;
    const known = Object.hasOwn(this.directory.segments, segment.tag) || isServiceTag(segment.tag);
    const group = this.walker.groupPath();
    this.add(
      this.make(
        known ? 'EDI_UNEXPECTED_SEGMENT' : 'EDI_UNKNOWN_SEGMENT',
        segment,
        group === '' ? segment.tag : `${group}/${segment.tag}`,
        {
          fieldName: segmentName(this.directory, segment.tag),
          actual: segment.tag,
          params: { segment: segment.tag },
        },
      ),
    );
  }

  /** The path of the segment being checked (`SG2[1]/NAD[1]`), built on the first finding. */
  private segmentPath(): string {
    return (this.path ??= this.walker.nodePath(this.node, this.count));
  }

  private elementPath(element: CompiledElement, component?: CompiledValue): string {
    return component === undefined
      ? `${this.segmentPath()}/${element.id}`
      : `${this.segmentPath()}/${element.id}/${component.id}`;
  }

  /** Checks the elements of one segment against its directory definition (EDSD/EDCD/EDED). */
  private checkElements(segment: Segment, definition: CompiledSegment): void {
    if (segment instanceof RawSegment) {
      const text = segment.text;
      if (text !== undefined) {
        this.checkRawElements(segment, text, segment.from, segment.to, definition);
        return;
      }
    }
    const elements = segment.elements;
    const defs = definition.elements;
    if (elements.length > defs.length) {
      this.add(
        this.make('EDI_TOO_MANY_ELEMENTS', segment, this.segmentPath(), {
          fieldName: definition.name,
          params: { segment: segment.tag, max: defs.length, count: elements.length },
        }),
      );
    }
    for (let i = 0; i < defs.length; i++) {
      const def = defs[i] as CompiledElement;
      const element = elements[i];
      if (element === undefined || (element.repeats === undefined && isEmptyElement(element))) {
        if (def.mandatory) {
          this.add(
            this.make('EDI_MANDATORY_ELEMENT_MISSING', segment, this.elementPath(def), {
              fieldName: def.name,
              expected: def.format?.text,
              params: { element: def.id, position: i + 1 },
            }),
          );
        }
        continue;
      }
      const repeats = element.repeats;
      if (repeats === undefined) {
        this.checkOccurrence(segment, def, element.components, i);
        continue;
      }
      const occurrenceCount = repeats.length + 1;
      if (occurrenceCount > def.repeat) {
        this.add(
          this.make('EDI_TOO_MANY_REPETITIONS', segment, this.elementPath(def), {
            fieldName: def.name,
            params: { element: def.id, max: def.repeat, count: occurrenceCount, position: i + 1 },
          }),
        );
      }
      this.checkOccurrence(segment, def, element.components, i);
      for (let r = 0; r < repeats.length; r++) this.checkOccurrence(segment, def, repeats[r] as string[], i);
    }
  }

  /**
   * `checkElements` read straight from the segment's text, raw[from, n) (no repetitions, no release characters): the
   * same findings in the same order, without splitting the segment into element, component and string objects.
   */
  private checkRawElements(
    segment: RawSegment,
    raw: string,
    from: number,
    n: number,
    definition: CompiledSegment,
  ): void {
    const comp = segment.comp;
    const elem = segment.elem;
    const defs = definition.elements;
    // The findings of one segment are few (one per element or component of its definition at most): the list is
    // not compacted while the segment may still insert its first one at `mark`.
    this.holding = true;
    const mark = this.findings.length;
    let p = from; // at the element separator before element i, or n
    for (let i = 0; i < defs.length; i++) {
      const def = defs[i] as CompiledElement;
      let empty = true;
      let count = 1;
      let ee = p + 1;
      if (p < n) {
        // One pass over the element: its end, and where each component ends (ends[j]), for checkRawOccurrence.
        const ends = this.ends;
        for (; ee < n; ee++) {
          const c = raw.charCodeAt(ee);
          if (c === elem) break;
          if (c === comp) ends[count++ - 1] = ee;
          else empty = false;
        }
        ends[count - 1] = ee;
      }
      const start = p + 1;
      p = ee < n ? ee : n;
      if (empty) {
        if (def.mandatory) {
          this.add(
            this.make('EDI_MANDATORY_ELEMENT_MISSING', segment, this.elementPath(def), {
              fieldName: def.name,
              expected: def.format?.text,
              params: { element: def.id, position: i + 1 },
            }),
          );
        }
        continue;
      }
      this.checkRawOccurrence(segment, def, raw, start, count, i);
    }
    if (p < n) {
      // More elements than the definition has: reported first, as checkElements does.
      let count = defs.length;
      for (let q = p; q < n; q++) if (raw.charCodeAt(q) === elem) count++;
      const tooMany = this.make('EDI_TOO_MANY_ELEMENTS', segment, this.segmentPath(), {
        fieldName: definition.name,
        params: { segment: segment.tag, max: defs.length, count },
      });
      if (tooMany.offset > this.threshold) countOmitted(this.omitted, tooMany.severity);
      else this.findings.splice(mark, 0, tooMany);
    }
    this.holding = false;
    if (this.findings.length >= 2 * this.limit) this.compact();
  }

  /** `checkOccurrence` of the non-empty element at raw[start…), of `count` components ending at this.ends[j]. */
  private checkRawOccurrence(
    segment: Segment,
    def: CompiledElement,
    raw: string,
    start: number,
    count: number,
    i: number,
  ): void {
    const ends = this.ends;
    const composite = def.components;
    if (composite === undefined) {
      if (count > 1) {
        this.add(
          this.make('EDI_TOO_MANY_COMPONENTS', segment, this.elementPath(def), {
            fieldName: def.name,
            params: { element: def.id, max: 1, count, position: i + 1 },
          }),
        );
      }
      const ve = ends[0] as number;
      if (ve > start) this.checkRawValue(segment, raw, start, ve, def, def, undefined, i + 1);
      return;
    }
    if (count > composite.length) {
      this.add(
        this.make('EDI_TOO_MANY_COMPONENTS', segment, this.elementPath(def), {
          fieldName: def.name,
          params: { element: def.id, max: composite.length, count, position: i + 1 },
        }),
      );
    }
    let cs = start;
    for (let j = 0; j < composite.length; j++) {
      const component = composite[j] as CompiledValue;
      const ce = j < count ? (ends[j] as number) : cs;
      if (ce === cs) {
        if (component.mandatory) {
          this.add(
            this.make('EDI_MANDATORY_COMPONENT_MISSING', segment, this.elementPath(def, component), {
              fieldName: component.name,
              expected: component.format?.text,
              params: { element: def.id, component: component.id, position: i + 1, componentPosition: j + 1 },
            }),
          );
        }
      } else this.checkRawValue(segment, raw, cs, ce, component, def, component, i + 1);
      cs = ce + 1;
    }
    const v = def.dateValue;
    const f = def.dateFormat;
    if (v >= 0 && v < count && f < count) {
      const vs = v === 0 ? start : (ends[v - 1] as number) + 1;
      const fs = f === 0 ? start : (ends[f - 1] as number) + 1;
      const ve = ends[v] as number;
      const fe = ends[f] as number;
      if (ve > vs && fe > fs) {
        const problem = checkDateTime(raw, vs, ve, raw, fs, fe);
        if (problem) this.dateTimeFinding(segment, def, raw.slice(vs, ve), raw.slice(fs, fe), problem, i + 1);
      }
    }
  }

  /** A date/time value (C507 2380) that does not match its format qualifier (2379). */
  private dateTimeFinding(
    segment: Segment,
    def: CompiledElement,
    value: string,
    format: string,
    problem: string,
    position: number,
  ): void {
    const component = (def.components as CompiledValue[])[def.dateValue] as CompiledValue;
    this.add(
      this.make('EDI_INVALID_DATE_TIME', segment, this.elementPath(def, component), {
        fieldName: component.name,
        expected: `${dateTimeShape(format) ?? format} (2379 = ${format})`,
        actual: value,
        params: { element: component.id, format, problem, position },
      }),
    );
  }

  /** `checkValue` of raw[start, end); the value is sliced out only for a finding. */
  private checkRawValue(
    segment: Segment,
    raw: string,
    start: number,
    end: number,
    def: CompiledValue,
    element: CompiledElement,
    component: CompiledValue | undefined,
    position: number,
  ): void {
    // Codes and other short values repeat: the one this field accepted last needs no look-up.
    let key = -1;
    if (end - start <= 4) {
      key = 1;
      for (let i = start; i < end; i++) {
        const c = raw.charCodeAt(i);
        if (c >= 0x80) {
          key = -1;
          break;
        }
        key = (key << 7) | c;
      }
      if (key === def.accepted && def.acceptedMode === this.mode) return;
    }
    let ok = true;
    const format = def.format;
    if (format !== undefined) {
      const problem = checkRange(raw, start, end, format, this.decimalCode, this.anyDecimal);
      if (problem) {
        ok = false;
        this.add(
          this.make('EDI_INVALID_FORMAT', segment, this.elementPath(element, component), {
            fieldName: def.name,
            expected: format.text,
            actual: raw.slice(start, end),
            params: { element: def.id, problem, position },
          }),
        );
      }
    }
    const codes = def.codes;
    if (codes !== undefined && !(key >= 0 ? codes.hasPacked(key) : codes.hasRange(raw, start, end))) {
      // Not remembered as accepted even when the guide allows it: `accepted` is shared by every message.
      ok = false;
      const value = raw.slice(start, end);
      if (this.allowsCode === undefined || !this.allowsCode(def.id, value)) {
        this.add(
          this.make('EDI_INVALID_CODE', segment, this.elementPath(element, component), {
            fieldName: def.name,
            expected: codes.describe(def.id),
            actual: value,
            params: { element: def.id, codeList: def.id, position },
          }),
        );
      }
    }
    if (ok && key >= 0) {
      def.accepted = key;
      def.acceptedMode = this.mode;
    }
  }

  /** One occurrence of an element (a simple value, or the components of a composite). */
  private checkOccurrence(segment: Segment, def: CompiledElement, components: readonly string[], i: number): void {
    const composite = def.components;
    if (composite === undefined) {
      if (components.length > 1) {
        this.add(
          this.make('EDI_TOO_MANY_COMPONENTS', segment, this.elementPath(def), {
            fieldName: def.name,
            params: { element: def.id, max: 1, count: components.length, position: i + 1 },
          }),
        );
      }
      const value = components[0] ?? '';
      if (value !== '') this.checkValue(segment, value, def, def, undefined, i + 1);
      return;
    }
    if (components.length > composite.length) {
      this.add(
        this.make('EDI_TOO_MANY_COMPONENTS', segment, this.elementPath(def), {
          fieldName: def.name,
          params: { element: def.id, max: composite.length, count: components.length, position: i + 1 },
        }),
      );
    }
    let empty = true;
    for (let j = 0; j < components.length; j++) {
      if (components[j] !== '') {
        empty = false;
        break;
      }
    }
    if (empty) return;
    for (let j = 0; j < composite.length; j++) {
      const component = composite[j] as CompiledValue;
      const value = j < components.length ? (components[j] as string) : '';
      if (value === '') {
        if (component.mandatory) {
          this.add(
            this.make('EDI_MANDATORY_COMPONENT_MISSING', segment, this.elementPath(def, component), {
              fieldName: component.name,
              expected: component.format?.text,
              params: { element: def.id, component: component.id, position: i + 1, componentPosition: j + 1 },
            }),
          );
        }
        continue;
      }
      this.checkValue(segment, value, component, def, component, i + 1);
    }
    const v = def.dateValue;
    if (v >= 0) {
      const value = components[v] ?? '';
      const format = components[def.dateFormat] ?? '';
      if (value !== '' && format !== '') {
        const problem = checkDateTime(value, 0, value.length, format, 0, format.length);
        if (problem) this.dateTimeFinding(segment, def, value, format, problem, i + 1);
      }
    }
  }

  /** Representation and code list of one value. */
  private checkValue(
    segment: Segment,
    value: string,
    def: CompiledValue,
    element: CompiledElement,
    component: CompiledValue | undefined,
    position: number,
  ): void {
    const format = def.format;
    if (format !== undefined) {
      const problem = checkValue(value, format, this.decimal, this.anyDecimal);
      if (problem) {
        this.add(
          this.make('EDI_INVALID_FORMAT', segment, this.elementPath(element, component), {
            fieldName: def.name,
            expected: format.text,
            actual: value,
            params: { element: def.id, problem, position },
          }),
        );
      }
    }
    const codes = def.codes;
    if (codes !== undefined && !codes.has(value) && !(this.allowsCode?.(def.id, value) ?? false)) {
      this.add(
        this.make('EDI_INVALID_CODE', segment, this.elementPath(element, component), {
          fieldName: def.name,
          expected: codes.describe(def.id),
          actual: value,
          params: { element: def.id, codeList: def.id, position },
        }),
      );
    }
  }
}

/**
 * Service messages of the syntax (ISO 9735): CONTRL (`CONTRL:D:3:UN`, `CONTRL:4:1:UN`) is defined beside the
 * syntax, not in a trade directory, and its service segments (UCI, UCM, ...) are checked by nobody here: it is
 * checked at the syntax level only (envelope, counts, characters), with no unsupported-message finding.
 */
const SERVICE_MESSAGES: ReadonlySet<string> = new Set(['CONTRL']);

/** A service message (see SERVICE_MESSAGES) the specification level leaves to the syntax level. */
export const isServiceMessage = (message: Pick<Message, 'type' | 'agency'>): boolean =>
  message.agency === 'UN' && SERVICE_MESSAGES.has(message.type);

/** `D96A` from UNH S009 0052 `D` and 0054 `96A`, the way the directories are named. */
export const directoryName = (message: Message): string =>
  message.directory || `${message.version}${message.release}`.toUpperCase();

/**
 * Validates one message against a directory (undefined: not available). Returns the findings; never throws.
 */
export const validateSpecification = (
  message: Message,
  directory: Directory | undefined,
  options: SpecificationOptions = {},
): Finding[] => {
  if (isServiceMessage(message)) return [];
  const version = directoryName(message);
  const make = findingFactory(message, 'specification', version);
  const compiled =
    directory && message.agency === directory.agency && version === directory.name
      ? compileMessage(directory, message.type)
      : undefined;
  if (!directory || !compiled) {
    return [
      make('EDI_UNSUPPORTED_MESSAGE', message.header, 'UNH[1]/S009', {
        fieldName: 'Message identifier',
        actual: `${message.type}:${message.version}:${message.release}:${message.agency}`,
        params: {
          type: message.type,
          version: message.version,
          release: message.release,
          agency: message.agency,
          reason: directory ? 'type' : 'directory',
        },
      }),
    ];
  }
  // One walker per compiled message, reset for each message (taken out while in use, so re-entry gets its own).
  let walker = walkers.get(compiled);
  if (walker) walkers.delete(compiled);
  else walker = new SegmentTableWalker(compiled, compiled.mandatoryMask);
  walker.reset();
  const limit = Math.max(0, Math.min(options.maxFindings ?? MAX_FINDINGS_PER_MESSAGE, MAX_FINDINGS_PER_MESSAGE));
  const newRun = (): SpecificationRun =>
    new SpecificationRun(
      directory,
      compiled,
      walker,
      make,
      options.decimal ?? '.',
      (options.syntaxVersion ?? 3) >= 4,
      limit,
      options.allowsCode,
    );
  let run = newRun();
  const segments = message.segments;
  const n = segments.length;
  const key = shapeKey(segments);
  const shape = findShape(compiled.shapes.candidates(key), segments);
  if (shape !== undefined) {
    // A known shape: only the elements are checked; anything to report is found again by the walk, for its paths.
    for (let i = 0; i < n; i++) {
      const definition = shape.defs[i];
      if (definition) run.checkShaped(segments[i] as Segment, definition);
    }
    if (run.findings.length === 0) {
      walkers.set(compiled, walker);
      return run.findings;
    }
    run = newRun();
  } else if (!compiled.shapes.full) run.shapeDefs = new Array<CompiledSegment | false>(n).fill(false);
  for (let i = 0; i < n; i++) {
    run.position = i;
    walker.push(segments[i] as Segment, run);
  }
  walker.end(segments[n - 1] ?? message.header, run);
  walkers.set(compiled, walker);
  if (run.shapeDefs !== undefined && !run.structural) {
    const tags = segments.map((s) => s.tag);
    compiled.shapes.add(key, { tags, codes: Int32Array.from(tags, tagCode), defs: run.shapeDefs });
  }
  run.compact();
  const { omitted } = run;
  if (options.omit) {
    if (omitted.errors > 0) options.omit('error', omitted.errors);
    if (omitted.warnings > 0) options.omit('warning', omitted.warnings);
    if (omitted.infos > 0) options.omit('info', omitted.infos);
  }
  return run.findings;
};

/**
 * The screen of the specification level (see screen.ts): true when `validateSpecification` would find nothing in
 * the scanned message, i.e. its tag sequence is a shape whose walk found nothing and every segment's elements pass
 * the checks of `checkRawElements`. Builds nothing; false at the first doubt.
 */
export const screenSpecification = (
  m: ScannedMessage,
  directory: Directory,
  allowsCode?: (element: string, code: string) => boolean,
): boolean => {
  const name = m.version + m.release;
  if (m.agency !== directory.agency || name !== directory.name) return false;
  const compiled = compileMessage(directory, m.type);
  if (compiled === undefined) return false;
  const n = m.count;
  const key = shapeKeyOfCodes(m.codes, n);
  const shape = compiled.shapes.find(key, m.codes, n) ?? walkShape(m, directory, compiled, key);
  if (shape === undefined) return false;
  const decimal = m.decimal.length === 1 ? m.decimal.charCodeAt(0) : -1;
  const anyDecimal = m.syntaxVersion >= 4;
  const mode = (decimal + 1) * 2 + (anyDecimal ? 1 : 0);
  const text = m.text;
  const bytes = m.bytes;
  const seps = m.seps;
  const sepStarts = m.sepStarts;
  const ends = m.ends;
  const defs = shape.defs;
  for (let i = 0; i < n; i++) {
    const definition = defs[i];
    if (!definition) continue;
    const from = sepStarts[i] as number;
    const to = sepStarts[i + 1] as number;
    if (
      !screenElements(text, bytes, seps, from, to, ends[i] as number, definition, decimal, anyDecimal, mode, allowsCode)
    ) {
      return false;
    }
  }
  return true;
};

/**
 * The segment-table walk of validateSpecification for a scanned message of a shape not seen before, as a yes/no
 * question: the shape (kept, as the plain path keeps it, while there is room) when the walk finds nothing, else
 * undefined.
 */
const walkShape = (
  m: ScannedMessage,
  directory: Directory,
  compiled: CompiledMessage,
  key: number,
): MessageShape | undefined => {
  let walker = walkers.get(compiled);
  if (walker) walkers.delete(compiled);
  else walker = new SegmentTableWalker(compiled, compiled.mandatoryMask);
  const n = m.count;
  const tags = new Array<string>(n);
  const walk = new ShapeWalk(directory, compiled, n);
  const ok = walkScanned(walker, m, walk, tags);
  walkers.set(compiled, walker);
  if (!ok) return undefined;
  const shape: MessageShape = { tags, codes: m.codes.slice(0, n), defs: walk.defs };
  compiled.shapes.add(key, shape);
  return shape;
};

/** What SpecificationRun's walk callbacks find, without the findings: whether there are any, and the definitions. */
class ShapeWalk implements ScreenWalkListener {
  ok = true;
  position = 0;
  readonly defs: (CompiledSegment | false)[];

  constructor(
    private readonly directory: Directory,
    private readonly compiled: CompiledMessage,
    n: number,
  ) {
    this.defs = new Array<CompiledSegment | false>(n).fill(false);
  }

  placed(_segment: Segment, node: CompiledNode, count: number): void {
    if (count > node.max) this.ok = false;
    if (node.isGroup || node.service) return;
    const defs = this.compiled.segmentDefs;
    let definition = defs[node.id];
    if (definition === undefined) definition = defs[node.id] = compileSegment(this.directory, node.tag) ?? false;
    if (definition !== false) this.defs[this.position] = definition;
  }

  closed(node: CompiledNode, count: number): void {
    if (count === 0 && node.mandatory && node.tag !== 'UNH' && node.tag !== 'UNT') this.ok = false;
  }

  unplaced(): void {
    this.ok = false;
  }
}

/**
 * checkRawElements as a yes/no question, read from the separators the scan recorded: seps[from, to) are the
 * segment's separators (element separators as positions, component separators as ~position), `end` its
 * terminator. True when it would report nothing.
 */
const screenElements = (
  raw: string,
  bytes: Uint8Array | undefined,
  seps: Int32Array,
  from: number,
  to: number,
  end: number,
  definition: CompiledSegment,
  decimal: number,
  anyDecimal: boolean,
  mode: number,
  allowsCode: ((element: string, code: string) => boolean) | undefined,
): boolean => {
  const defs = definition.elements;
  const nd = defs.length;
  let k = from; // the element separator before element i
  let i = 0;
  for (; k < to; i++) {
    if (i === nd) return false; // more elements than defined
    const def = defs[i] as CompiledElement;
    const at = seps[k] as number;
    let next = k + 1;
    while (next < to && (seps[next] as number) < 0) next++;
    const elementEnd = next < to ? (seps[next] as number) : end;
    const count = next - k;
    const composite = def.components;
    if (elementEnd - at === count) {
      // Nothing but separators: empty.
      if (def.mandatory) return false;
    } else if (composite === undefined) {
      if (
        count > 1 ||
        !(
          screenValue(raw, bytes, at + 1, elementEnd, def, decimal, anyDecimal, mode) ||
          (allowsCode !== undefined && screenAllowed(raw, at + 1, elementEnd, def, decimal, anyDecimal, allowsCode))
        )
      )
        return false;
    } else {
      if (count > composite.length) return false;
      let cs = at + 1;
      for (let j = 0; j < count; j++) {
        const ce = j + 1 < count ? ~(seps[k + j + 1] as number) : elementEnd;
        const component = composite[j] as CompiledValue;
        if (ce === cs) {
          if (component.mandatory) return false;
        } else if (!(
          screenValue(raw, bytes, cs, ce, component, decimal, anyDecimal, mode) ||
          (allowsCode !== undefined && screenAllowed(raw, cs, ce, component, decimal, anyDecimal, allowsCode))
        ))
          return false;
        cs = ce + 1;
      }
      if (count < def.required) return false; // a mandatory component after the last one given
      if (def.dateValue >= 0 && !screenDate(raw, seps, k, count, elementEnd, def)) return false;
    }
    k = next;
  }
  return i >= definition.required;
};

/**
 * The date/time check of checkRawOccurrence as a yes/no question, for the composite whose element separator is
 * seps[k] (count components, the last ending at elementEnd). Apart from the loop over the components, so other
 * composites pay nothing for it.
 */
const screenDate = (
  raw: string,
  seps: Int32Array,
  k: number,
  count: number,
  elementEnd: number,
  def: CompiledElement,
): boolean => {
  const v = def.dateValue;
  const f = def.dateFormat;
  if (v >= count || f >= count) return true;
  const vs = v === 0 ? (seps[k] as number) + 1 : ~(seps[k + v] as number) + 1;
  const ve = v + 1 < count ? ~(seps[k + v + 1] as number) : elementEnd;
  const fs = f === 0 ? (seps[k] as number) + 1 : ~(seps[k + f] as number) + 1;
  const fe = f + 1 < count ? ~(seps[k + f + 1] as number) : elementEnd;
  return ve <= vs || fe <= fs || checkDateTime(raw, vs, ve, raw, fs, fe) === undefined;
};

/**
 * After screenValue said no: yes when the value fails only its code list with a code the message's guide allows
 * (never remembered as accepted: `accepted` is shared by every message). Called only on a no, so the common case
 * pays nothing for it.
 */
const screenAllowed = (
  raw: string,
  start: number,
  end: number,
  def: CompiledValue,
  decimal: number,
  anyDecimal: boolean,
  allowsCode: (element: string, code: string) => boolean,
): boolean =>
  def.codes !== undefined &&
  (def.format === undefined || checkRange(raw, start, end, def.format, decimal, anyDecimal) === undefined) &&
  allowsCode(def.id, raw.slice(start, end));

/** checkRawValue as a yes/no question (and, like it, remembering the last short value accepted). */
const screenValue = (
  raw: string,
  bytes: Uint8Array | undefined,
  start: number,
  end: number,
  def: CompiledValue,
  decimal: number,
  anyDecimal: boolean,
  mode: number,
): boolean => {
  const length = end - start;
  let key = -1;
  if (length <= 4) {
    key = 1;
    for (let i = start; i < end; i++) {
      const c = bytes !== undefined ? (bytes[i] as number) : raw.charCodeAt(i);
      if (c >= 0x80) {
        key = -1;
        break;
      }
      key = (key << 7) | c;
    }
    if (key === def.accepted && def.acceptedMode === mode) return true;
  }
  const kind = def.kind;
  if (kind === FORMAT_AN) {
    if (length > def.max || length < def.min) return false;
  } else if (kind === FORMAT_N && bytes !== undefined) {
    if (!screenNumber(bytes, start, end, def, decimal, anyDecimal)) return false;
  } else if (kind !== FORMAT_NONE) {
    if (checkRange(raw, start, end, def.format as ValueFormat, decimal, anyDecimal) !== undefined) return false;
  }
  const codes = def.codes;
  if (codes !== undefined && !(key >= 0 ? codes.hasPacked(key) : codes.hasRange(raw, start, end))) return false;
  if (key >= 0) {
    def.accepted = key;
    def.acceptedMode = mode;
  }
  return true;
};

/** checkRange of a numeric value read from bytes, as a yes/no question (the same rules, see format.ts). */
const screenNumber = (
  bytes: Uint8Array,
  start: number,
  end: number,
  def: CompiledValue,
  decimal: number,
  anyDecimal: boolean,
): boolean => {
  let digits = 0;
  let mark = -1;
  for (let i = start; i < end; i++) {
    const c = bytes[i] as number;
    if (c >= 48 && c <= 57) digits++;
    else if (i === start && c === 45 && end - start > 1) continue;
    else if (mark < 0 && (c === decimal || (anyDecimal && (c === 44 || c === 46)))) mark = i;
    else return false;
  }
  if (mark >= 0) {
    // A decimal mark needs a digit on each side.
    const before = mark > start ? (bytes[mark - 1] as number) : -1;
    const after = mark + 1 < end ? (bytes[mark + 1] as number) : -1;
    if (!(before >= 48 && before <= 57) || !(after >= 48 && after <= 57)) return false;
  }
  return digits <= def.max && digits >= def.min;
};

/** The shape among `candidates` with exactly the tags of `segments`. */
const findShape = (
  candidates: readonly MessageShape[] | undefined,
  segments: readonly Segment[],
): MessageShape | undefined => {
  if (candidates === undefined) return undefined;
  for (const shape of candidates) {
    const tags = shape.tags;
    if (tags.length !== segments.length) continue;
    let i = 0;
    while (i < tags.length && tags[i] === (segments[i] as Segment).tag) i++;
    if (i === tags.length) return shape;
  }
  return undefined;
};

/** Options of the specification level plugin. */
export type SpecificationLevelOptions = {
  /** Where directories come from (e.g. `openDirectoryStore(DATA_DIR + '/edifact')`). */
  directories: DirectoryProvider;
};

/**
 * The specification level as a plugin for `validate(input, { levels })`. Directories are loaded lazily, once,
 * on the first message that needs them (`prepare` does it ahead of a synchronous run).
 */
export const createSpecificationLevel = (options: SpecificationLevelOptions): ValidationLevelPlugin => {
  const { directories } = options;
  const run = (message: Message, context: MessageContext, directory: Directory | undefined): Finding[] =>
    validateSpecification(message, directory, {
      decimal: context.delimiters.decimal,
      syntaxVersion: context.syntaxVersion,
      maxFindings: context.maxFindings,
      omit: context.omit,
      allowsCode: context.allowsCode,
    });
  const level: ValidationLevelPlugin = {
    name: 'specification',
    level: 'specification',
    async prepare(message) {
      await directories.load(directoryName(message)).catch(() => undefined);
    },
    validateMessage(message, context) {
      if (isServiceMessage(message)) return [];
      const name = directoryName(message);
      const ready = directories.get(name);
      if (ready) return run(message, context, ready);
      return directories.load(name).then(
        (directory) => run(message, context, directory),
        () => run(message, context, undefined),
      );
    },
  };
  return withScreen(level, (message, allowance) => {
    // A service message (CONTRL) has no directory here: it takes the plain path, where it gets no finding.
    const directory = directories.get(message.version + message.release);
    return (
      directory !== undefined &&
      screenSpecification(message, directory, allowance && ((element, code) => allowance(message, element, code)))
    );
  });
};
