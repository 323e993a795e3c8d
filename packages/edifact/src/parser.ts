/**
 * Parser: segments to interchanges, functional groups, messages and packages, with the level 1 envelope checks of
 * ISO 9735 part 1 (clause 6 interchange structure, annex B service segments). Push-based, so that messages can be
 * handed on one at a time; `parse` collects everything for inputs that fit in memory.
 */
import {
  createFinding,
  addOmitted,
  FindingList,
  MAX_FINDINGS_PER_MESSAGE,
  MAX_FINDINGS_PER_VALIDATION,
  type OmittedFindings,
} from './findings.ts';
import type { FindingCode } from './codes.ts';
import type { Delimiters, Finding, Group, Interchange, Message, Position, Segment } from './model.ts';
import { checkServiceSegment, isKnownSyntaxIdentifier, isKnownSyntaxVersion } from './syntax.ts';
import { TokenReader } from './tokenizer/reader.ts';
import type { TokenizerOptions } from './tokenizer/types.ts';
import { BGM, ScreenedMessage, scannedSegment, type ScannedMessage } from './screen.ts';
import { work } from './work.ts';

/** Options of the parser. */
export type ParserOptions = TokenizerOptions & {
  /**
   * Keep messages in `interchange.messages` / `group.messages` (default true). The streaming API sets it to false
   * so that memory stays flat: each message is handed to the handler and then dropped.
   */
  retainMessages?: boolean;
  /** Findings listed per message, at most (default `MAX_FINDINGS_PER_MESSAGE`); the rest are counted. */
  maxFindingsPerMessage?: number;
};

/** Receives what the parser builds, in input order. */
export type ParseHandler = {
  /**
   * A message closed by UNT (or by what follows it, when UNT is missing), with its level 1 findings (at most
   * `maxFindingsPerMessage`, ordered by position) and, when there were more, how many were left out.
   */
  message?(message: Message, interchange: Interchange, findings: Finding[], omitted?: OmittedFindings): void;
  /** An interchange closed by UNZ, by the next UNB or by the end of input. */
  interchange?(interchange: Interchange): void;
  /** A finding not tied to one message (envelope, stray data, end of input). */
  finding?(finding: Finding): void;
};

/** Validation's fast path (see screen.ts): a level's yes/no answer on a message the tokenizer scanned clean. */
export type Screen = (message: ScannedMessage) => boolean;

/**
 * The engine's handler: `ParseHandler`, and for each message how many of the leading screens it passed (those levels
 * have nothing to report; 0 for a message that took the plain path).
 */
export type CoreParseHandler = Omit<ParseHandler, 'message'> & {
  message?(
    message: Message,
    interchange: Interchange,
    findings: Finding[],
    screened: number,
    omitted?: OmittedFindings,
  ): void;
};

/** The result of `parse`. */
export type ParseResult = {
  interchanges: Interchange[];
  /** The level 1 findings, ordered by position: the first `MAX_FINDINGS_PER_VALIDATION` (and per message, the first `MAX_FINDINGS_PER_MESSAGE`). */
  findings: Finding[];
  /** Findings found but not listed (past the caps), per severity; present only when some were. */
  omitted?: OmittedFindings;
};

type OpenMessage = {
  message: Message;
  /** Created with the message's first finding (most messages have none). */
  findings: FindingList | undefined;
  /** Occurrences per tag of message.segments[0, counted), counted only once a segment needs its occurrence number. */
  tags: Map<string, number> | undefined;
  counted: number;
};
type OpenGroup = { group: Group; count: number };
type OpenInterchange = {
  interchange: Interchange;
  /** Created for messages without UNB. */
  bare: boolean;
  groupCount: number;
  directCount: number;
  messageRefs: Set<string>;
  groupRefs: Set<string>;
  mixedReported: boolean;
  lastSegment: Segment | undefined;
};

/**
 * Duplicate-reference checks remember at most this many references per interchange, so that a stream of millions
 * of messages keeps a flat memory profile (duplicates further apart are not reported).
 */
const MAX_TRACKED_REFERENCES = 100_000;

const path1 = (tag: string, rest: string): string => (rest === '' ? `${tag}[1]` : `${tag}[1]/${rest}`);

