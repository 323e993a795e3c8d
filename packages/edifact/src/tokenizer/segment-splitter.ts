/**
 * Segment splitting: one segment of the buffer, from its tag to its terminator, into elements, components and
 * repetitions (ISO 9735 part 1 clauses 8 and 9), with the findings about its own content (characters, release,
 * tag) positioned in it. Also the state of the text being read that the reader (reader.ts) and the message scanner
 * (message-scanner.ts) share: the buffer, the line count, the service characters and character set in force.
 *
 * Engine-internal: not exported by the package, so its fields are open to the reader and the scanner.
 */
import { getCharset, getUndeclaredCharset, type Charset } from '../charsets.ts';
import type { FindingCode } from '../codes.ts';
import { createFinding } from '../findings.ts';
import type { Delimiters, Element, Finding, Position, Segment } from '../model.ts';
import { RawSegment } from '../segment.ts';
import { internTag } from '../tags.ts';
import { work } from '../work.ts';
import {
  CR,
  fillClassTable,
  isTagChar,
  isWhitespace,
  K_COMP,
  K_CR,
  K_ELEM,
  K_HIGH,
  K_LF,
  K_PLAIN,
  K_REL,
  K_REP,
  K_TERM,
  LF,
} from './classes.ts';
import { DEFAULT_DELIMITERS, delimitersForVersion } from './service-string.ts';
import type { TokenHandler } from './types.ts';
import { decodeUnits } from './units.ts';

/** The first `n` entries of a scratch array as an exact-size array (faster than `slice` for these sizes). */
const exactElements = (scratch: Element[], n: number): Element[] => {
  switch (n) {
    case 1:
      return [scratch[0] as Element];
    case 2:
      return [scratch[0] as Element, scratch[1] as Element];
    case 3:
      return [scratch[0] as Element, scratch[1] as Element, scratch[2] as Element];
    case 4:
      return [scratch[0] as Element, scratch[1] as Element, scratch[2] as Element, scratch[3] as Element];
    default: {
      const out: Element[] = [];
      for (let i = 0; i < n; i++) out.push(scratch[i] as Element);
      return out;
    }
  }
};

/** A tag as it may appear in a path: control characters escaped. */
const printable = (tag: string): string => JSON.stringify(tag).slice(1, -1);

/**
 * The state of the text being read and the splitting of one segment of it (`emitSegment`). The reader extends it
 * with chunks, waits and the loop over segments.
 */
export class SegmentSplitter {
  readonly handler: TokenHandler;
  mode: 'binary' | 'text' | undefined;
  buf = '';
  /** The bytes of `buf` (binary input: one byte per unit, same indexes), or undefined; the screen reads them. */
  bytes: Uint8Array | undefined = undefined;
  /**
   * Index in buf of the next LF / CR at or after the last line count (buf.length when there is none; -1 unknown).
   * Line counting looks for line breaks with indexOf instead of reading every unit of every segment.
   */
  nextLf = -1;
  nextCr = -1;
  /** Absolute offset of buf[0]. */
  base = 0;
  line = 1;
  /** Absolute offset of the first unit of the current line. */
  lineStart = 0;
  index = 0;
  whitespaceReported = false;
  /** A UNA set the service characters of the interchange that follows. */
  unaApplies = false;
  /** The length of the package object that follows a UNO (-1 none). */
  objectLength = -1;
  charset: Charset = getUndeclaredCharset();
  table = new Uint8Array(256);
  comp = 0;
  elem = 0;
  rel = -1;
  rep = -1;
  term = 0;
  /** Service characters in force. */
  delimiters: Delimiters = { ...DEFAULT_DELIMITERS };
  /** Components of the element being built (see takeComponents). */
  private readonly scratchComps: string[] = [];
  /** Elements of the segment being built. */
  private readonly scratchElems: Element[] = [];
  /** Findings of the segment being built (reused only within one call). */
  private segFindings: Finding[] | null = null;
  private rawTag = '';
  /** The tag of the segment being built, as shown in paths (escaped only when a finding needs it). */
  private get segTag(): string {
    return printable(this.rawTag);
  }
  /** Where the segment being built starts, to position findings found after its line breaks were counted. */
  private segStartAbs = 0;
  private segStartLine = 1;
  private segStartLineStart = 0;
  /** The last position positionInSegment counted lines up to (absolute; -1 none): the next one resumes there. */
  private posAt = -1;
  private posLine = 1;
  private posLineStart = 0;
  /** One invalid-release finding per segment is enough to locate the problem. */
  private releaseReported = false;

