/**
 * The fast scanner of validation's screen (see ../screen.ts): a whole message, UNH to UNT, read in one pass over the
 * tokenizer's buffer into a ScannedMessage (ranges, separators and tags, no object per segment), when every segment
 * is one the plain path would build without a finding. A message cut by the end of the input is resumed at the
 * segment the last scan stopped in.
 */
import { createScannedMessage, ensureCapacity, growSeparators, UNS, UNT, type ScannedMessage } from '../screen.ts';
import { work } from '../work.ts';
import { CR, isTagChar, isWhitespace, K_ELEM, K_PLAIN, K_TERM, LF } from './classes.ts';
import type { SegmentSplitter } from './segment-splitter.ts';

// What a scan found.
export const SCAN_NONE = 0;
export const SCAN_CLEAN = 1;
export const SCAN_NOT_CLEAN = 2;
export const SCAN_INCOMPLETE = 3;
/** A message cut by the end of a chunk is waited for up to this size (more takes the plain path, segment by segment). */
export const SCAN_WAIT_MAX = 1024 * 1024;

/** A scan's answer, after counting the units it read (see work.ts). */
const scanned = (answer: number, units: number): number => {
  work.steps += units;
  return answer;
};

/** The scanner of one tokenizer: the message it fills (reused from message to message) and where a cut scan stopped. */
export class MessageScanner {
  readonly message: ScannedMessage = createScannedMessage();
  /**
   * Where the scan of a message cut by the end of the input stopped: its UNH at absolute `start`, then at buffer
   * index `index`; p (the start of the segment to read next), count, ns, line and lineStart as scan's locals.
   */
  resume:
    | {
        start: number;
        index: number;
        p: number;
        count: number;
        ns: number;
        line: number;
        lineStart: number;
      }
    | undefined = undefined;