/**
 * A push parser. Feed chunks with `write`, finish with `end`; the handler receives messages, interchanges and
 * findings as they complete. Never throws on bad input.
 */
export class Parser {
  readonly #core: ParserCore;

  constructor(handler: ParseHandler, options: ParserOptions = {}) {
    const { message, interchange, finding } = handler;
    this.#core = new ParserCore(
      {
        message: message && ((m, i, findings, _screened, omitted) => message.call(handler, m, i, findings, omitted)),
        interchange: interchange?.bind(handler),
        finding: finding?.bind(handler),
      },
      options,
    );
  }

  /** Feeds the next chunk of bytes or text. */
  write(chunk: Uint8Array | string): void {
    this.#core.write(chunk);
  }

  /** Ends the input: open messages, groups and interchanges are closed with findings. */
  end(): void {
    this.#core.end();
  }
}

/**
 * The parser the engine runs (engine-internal; `Parser` is its public face): with validation's screens, the parallel
 * mode's `resume`, and `inMessage`.
 */
export class ParserCore {
  private readonly tokenizer: TokenReader;
  private readonly handler: CoreParseHandler;
  private readonly retain: boolean;
  private readonly strict: boolean;
  private readonly maxPerMessage: number;
  private ic: OpenInterchange | undefined;
  private group: OpenGroup | undefined;
  private msg: OpenMessage | undefined;
  private pendingUna: Segment | undefined;
  private pkg: Interchange['packages'][number] | undefined;
  private strayReported = false;
  private segmentCount = 0;
  private lastSegment: Segment | undefined;

  /**
   * `screens`: validation's fast path, the screens of the levels that have one, in level order. With them, a message
   * the syntax level finds clean in one pass over its text is handed on as a ScreenedMessage, with the number of
   * leading screens it passed.
   */
  constructor(handler: CoreParseHandler, options: ParserOptions = {}, screens?: readonly Screen[]) {
    this.handler = handler;
    this.retain = options.retainMessages !== false;
    this.strict = options.strict === true;
    this.maxPerMessage = options.maxFindingsPerMessage ?? MAX_FINDINGS_PER_MESSAGE;
    this.tokenizer = new TokenReader(
      {
        segment: (segment, findings) => this.onSegment(segment, findings),
        finding: (finding) => this.globalFinding(finding),
        object: (bytes) => {
          if (this.pkg) this.pkg.bytes = bytes;
        },
      },
      options,
    );
    if (screens !== undefined) this.tokenizer.screen = (m) => this.screenMessage(m, screens);
  }

  /** Feeds the next chunk of bytes or text. */
  write(chunk: Uint8Array | string): void {
    this.tokenizer.write(chunk);
  }

  /**
   * For the parallel mode, once the interchange header has been written: continues at `part.offset`
   * (see `TokenReader.jump`) as if the `messages` messages before it, with these references, had been read.
   */
  resume(part: {
    offset: number;
    line: number;
    lineStart: number;
    messages: number;
    references: readonly string[];
  }): void {
    this.tokenizer.jump(part.offset, part.line, part.lineStart);
    const ic = this.ic;
    if (!ic) return;
    ic.directCount += part.messages;
    for (const reference of part.references) {
      if (ic.messageRefs.size >= MAX_TRACKED_REFERENCES) break;
      if (reference !== '') ic.messageRefs.add(reference);
    }
  }

  /** Whether a message is open (read up to now without its end). */
  get inMessage(): boolean {
    return this.msg !== undefined;
  }