  constructor(handler: TokenHandler) {
    this.handler = handler;
    this.applyDelimiters();
  }

  applyDelimiters(): void {
    const d = this.delimiters;
    this.comp = d.component.charCodeAt(0);
    this.elem = d.element.charCodeAt(0);
    this.term = d.segment.charCodeAt(0);
    this.rel = d.release === '' || d.release === ' ' ? -1 : d.release.charCodeAt(0);
    this.rep = d.repetition === '' || d.repetition === ' ' ? -1 : d.repetition.charCodeAt(0);
    fillClassTable(this.table, this.charset, this.mode === 'binary' && this.charset.decoding !== 'latin1', this);
  }

  position(abs: number): Position {
    return { line: this.line, column: abs - this.lineStart + 1, offset: abs };
  }

  report(code: FindingCode, at: Position, path: string, extra?: Partial<Finding>): Finding {
    const f = createFinding(code, { path, line: at.line, column: at.column, offset: at.offset, ...extra });
    return f;
  }

  /** Counts line breaks in buf[from, to) (whitespace or object data). */
  skipLines(from: number, to: number): void {
    const s = this.buf;
    let lf = this.nextLf;
    if (lf < from) {
      lf = s.indexOf('\n', from);
      this.nextLf = lf = lf === -1 ? s.length : lf;
      work.steps += lf - from;
    }
    let cr = this.nextCr;
    if (cr < from) {
      cr = s.indexOf('\r', from);
      this.nextCr = cr = cr === -1 ? s.length : cr;
      work.steps += cr - from;
    }
    if (lf >= to && cr >= to) return;
    // Only a break inside this range is used up: the other kind's next position still holds, so a file with LF
    // and no CR does not search to its end for a CR once a segment (that was quadratic).
    if (lf < to) this.nextLf = -1;
    if (cr < to) this.nextCr = -1;
    for (let i = lf < cr ? lf : cr; i < to; i++) {
      const c = s.charCodeAt(i);
      if (c === LF) {
        this.line++;
        this.lineStart = this.base + i + 1;
      } else if (c === CR && s.charCodeAt(i + 1) !== LF) {
        this.line++;
        this.lineStart = this.base + i + 1;
      }
    }
  }