  /**
   * Reads the message starting with UNH at buf[start] up to its UNT into `message`, when the whole of it is in the
   * buffer and every segment is one the plain path would build as a RawSegment without a finding: a three-character
   * tag followed by an element separator or the terminator, then only plain units and component and element
   * separators; no service segment but UNS between UNH and UNT; whitespace between segments only once reported.
   */
  scan(t: SegmentSplitter, start: number, n: number): number {
    const s = t.buf;
    const table = t.table;
    // The classes as locals: the loops below compare against them per unit, and a local is a register where an
    // imported binding is a load (with its initialisation check) each time.
    const PLAIN = K_PLAIN;
    const ELEM = K_ELEM;
    const TERM = K_TERM;
    const tagChar = isTagChar;
    const m = this.message;
    const bytes = t.bytes;
    let seps = m.seps;
    let ns = 0;
    let line = t.line;
    let lineStart = t.lineStart;
    let p = start;
    let count = 0;
    const r = this.resume;
    this.resume = undefined;
    if (r !== undefined && r.start === t.base + start) {
      // The same message, cut by the end of the input last time: go on at the segment that scan stopped in.
      const shift = r.index - start;
      if (shift !== 0) this.shift(r.count, r.ns, shift);
      count = r.count;
      ns = r.ns;
      p = r.p - shift;
      line = r.line;
      lineStart = r.lineStart;
    }
    const from = p;
    for (;;) {
      if (p + 3 >= n) return this.suspend(t.base, start, p, count, ns, line, lineStart, p - from);
      const a = s.charCodeAt(p);
      const b = s.charCodeAt(p + 1);
      const c = s.charCodeAt(p + 2);
      if (!tagChar(a) || !tagChar(b) || !tagChar(c)) return scanned(SCAN_NOT_CLEAN, p - from);
      const code = (a << 16) | (b << 8) | c;
      if (count > 0 && a === 0x55 && b === 0x4e && code !== UNS && code !== UNT) {
        return scanned(SCAN_NOT_CLEAN, p - from);
      }
      ensureCapacity(m, count);
      m.sepStarts[count] = ns;
      let q = p + 3;
      let u = s.charCodeAt(q);
      if (u > 255) return scanned(SCAN_NOT_CLEAN, p - from);
      let k = table[u] as number;
      if (k === ELEM) {
        if (ns === seps.length) seps = growSeparators(m);
        seps[ns++] = q;
        // Plain units in a tight loop (on the bytes when there are: faster to read than a string's units);
        // separators are recorded for the levels' screens.
        if (bytes !== undefined) {
          for (q++; q < n; q++) {
            k = table[bytes[q] as number] as number;
            if (k === PLAIN) continue;
            if (k > ELEM) break;
            if (ns === seps.length) seps = growSeparators(m);
            seps[ns++] = k === ELEM ? q : ~q;
          }
        } else {
          for (q++; q < n; q++) {
            u = s.charCodeAt(q);
            if (u > 255) return scanned(SCAN_NOT_CLEAN, q - from);
            k = table[u] as number;
            if (k === PLAIN) continue;
            if (k > ELEM) break;
            if (ns === seps.length) seps = growSeparators(m);
            seps[ns++] = k === ELEM ? q : ~q;
          }
        }
        // Cut inside this segment: the next scan reads it again from its tag (the wait doubles, see drain).
        if (q === n)
          return this.suspend(t.base, start, p, count, m.sepStarts[count] as number, line, lineStart, q - from);
      }
      if (k !== TERM) return scanned(SCAN_NOT_CLEAN, q - from);
      m.starts[count] = p;
      m.ends[count] = q;
      m.codes[count] = code;
      count++;
      if (count > 1 && code === UNT) break;
      p = q + 1;
      if (p < n && isWhitespace(s.charCodeAt(p))) {
        // Line breaks and indentation between segments: the plain path reports them once; after that they are
        // only counted.
        if (!t.whitespaceReported) return scanned(SCAN_NOT_CLEAN, p - from);
        const p0 = p;
        const line0 = line;
        const lineStart0 = lineStart;
        for (; p < n; p++) {
          const w = s.charCodeAt(p);
          if (w === LF || (w === CR && s.charCodeAt(p + 1) !== LF)) {
            line++;
            lineStart = t.base + p + 1;
          } else if (w !== CR && w !== 0x20 && w !== 0x09) break;
        }
        // A CR last may pair with an LF yet to come: go on before the whitespace.
        if (p === n) return this.suspend(t.base, start, p0, count, ns, line0, lineStart0, p - from);
      }
    }
    m.sepStarts[count] = ns;
    m.text = s;
    m.bytes = bytes;
    m.count = count;
    m.base = t.base;
    m.index = t.index;
    m.line = t.line;
    m.lineStart = t.lineStart;
    m.lastLine = line;
    m.lastLineStart = lineStart;
    m.comp = t.comp;
    m.elem = t.elem;
    m.term = t.term;
    return scanned(SCAN_CLEAN, p - from);
  }

  /** Moves the indexes a suspended scan recorded by `shift` (once, when what came before its UNH was dropped). */
  private shift(count: number, ns: number, shift: number): void {
    const { starts, ends, seps } = this.message;
    for (let i = 0; i < count; i++) {
      starts[i] = (starts[i] as number) - shift;
      ends[i] = (ends[i] as number) - shift;
    }
    for (let i = 0; i < ns; i++) {
      const x = seps[i] as number;
      seps[i] = x >= 0 ? x - shift : ~(~x - shift);
    }
    work.steps += count + ns;
  }

  /** A scan cut by the end of the input: where to go on (see scanMessage), and SCAN_INCOMPLETE. */
  private suspend(
    base: number,
    start: number,
    p: number,
    count: number,
    ns: number,
    line: number,
    lineStart: number,
    units: number,
  ): number {
    this.resume = { start: base + start, index: start, p, count, ns, line, lineStart };
    return scanned(SCAN_INCOMPLETE, units);
  }
}