  /**
   * A message the tokenizer scanned clean (see screen.ts): taken, with the envelope bookkeeping of onUnh, onUnt and
   * closeMessage, when the syntax level has nothing to report on it either; else left to the plain path.
   */
  private screenMessage(m: ScannedMessage, screens: readonly Screen[]): boolean {
    const ic = this.ic;
    if (ic === undefined || this.msg !== undefined || this.pkg !== undefined) return false;
    if (this.group === undefined && ic.groupCount > 0 && !ic.mixedReported) return false;
    const header = scannedSegment(m, 0, m.line, m.lineStart);
    const unh = header.elements;
    const reference = unh[0]?.components[0] ?? '';
    if (reference !== '' && ic.messageRefs.has(reference)) return false;
    const version = this.version();
    if (checkServiceSegment(header, version).length > 0) return false;
    const trailer = scannedSegment(m, m.count - 1, m.lastLine, m.lastLineStart);
    const unt = trailer.elements;
    const countText = unt[0]?.components[0] ?? '';
    if (/^\d+$/.test(countText) && Number(countText) !== m.count) return false;
    const untReference = unt[1]?.components[0] ?? '';
    if (untReference !== '' && untReference !== reference) return false;
    if (checkServiceSegment(trailer, version).length > 0) return false;
    const s009 = unh[1]?.components ?? [];
    m.type = s009[0] ?? '';
    m.version = s009[1] ?? '';
    m.release = s009[2] ?? '';
    m.agency = s009[3] ?? '';
    m.association = s009[4] ?? '';
    m.decimal = ic.interchange.delimiters.decimal;
    m.syntaxVersion = ic.interchange.syntaxVersion || 3;
    let screened = 0;
    while (screened < screens.length && (screens[screened] as Screen)(m)) screened++;
    // Taken: what onUnh, onUnt and closeMessage do for a message without findings.
    this.strayReported = false;
    if (this.group) this.group.count++;
    else ic.directCount++;
    if (reference !== '' && ic.messageRefs.size < MAX_TRACKED_REFERENCES) ic.messageRefs.add(reference);
    this.segmentCount += m.count;
    this.lastSegment = trailer;
    ic.lastSegment = trailer;
    const message = new ScreenedMessage(
      m,
      { reference, association: m.association, documentNumber: documentNumberOf(m, reference) },
      header,
      trailer,
    );
    if (this.retain) {
      if (this.group) this.group.group.messages.push(message);
      else ic.interchange.messages.push(message);
    }
    this.handler.message?.(message, ic.interchange, [], screened);
    return true;
  }

  /** Ends the input: open messages, groups and interchanges are closed with findings. */
  end(): void {
    this.tokenizer.end();
    const last = this.lastSegment;
    if (this.segmentCount === 0 || (this.segmentCount === 1 && last?.tag === 'UNA')) {
      // Nothing but (at most) a service string advice: the interchange never started (part 1 clause 6).
      const at: Position = last ? last.position : { line: 1, column: 1, offset: 0 };
      this.globalFinding(this.finding('EDI_UNEXPECTED_END_OF_FILE', at, last ? 'UNA[1]' : '', { expected: 'UNB' }));
    }
    if (this.msg) this.closeMessageMissingUnt(this.msg.message.segments.at(-1) ?? this.msg.message.header);
    if (this.group) this.closeGroupMissingUne(this.lastSegment);
    if (this.ic) this.closeInterchangeMissingUnz(this.lastSegment);
  }

  private finding(code: FindingCode, at: Position, path: string, extra?: Partial<Finding>): Finding {
    return createFinding(code, {
      path,
      line: at.line,
      column: at.column,
      offset: at.offset,
      level: 'syntax',
      ...extra,
    });
  }

  private globalFinding(finding: Finding): void {
    this.handler.finding?.(finding);
  }

  /** A finding about the open message (kept with it) or, outside messages, a global one. */
  private report(finding: Finding): void {
    if (this.msg) (this.msg.findings ??= new FindingList(this.maxPerMessage)).push(finding);
    else this.globalFinding(finding);
  }