  /** Builds the segment buf[start, end) (end = index of its terminator, or of the end of input). */
  emitSegment(start: number, end: number, unterminated: boolean): void {
    const s = this.buf;
    const table = this.table;
    const base = this.base;
    const segLine = this.line;
    const segLineStart = this.lineStart;
    this.segFindings = null;
    this.releaseReported = false;
    this.segStartAbs = base + start;
    this.posAt = -1;
    this.segStartLine = segLine;
    this.segStartLineStart = segLineStart;
    let segStart = start;
    let invalidSeen = false;

    // Segment tag: up to the first element separator, component separator or the end (clause 8.1).
    let i = start;
    let tag: string | undefined;
    if (end - start >= 3 && (end === start + 3 || table[s.charCodeAt(start + 3)] === K_ELEM)) {
      // The usual case: three tag characters and an element separator (or the end).
      tag = internTag(s, start);
      i = start + 3;
    } else {
      for (; i < end; i++) {
        const c = s.charCodeAt(i);
        const k = c < 256 ? table[c] : K_PLAIN;
        if (k === K_ELEM || k === K_COMP || k === K_REL || k === K_REP) break;
      }
    }
    if (tag === undefined) tag = i - start === 3 ? internTag(s, start) : s.slice(start, i);
    if (
      tag === undefined ||
      !(
        tag.length === 3 &&
        isTagChar(tag.charCodeAt(0)) &&
        isTagChar(tag.charCodeAt(1)) &&
        isTagChar(tag.charCodeAt(2))
      )
    ) {
      // Stray text before a tag (e.g. '####\nUNB'): keep the trailing three tag characters as the tag.
      let j = i;
      while (j > start && isTagChar(s.charCodeAt(j - 1))) j--;
      const prev = j > start ? s.charCodeAt(j - 1) : -1;
      if (i - j === 3 && j > start && (isWhitespace(prev) || !isTagChar(prev))) {
        const junkAt = this.positionInSegment(start);
        this.handler.finding(
          this.report('EDI_UNEXPECTED_CHARACTER', junkAt, '', {
            actual: s.slice(start, j),
            params: { count: j - start },
          }),
        );
        segStart = j;
        tag = internTag(s, j);
      } else {
        const at = this.positionInSegment(start);
        if (tag === '' && i === end) {
          // An empty segment (two terminators in a row): nothing to emit.
          this.handler.finding(this.report('EDI_UNEXPECTED_SEPARATOR', at, '', { actual: this.delimiters.segment }));
          this.skipLines(start, end + (unterminated ? 0 : 1));
          return;
        }
        (this.segFindings ??= []).push(
          this.report('EDI_INVALID_SEGMENT_TAG', at, printable(tag), { actual: tag, expected: 'a3' }),
        );
      }
    }
    this.rawTag = tag;
    // The usual segment keeps its position as numbers (RawSegment): no Position object per segment.
    const moved = segStart === start ? undefined : this.positionInSegment(segStart);
    const line = moved === undefined ? segLine : moved.line;
    const offset = base + segStart;
    const column = moved === undefined ? offset - segLineStart + 1 : moved.column;

    let elements: Element[] = [];
    if (i < end) {
      const firstK = table[s.charCodeAt(i)] ?? K_PLAIN;
      if (firstK !== K_ELEM) {
        // A component, release or repetition separator right after the tag (explicit nesting is not supported).
        (this.segFindings ??= []).push(
          this.report('EDI_UNEXPECTED_SEPARATOR', this.positionInSegment(i), this.segTag, { actual: s.charAt(i) }),
        );
        // Skip to the first element separator so that the rest still parses.
        while (i < end && table[s.charCodeAt(i)] !== K_ELEM) i++;
      }
    }
    if (!unterminated) {
      // The usual case: nothing but data units and component and element separators up to the terminator. The
      // segment keeps its text; elements are split when first read (see RawSegment).
      let p = i + 1;
      for (; p < end; p++) {
        const c = s.charCodeAt(p);
        if (c > 255 || (table[c] as number) > K_ELEM) break;
      }
      if (p >= end) {
        const segment = new RawSegment(
          tag,
          line,
          column,
          offset,
          end - segStart + 1,
          this.index++,
          s,
          i < end ? i : end,
          end,
          this.comp,
          this.elem,
        );
        this.skipLines(start, end + 1);
        const findings = this.segFindings;
        this.segFindings = null;
        if (tag === 'UNB') this.afterUnb(segment);
        else if (tag === 'UNO') this.afterUno(segment);
        this.handler.segment(segment, findings);
        return;
      }
    }
    if (i < end) {
      // i is at an element separator: parse elements, components and repetitions. Components and elements are
      // gathered in reused scratch arrays and copied out at their exact size (no growth, no slack per segment).
      const elems = this.scratchElems;
      let ne = 0;
      const comps = this.scratchComps;
      let nc = 0;
      let reps: string[][] | null = null;
      let cs = i + 1;
      let flags = 0; // 1: release seen, 2: unit needing decoding
      let elementNo = 1;
      let componentNo = 1;
      let value: string;
      for (let p = i + 1; p < end; p++) {
        let c = s.charCodeAt(p);
        // Plain data units, in a tight loop.
        while (c < 256 && table[c] === K_PLAIN) {
          if (++p === end) break;
          c = s.charCodeAt(p);
        }
        if (p === end) break;
        const k = c < 256 ? (table[c] as number) : this.classifyHigh(c);
        if (k === K_PLAIN) continue;
        switch (k) {
          case K_COMP:
            comps[nc++] = flags === 0 ? s.slice(cs, p) : this.value(cs, p, flags, tag, elementNo, componentNo);
            componentNo++;
            cs = p + 1;
            flags = 0;
            break;
          case K_ELEM:
            value = flags === 0 ? s.slice(cs, p) : this.value(cs, p, flags, tag, elementNo, componentNo);
            if (reps === null) {
              elems[ne++] = { components: nc === 0 ? [value] : this.takeComponents(value, nc) };
            } else {
              reps.push(this.takeComponents(value, nc));
              const first = reps.shift() as string[];
              elems[ne++] = { components: first, repeats: reps };
              reps = null;
            }
            nc = 0;
            elementNo++;
            componentNo = 1;
            cs = p + 1;
            flags = 0;
            break;
          case K_REP:
            value = flags === 0 ? s.slice(cs, p) : this.value(cs, p, flags, tag, elementNo, componentNo);
            (reps ??= []).push(this.takeComponents(value, nc));
            nc = 0;
            componentNo = 1;
            cs = p + 1;
            flags = 0;
            break;
          case K_REL:
            flags |= 1;
            p++; // the next unit is data, whatever it is
            if (p < end) {
              const n2 = s.charCodeAt(p);
              if (n2 >= 0x80) flags |= 2;
            }
            break;
          case K_HIGH:
            flags |= 2;
            if (c >= 256 && !this.charset.isValidHigh(c) && !invalidSeen) {
              invalidSeen = true;
              this.invalidChar(p, tag, elementNo, componentNo, segLine, segLineStart);
            }
            break;
          case K_LF:
          case K_CR:
            if (!invalidSeen && this.charset.known) {
              invalidSeen = true;
              this.invalidChar(p, tag, elementNo, componentNo, segLine, segLineStart);
            }
            break;
          case K_TERM:
            // Only reachable for a released terminator handled above, or an unterminated tail: data.
            break;
          default:
            if (!invalidSeen) {
              invalidSeen = true;
              this.invalidChar(p, tag, elementNo, componentNo, segLine, segLineStart);
            }
        }
      }
      value = flags === 0 ? s.slice(cs, end) : this.value(cs, end, flags, tag, elementNo, componentNo);
      if (reps === null) elems[ne++] = { components: nc === 0 ? [value] : this.takeComponents(value, nc) };
      else {
        reps.push(this.takeComponents(value, nc));
        const first = reps.shift() as string[];
        elems[ne++] = { components: first, repeats: reps };
      }
      elements = exactElements(elems, ne);
    }
    if (unterminated) {
      (this.segFindings ??= []).push(
        this.report('EDI_UNEXPECTED_END_OF_FILE', this.positionInSegment(Math.max(start, end - 1)), this.segTag, {
          expected: this.delimiters.segment,
        }),
      );
    }
    const segment: Segment = {
      tag,
      elements,
      position: { line, column, offset },
      length: end - segStart + (unterminated ? 0 : 1),
      index: this.index++,
    };
    // Line breaks inside the segment (and a terminator that is itself a line break) are counted once, here, so
    // that findings above are positioned from the segment start whatever the service characters are.
    this.skipLines(start, unterminated ? end : end + 1);
    const findings = this.segFindings;
    this.segFindings = null;
    if (tag === 'UNB') this.afterUnb(segment);
    else if (tag === 'UNO') this.afterUno(segment);
    this.handler.segment(segment, findings);
  }