  private onSegment(segment: Segment, segFindings: Finding[] | null): void {
    this.segmentCount++;
    this.lastSegment = segment;
    if (this.ic) this.ic.lastSegment = segment;
    const tag = segment.tag;
    // Service segments start with 'UN'; everything else is message content.
    if (tag.length === 3 && tag.charCodeAt(0) === 0x55 && tag.charCodeAt(1) === 0x4e) {
      switch (tag) {
        case 'UNA':
          this.addSegmentFindings(segment, segFindings, false);
          this.pendingUna = segment;
          return;
        case 'UNB':
          this.addSegmentFindings(segment, segFindings, false);
          this.onUnb(segment);
          return;
        case 'UNG':
          this.onUng(segment, segFindings);
          return;
        case 'UNH':
          this.onUnh(segment, segFindings);
          return;
        case 'UNT':
          this.onUnt(segment, segFindings);
          return;
        case 'UNE':
          this.onUne(segment, segFindings);
          return;
        case 'UNZ':
          this.onUnz(segment, segFindings);
          return;
        case 'UNO':
          this.onUno(segment, segFindings);
          return;
        case 'UNP':
          this.onUnp(segment, segFindings);
          return;
        default:
        // UNS and other service segments used inside messages.
      }
    }
    const open = this.msg;
    if (open) {
      open.message.segments.push(segment);
      if (segFindings) this.addSegmentFindings(segment, segFindings, true);
      if (tag.charCodeAt(0) === 0x42 && tag === 'BGM' && open.message.documentNumber === open.message.reference) {
        // Document number: BGM 1004 (simple in D96A, first component of C106 later), both at element 2.
        const number = segment.elements[1]?.components[0];
        if (number) open.message.documentNumber = number;
      }
      return;
    }
    // A segment outside any message: the message header is missing (part 1 clause 6.1).
    this.addSegmentFindings(segment, segFindings, false);
    if (!this.strayReported) {
      this.strayReported = true;
      const shown = JSON.stringify(tag).slice(1, -1);
      this.report(this.finding('EDI_MISSING_UNH', segment.position, `${shown}[1]`, { expected: 'UNH', actual: tag }));
    }
  }

  /** Turns tokenizer findings of a segment (`TAG/e/c`) into message paths (`TAG[n]/e/c`) and records them. */
  private addSegmentFindings(segment: Segment, findings: Finding[] | null, inMessage: boolean): void {
    if (!findings) return;
    let occurrence = 1;
    const open = this.msg;
    if (inMessage && open) {
      // Occurrences counted once per segment, when first needed: a message of thousands of bad segments stays linear.
      const segments = open.message.segments;
      const tags = (open.tags ??= new Map());
      work.steps += segments.length - open.counted;
      for (; open.counted < segments.length; open.counted++) {
        const tag = (segments[open.counted] as Segment).tag;
        tags.set(tag, (tags.get(tag) ?? 0) + 1);
      }
      occurrence = tags.get(segment.tag) ?? 0;
    }
    const tag = JSON.stringify(segment.tag).slice(1, -1);
    for (const f of findings) {
      if (f.path === tag || f.path.startsWith(tag + '/')) {
        f.path = `${tag}[${occurrence}]${f.path.slice(tag.length)}`;
      }
      this.report(f);
    }
  }

  private serviceChecks(segment: Segment, version: number): void {
    for (const issue of checkServiceSegment(segment, version)) {
      const extra: Partial<Finding> = { params: { element: issue.element } };
      if (issue.component !== undefined) (extra.params as Record<string, number>).component = issue.component;
      if (issue.expected !== undefined) extra.expected = issue.expected;
      if (issue.actual !== undefined) extra.actual = issue.actual;
      this.report(this.finding(issue.code, segment.position, path1(segment.tag, issue.path), extra));
    }
  }

  private version(): number {
    return this.ic?.interchange.syntaxVersion || 3;
  }

  private onUnb(segment: Segment): void {
    if (this.msg) this.closeMessageMissingUnt(segment);
    if (this.group) this.closeGroupMissingUne(segment);
    if (this.ic) this.closeInterchangeMissingUnz(segment);
    this.strayReported = false;
    const s001 = segment.elements[0]?.components ?? [];
    const id = s001[0] ?? '';
    const versionText = s001[1] ?? '';
    const version = isKnownSyntaxVersion(versionText) ? Number(versionText) : 0;
    const interchange: Interchange = {
      delimiters: { ...this.tokenizer.delimiters },
      syntaxIdentifier: id,
      syntaxVersion: version,
      controlReference: segment.elements[4]?.components[0] ?? '',
      sender: segment.elements[1]?.components[0] ?? '',
      recipient: segment.elements[2]?.components[0] ?? '',
      header: segment,
      groups: [],
      messages: [],
      packages: [],
    };
    if (this.pendingUna) interchange.una = this.pendingUna;
    this.pendingUna = undefined;
    this.ic = this.openInterchange(interchange, false);
    // Part 1 clause 5 and data element 0001/0002: only the syntax identifiers and versions of ISO 9735.
    if (id !== '' && !isKnownSyntaxIdentifier(id)) {
      this.report(
        this.finding('EDI_UNSUPPORTED_SYNTAX', segment.position, 'UNB[1]/S001/0001', {
          actual: id,
          params: { element: 1, component: 1 },
        }),
      );
    }
    if (versionText !== '' && version === 0) {
      this.report(
        this.finding('EDI_UNSUPPORTED_SYNTAX', segment.position, 'UNB[1]/S001/0002', {
          actual: versionText,
          expected: '1..4',
          params: { element: 1, component: 2 },
        }),
      );
    }
    this.serviceChecks(segment, version || 4);
  }

  private openInterchange(interchange: Interchange, bare: boolean): OpenInterchange {
    return {
      interchange,
      bare,
      groupCount: 0,
      directCount: 0,
      messageRefs: new Set(),
      groupRefs: new Set(),
      mixedReported: false,
      lastSegment: interchange.header,
    };
  }

  /** Messages without UNB: accepted in a synthetic interchange, with a warning (an error when strict). */
  private ensureInterchange(segment: Segment): OpenInterchange {
    if (this.ic) return this.ic;
    const d: Delimiters = { ...this.tokenizer.delimiters };
    const interchange: Interchange = {
      delimiters: d,
      syntaxIdentifier: '',
      syntaxVersion: d.repetition !== ' ' && d.repetition !== '' ? 4 : 3,
      controlReference: '',
      groups: [],
      messages: [],
      packages: [],
    };
    if (this.pendingUna) interchange.una = this.pendingUna;
    this.pendingUna = undefined;
    this.ic = this.openInterchange(interchange, true);
    this.globalFinding(
      this.finding('EDI_MISSING_UNB', segment.position, 'UNB[1]', {
        expected: 'UNB',
        actual: segment.tag,
        ...(this.strict ? { severity: 'error' as const } : {}),
      }),
    );
    return this.ic;
  }

  private onUng(segment: Segment, segFindings: Finding[] | null): void {
    if (this.msg) this.closeMessageMissingUnt(segment);
    if (this.group) this.closeGroupMissingUne(segment);
    const ic = this.ensureInterchange(segment);
    this.addSegmentFindings(segment, segFindings, false);
    this.strayReported = false;
    // UNG 0048 is the fifth element (after 0038, S006, S007, S004) in every syntax version.
    const reference = segment.elements[4]?.components[0] ?? '';
    const group: Group = { header: segment, reference, messages: [] };
    ic.groupCount++;
    if (ic.directCount > 0 && !ic.mixedReported) {
      // Part 1 clause 6.1: an interchange holds either functional groups or messages, not both.
      ic.mixedReported = true;
      this.report(this.finding('EDI_MIXED_GROUPS_AND_MESSAGES', segment.position, 'UNG[1]'));
    }
    if (reference !== '') {
      if (ic.groupRefs.has(reference)) {
        this.report(
          this.finding('EDI_DUPLICATE_GROUP_REFERENCE', segment.position, 'UNG[1]/0048', {
            actual: reference,
            params: { element: 5 },
          }),
        );
      }
      if (ic.groupRefs.size < MAX_TRACKED_REFERENCES) ic.groupRefs.add(reference);
    }
    ic.interchange.groups.push(group);
    this.group = { group, count: 0 };
    this.serviceChecks(segment, this.version());
  }

  private onUnh(segment: Segment, segFindings: Finding[] | null): void {
    if (this.msg) this.closeMessageMissingUnt(segment);
    const ic = this.ensureInterchange(segment);
    this.strayReported = false;
    const reference = segment.elements[0]?.components[0] ?? '';
    const s009 = segment.elements[1]?.components ?? [];
    const type = s009[0] ?? '';
    const version = s009[1] ?? '';
    const release = s009[2] ?? '';
    const message: Message = {
      reference,
      type,
      version,
      release,
      agency: s009[3] ?? '',
      directory: version + release,
      documentNumber: reference,
      segments: [segment],
      header: segment,
    };
    const association = s009[4];
    if (association) message.association = association;
    this.msg = { message, findings: undefined, tags: undefined, counted: 0 };
    this.addSegmentFindings(segment, segFindings, true);
    if (this.group) this.group.count++;
    else {
      ic.directCount++;
      if (ic.groupCount > 0 && !ic.mixedReported) {
        ic.mixedReported = true;
        this.report(this.finding('EDI_MIXED_GROUPS_AND_MESSAGES', segment.position, 'UNH[1]'));
      }
    }
    if (reference !== '') {
      if (ic.messageRefs.has(reference)) {
        this.report(
          this.finding('EDI_DUPLICATE_MESSAGE_REFERENCE', segment.position, 'UNH[1]/0062', {
            actual: reference,
            params: { element: 1 },
          }),
        );
      }
      if (ic.messageRefs.size < MAX_TRACKED_REFERENCES) ic.messageRefs.add(reference);
    }
    this.serviceChecks(segment, this.version());
  }