  /** The components gathered in the scratch array plus `last`, as an exact-size array. */
  private takeComponents(last: string, count: number): string[] {
    const scratch = this.scratchComps;
    if (count === 0) return [last];
    if (count === 1) return [scratch[0] as string, last];
    if (count === 2) return [scratch[0] as string, scratch[1] as string, last];
    if (count === 3) return [scratch[0] as string, scratch[1] as string, scratch[2] as string, last];
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(scratch[i] as string);
    out.push(last);
    return out;
  }

  private classifyHigh(c: number): number {
    // Text input: units >= 256 are data; the repertoire check happens in the K_HIGH branch.
    return this.charset.isValidHigh(c) ? K_PLAIN : K_HIGH;
  }

  /** Position of buf[p] within the segment being built, whatever line tracking has reached. */
  private positionInSegment(p: number): Position {
    const s = this.buf;
    // Resumed from the last position asked in this segment (findings come in reading order): a segment with a
    // finding per component stays linear.
    let from = this.segStartAbs - this.base;
    let line = this.segStartLine;
    let lineStart = this.segStartLineStart;
    if (this.posAt >= this.segStartAbs && this.posAt - this.base <= p) {
      from = this.posAt - this.base;
      line = this.posLine;
      lineStart = this.posLineStart;
    }
    work.steps += p - from;
    for (let i = from; i < p; i++) {
      const c = s.charCodeAt(i);
      if (c === LF || (c === CR && s.charCodeAt(i + 1) !== LF)) {
        line++;
        lineStart = this.base + i + 1;
      }
    }
    this.posAt = this.base + p;
    this.posLine = line;
    this.posLineStart = lineStart;
    return { line, column: this.base + p - lineStart + 1, offset: this.base + p };
  }