  private onUnt(segment: Segment, segFindings: Finding[] | null): void {
    const open = this.msg;
    if (!open) {
      this.addSegmentFindings(segment, segFindings, false);
      this.report(this.finding('EDI_MISSING_UNH', segment.position, 'UNT[1]', { expected: 'UNH', actual: 'UNT' }));
      return;
    }
    const message = open.message;
    message.segments.push(segment);
    message.trailer = segment;
    this.addSegmentFindings(segment, segFindings, true);
    this.serviceChecks(segment, this.version());
    // Part 1 annex B, UNT: 0074 counts the segments of the message, UNH and UNT included; 0062 repeats UNH's.
    const countText = segment.elements[0]?.components[0] ?? '';
    if (/^\d+$/.test(countText) && Number(countText) !== message.segments.length) {
      this.report(
        this.finding('EDI_UNT_COUNT_MISMATCH', segment.position, 'UNT[1]/0074', {
          expected: String(message.segments.length),
          actual: countText,
          params: { element: 1, declared: Number(countText), counted: message.segments.length },
        }),
      );
    }
    const reference = segment.elements[1]?.components[0] ?? '';
    if (reference !== '' && reference !== message.reference) {
      this.report(
        this.finding('EDI_UNT_REFERENCE_MISMATCH', segment.position, 'UNT[1]/0062', {
          expected: message.reference,
          actual: reference,
          params: { element: 2 },
        }),
      );
    }
    this.closeMessage();
  }

  private onUne(segment: Segment, segFindings: Finding[] | null): void {
    if (this.msg) this.closeMessageMissingUnt(segment);
    this.addSegmentFindings(segment, segFindings, false);
    const open = this.group;
    if (!open) {
      this.report(this.finding('EDI_MISSING_UNG', segment.position, 'UNE[1]', { expected: 'UNG', actual: 'UNE' }));
      return;
    }
    open.group.trailer = segment;
    this.serviceChecks(segment, this.version());
    // Part 1 annex B, UNE: 0060 counts the messages of the group; 0048 repeats UNG's.
    const countText = segment.elements[0]?.components[0] ?? '';
    if (/^\d+$/.test(countText) && Number(countText) !== open.count) {
      this.report(
        this.finding('EDI_UNE_COUNT_MISMATCH', segment.position, 'UNE[1]/0060', {
          expected: String(open.count),
          actual: countText,
          params: { element: 1, declared: Number(countText), counted: open.count },
        }),
      );
    }
    const reference = segment.elements[1]?.components[0] ?? '';
    if (reference !== '' && reference !== open.group.reference) {
      this.report(
        this.finding('EDI_UNE_REFERENCE_MISMATCH', segment.position, 'UNE[1]/0048', {
          expected: open.group.reference,
          actual: reference,
          params: { element: 2 },
        }),
      );
    }
    this.group = undefined;
  }

  private onUnz(segment: Segment, segFindings: Finding[] | null): void {
    if (this.msg) this.closeMessageMissingUnt(segment);
    if (this.group) this.closeGroupMissingUne(segment);
    this.addSegmentFindings(segment, segFindings, false);
    const ic = this.ic;
    if (!ic || ic.bare) {
      // UNZ with no UNB to close.
      this.report(
        this.finding('EDI_UNEXPECTED_SEGMENT', segment.position, 'UNZ[1]', {
          level: 'syntax',
          expected: 'UNB',
          actual: 'UNZ',
        }),
      );
      if (ic) this.closeInterchange();
      return;
    }
    ic.interchange.trailer = segment;
    this.serviceChecks(segment, this.version());
    // Part 1 annex B, UNZ: 0036 counts the groups when there are any, else the messages; 0020 repeats UNB's.
    const counted = ic.groupCount > 0 ? ic.groupCount : ic.directCount;
    const countText = segment.elements[0]?.components[0] ?? '';
    if (/^\d+$/.test(countText) && Number(countText) !== counted) {
      this.report(
        this.finding('EDI_UNZ_COUNT_MISMATCH', segment.position, 'UNZ[1]/0036', {
          expected: String(counted),
          actual: countText,
          params: { element: 1, declared: Number(countText), counted },
        }),
      );
    }
    const reference = segment.elements[1]?.components[0] ?? '';
    if (reference !== '' && reference !== ic.interchange.controlReference) {
      this.report(
        this.finding('EDI_UNZ_REFERENCE_MISMATCH', segment.position, 'UNZ[1]/0020', {
          expected: ic.interchange.controlReference,
          actual: reference,
          params: { element: 2 },
        }),
      );
    }
    this.closeInterchange();
  }

  private onUno(segment: Segment, segFindings: Finding[] | null): void {
    if (this.msg) this.closeMessageMissingUnt(segment);
    const ic = this.ensureInterchange(segment);
    this.addSegmentFindings(segment, segFindings, false);
    if (this.pkg) this.report(this.finding('EDI_MISSING_UNP', segment.position, 'UNO[1]', { expected: 'UNP' }));
    this.pkg = { header: segment, bytes: new Uint8Array(0) };
    ic.interchange.packages.push(this.pkg);
    // Part 1 clause 6.1 (syntax 4): packages count like messages in UNE/UNZ.
    if (this.group) this.group.count++;
    else ic.directCount++;
    this.serviceChecks(segment, 4);
  }

  private onUnp(segment: Segment, segFindings: Finding[] | null): void {
    this.addSegmentFindings(segment, segFindings, false);
    if (!this.pkg) {
      this.report(
        this.finding('EDI_UNEXPECTED_SEGMENT', segment.position, 'UNP[1]', {
          level: 'syntax',
          expected: 'UNO',
          actual: 'UNP',
        }),
      );
      return;
    }
    this.pkg.trailer = segment;
    this.pkg = undefined;
    this.serviceChecks(segment, 4);
  }

  private closeMessageMissingUnt(at: Segment): void {
    const open = this.msg;
    if (!open) return;
    (open.findings ??= new FindingList(this.maxPerMessage)).push(
      this.finding('EDI_MISSING_UNT', at.position, 'UNT[1]', { expected: 'UNT', actual: at.tag }),
    );
    this.closeMessage();
  }

  private closeMessage(): void {
    const open = this.msg;
    if (!open) return;
    this.msg = undefined;
    const { message } = open;
    const list = open.findings;
    const findings = list === undefined ? [] : list.take();
    for (const f of findings) {
      f.messageType ??= message.type;
      f.version ??= message.directory;
      f.documentNumber ??= message.documentNumber;
      f.messageReference ??= message.reference;
    }
    const ic = this.ic as OpenInterchange;
    if (this.retain) {
      if (this.group) this.group.group.messages.push(message);
      else ic.interchange.messages.push(message);
    }
    const omitted = list?.omitted;
    const any = omitted !== undefined && omitted.errors + omitted.warnings + omitted.infos > 0;
    this.handler.message?.(message, ic.interchange, findings, 0, any ? omitted : undefined);
  }

  private closeGroupMissingUne(at: Segment | undefined): void {
    if (!this.group) return;
    const pos = at?.position ?? this.group.group.header.position;
    this.report(this.finding('EDI_MISSING_UNE', pos, 'UNE[1]', { expected: 'UNE', actual: at?.tag ?? '' }));
    this.group = undefined;
  }

  private closeInterchangeMissingUnz(at: Segment | undefined): void {
    const ic = this.ic;
    if (!ic) return;
    if (!ic.bare) {
      const pos = at?.position ?? ic.lastSegment?.position ?? { line: 1, column: 1, offset: 0 };
      this.report(this.finding('EDI_MISSING_UNZ', pos, 'UNZ[1]', { expected: 'UNZ', actual: at?.tag ?? '' }));
    }
    this.closeInterchange();
  }