  private invalidChar(
    p: number,
    tag: string,
    elementNo: number,
    componentNo: number,
    segLine: number,
    segLineStart: number,
  ): void {
    void segLine;
    void segLineStart;
    const at = this.positionInSegment(p);
    const code = this.buf.charCodeAt(p);
    (this.segFindings ??= []).push(
      this.report('EDI_INVALID_CHARACTER', at, `${this.segTag}/${elementNo}/${componentNo}`, {
        actual:
          code < 0x20 || code === 0x7f
            ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
            : String.fromCharCode(code),
        expected: this.charset.id,
        params: { syntaxIdentifier: this.charset.id, character: code },
      }),
    );
  }

  /** The slow path of a component: remove release characters, decode bytes. */
  private value(cs: number, ce: number, flags: number, tag: string, elementNo: number, componentNo: number): string {
    const s = this.buf;
    let raw: string;
    if ((flags & 1) !== 0) {
      raw = '';
      let from = cs;
      for (let p = cs; p < ce; p++) {
        if (s.charCodeAt(p) === this.rel) {
          raw += s.slice(from, p);
          const next = s.charCodeAt(p + 1);
          if (p + 1 >= ce) {
            // A release character at the very end (unterminated input): keep it as data.
            from = p;
            break;
          }
          if (
            next !== this.comp &&
            next !== this.elem &&
            next !== this.rel &&
            next !== this.term &&
            next !== this.rep &&
            !this.releaseReported
          ) {
            this.releaseReported = true;
            // Clause 9.3: the release character only precedes a service character.
            (this.segFindings ??= []).push(
              this.report(
                'EDI_INVALID_RELEASE',
                this.positionInSegment(p),
                `${this.segTag}/${elementNo}/${componentNo}`,
                {
                  actual: s.slice(p, p + 2),
                },
              ),
            );
          }
          from = p + 1;
          p++;
        }
      }
      raw += s.slice(from, ce);
    } else {
      raw = s.slice(cs, ce);
    }
    if ((flags & 2) !== 0 && this.mode === 'binary') return this.decode(raw, cs, tag, elementNo, componentNo);
    return raw;
  }

  private decode(raw: string, cs: number, tag: string, elementNo: number, componentNo: number): string {
    const cs_ = this.charset;
    const text = decodeUnits(raw, cs_);
    if (text !== undefined) return text;
    // Not UTF-8 although the set says so (e.g. Latin-1 bytes under UNOW): report once, keep the bytes.
    if (cs_.known) {
      (this.segFindings ??= []).push(
        this.report('EDI_INVALID_CHARACTER', this.positionInSegment(cs), `${this.segTag}/${elementNo}/${componentNo}`, {
          expected: cs_.id,
          params: { syntaxIdentifier: cs_.id, encoding: 'utf-8' },
        }),
      );
    }
    return raw;
  }

  private afterUnb(segment: Segment): void {
    const s001 = segment.elements[0]?.components;
    const id = s001?.[0] ?? '';
    this.delimiters = delimitersForVersion(this.delimiters, s001?.[1] ?? '', this.unaApplies);
    this.charset = id === '' ? getUndeclaredCharset() : getCharset(id);
    this.unaApplies = false;
    this.applyDelimiters();
  }

  private afterUno(segment: Segment): void {
    // ISO 9735 part 8: UNO S022 0810 gives the length of the object in octets, which follows the UNO terminator.
    const lengthText = segment.elements[3]?.components[0] ?? '';
    const length = /^\d{1,12}$/.test(lengthText) ? Number(lengthText) : -1;
    // Without a valid length the object cannot be delimited; the parser reports the bad UNO.
    if (length >= 0) this.objectLength = length;
  }
}