  private closeInterchange(): void {
    const ic = this.ic;
    if (!ic) return;
    this.ic = undefined;
    if (this.pkg) {
      this.report(this.finding('EDI_MISSING_UNP', this.pkg.header.position, 'UNO[1]', { expected: 'UNP' }));
      this.pkg = undefined;
    }
    this.handler.interchange?.(ic.interchange);
  }
}

/** BGM 1004 of a scanned message as onSegment finds it (the first non-empty one), else the reference. */
const documentNumberOf = (m: ScannedMessage, reference: string): string => {
  const s = m.text;
  let number = reference;
  for (let i = 1; i < m.count - 1 && number === reference; i++) {
    if (m.codes[i] !== BGM) continue;
    // Element 2, component 1: after the second element separator, up to the next separator.
    const end = m.ends[i] as number;
    let p = (m.starts[i] as number) + 3;
    let seen = 0;
    for (; p < end && seen < 2; p++) if (s.charCodeAt(p) === m.elem) seen++;
    if (seen < 2) continue;
    let q = p;
    while (q < end && s.charCodeAt(q) !== m.elem && s.charCodeAt(q) !== m.comp) q++;
    if (q > p) number = s.slice(p, q);
  }
  return number;
};

/** Parses a whole input (bytes or text). Never throws on bad input; see `Parser` for streaming. */
export const parse = (input: Uint8Array | string, options: ParserOptions = {}): ParseResult => {
  const interchanges: Interchange[] = [];
  const findings = new FindingList(MAX_FINDINGS_PER_VALIDATION);
  const parser = new ParserCore(
    {
      message: (_m, _i, messageFindings, _screened, omitted) => {
        for (const f of messageFindings) findings.push(f);
        if (omitted) addOmitted(findings.omitted, omitted);
      },
      interchange: (interchange) => interchanges.push(interchange),
      finding: (f) => findings.push(f),
    },
    options,
  );
  parser.write(input);
  parser.end();
  const listed = findings.take();
  const { omitted } = findings;
  return omitted.errors + omitted.warnings + omitted.infos > 0
    ? { interchanges, findings: listed, omitted }
    : { interchanges, findings: listed };
};

/**
 * Parsed objects take tens of times the space of their text, so streams are fed to the parser in slices of this
 * size and handed on after each slice: live memory stays small whatever the chunk size of the source.
 */
const STREAM_SLICE = 64 * 1024;

/** A chunk cut into slices of at most STREAM_SLICE units. */
export function* slices(chunk: Uint8Array | string): Generator<Uint8Array | string> {
  if (chunk.length <= STREAM_SLICE) {
    yield chunk;
    return;
  }
  for (let i = 0; i < chunk.length; i += STREAM_SLICE) {
    yield typeof chunk === 'string' ? chunk.slice(i, i + STREAM_SLICE) : chunk.subarray(i, i + STREAM_SLICE);
  }
}

/** What the streaming parser yields. */
export type ParseEvent =
  | {
      type: 'message';
      message: Message;
      interchange: Interchange;
      findings: Finding[];
      /** Findings past `MAX_FINDINGS_PER_MESSAGE`, counted, when there were any. */
      omitted?: OmittedFindings;
    }
  | { type: 'interchange'; interchange: Interchange }
  | { type: 'finding'; finding: Finding };

/**
 * Parses a stream of chunks and yields messages one at a time (interchanges do not retain their messages), so
 * memory stays bounded by the largest message, whatever the input size.
 */
export async function* parseStream(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: TokenizerOptions = {},
): AsyncGenerator<ParseEvent> {
  let queue: ParseEvent[] = [];
  const parser = new ParserCore(
    {
      message: (message, interchange, findings, _screened, omitted) =>
        queue.push(
          omitted
            ? { type: 'message', message, interchange, findings, omitted }
            : { type: 'message', message, interchange, findings },
        ),
      interchange: (interchange) => queue.push({ type: 'interchange', interchange }),
      finding: (finding) => queue.push({ type: 'finding', finding }),
    },
    { ...options, retainMessages: false },
  );
  for await (const chunk of source) {
    for (const piece of slices(chunk)) {
      parser.write(piece);
      if (queue.length > 0) {
        const batch = queue;
        queue = [];
        for (const event of batch) yield event;
      }
    }
  }
  parser.end();
  for (const event of queue) yield event;
}
