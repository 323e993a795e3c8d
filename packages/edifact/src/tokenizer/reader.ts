/**
 * The tokenizer's reader: takes the input chunk by chunk, holds what is not yet a whole segment, and walks the
 * buffer segment by segment: byte-order mark, whitespace between segments, UNA, package objects, the message
 * scanner of validation's screen, and each segment's terminator (segment-splitter.ts splits it).
 *
 * Engine-internal: the public `Tokenizer` (../tokenizer.ts) wraps it; the parser sets `screen` and the parallel
 * mode calls `jump`, neither of which is part of the package's API.
 */
import type { FindingCode } from '../codes.ts';
import type { Finding, Position, Segment } from '../model.ts';
import type { ScannedMessage } from '../screen.ts';
import { work } from '../work.ts';
import { isWhitespace } from './classes.ts';
import { MessageScanner, SCAN_CLEAN, SCAN_INCOMPLETE, SCAN_NONE, SCAN_WAIT_MAX } from './message-scanner.ts';
import { SegmentSplitter } from './segment-splitter.ts';
import { delimitersWithoutAdvice, readAdvice } from './service-string.ts';
import type { TokenHandler, TokenizerOptions } from './types.ts';
import { fastBytesToUnits, UnitJoiner, unitsToBytes, utf8Encoder } from './units.ts';

// What the tokenizer waits for when it stops before the end of its buffer (see `need`): until a chunk brings it,
// chunks are only queued, so that data is not copied and scanned again chunk after chunk.
/** Nothing in particular: the next chunk is read at once. */
const NEED_NONE = 0;
/** A segment terminator that no release character releases. */
const NEED_TERMINATOR = 1;
/** A unit that is not whitespace. */
const NEED_TEXT = 2;
/** The input to reach `needLength` units. */
const NEED_LENGTH = 3;

/** A push tokenizer (see `Tokenizer`), with the engine's hooks. */
export class TokenReader extends SegmentSplitter {
  private readonly strict: boolean;
  private streamDecoder: InstanceType<typeof TextDecoder> | undefined;
  private readonly joiner = new UnitJoiner();
  private pos = 0;
  /** Where the search for the current segment's terminator resumes. */
  private searchFrom = 0;
  private started = false;
  private pendingWhitespace: Position | undefined;
  private ended = false;
  /**
   * Set by the parser for validation's fast path (see ../screen.ts): offered each message that starts at a segment
   * boundary and whose units, up to its UNT, are all plain; true when it has taken the message.
   */
  screen: ((message: ScannedMessage) => boolean) | undefined = undefined;
  private readonly scanner = new MessageScanner();
  /** What the buffer waits for (NEED_*); chunks that cannot bring it wait in `pending`, unjoined. */
  private need = NEED_NONE;
  private needLength = 0;
  /** NEED_TERMINATOR: release characters right before the end of the input seen so far. */
  private releaseRun = 0;
  /** NEED_TERMINATOR: the absolute offset of the terminator the last chunk brought (-1 none). */
  private terminatorAt = -1;
  private pending: (Uint8Array | string)[] = [];
  private pendingLength = 0;

  constructor(handler: TokenHandler, options: TokenizerOptions = {}) {
    super(handler);
    this.strict = options.strict === true;
  }

  /** The syntax identifier whose repertoire is being checked ('' before any UNB). */
  get syntaxIdentifier(): string {
    return this.charset.id;
  }

  /** Feeds the next chunk. Bytes and text may not be mixed meaningfully; the first chunk sets the mode. */
  write(chunk: Uint8Array | string): void {
    if (this.ended) return;
    if (this.need !== NEED_NONE && chunk.length > 0) {
      const same = typeof chunk === 'string' ? this.mode === 'text' : this.mode === 'binary';
      // A chunk that cannot end the wait is queued: joining it now would copy the buffer again for nothing (one
      // segment of megabytes, read in 64 KB slices, made the copies grow with the square of its size).
      if (same && !this.brings(chunk)) {
        this.pending.push(chunk);
        this.pendingLength += chunk.length;
        return;
      }
      this.need = NEED_NONE;
      if (this.pending.length > 0) {
        if (same) {
          this.pending.push(chunk);
          this.append(this.takePending());
          return;
        }
        this.append(this.takePending());
      }
    }
    this.append(chunk);
  }

  /**
   * Whether `chunk` may end what the buffer waits for (true when unsure). Not counted in work.steps: every unit it
   * reads is read once here and consumed (and counted) once the wait ends.
   */
  private brings(chunk: Uint8Array | string): boolean {
    const n = chunk.length;
    switch (this.need) {
      case NEED_LENGTH:
        return this.length + this.pendingLength + n >= this.needLength;
      case NEED_TEXT:
        for (let i = 0; i < n; i++) {
          const c = typeof chunk === 'string' ? chunk.charCodeAt(i) : (chunk[i] as number);
          if (!isWhitespace(c)) return true;
        }
        return false;
      case NEED_TERMINATOR: {
        const term = this.term;
        const rel = this.rel;
        if (rel < 0) {
          const at =
            typeof chunk === 'string'
              ? chunk.indexOf(String.fromCharCode(term))
              : term < 256
                ? chunk.indexOf(term)
                : -1;
          if (at >= 0) this.terminatorAt = this.length + this.pendingLength + at;
          return at >= 0;
        }
        // Clause 9.3: a terminator after an odd number of release characters is data.
        let run = this.releaseRun;
        for (let i = 0; i < n; i++) {
          const c = typeof chunk === 'string' ? chunk.charCodeAt(i) : (chunk[i] as number);
          if (c === term && run % 2 === 0) {
            this.terminatorAt = this.length + this.pendingLength + i;
            return true;
          }
          run = c === rel ? run + 1 : 0;
        }
        this.releaseRun = run;
        return false;
      }
      default:
        return true;
    }
  }

  /** The queued chunks as one. */
  private takePending(): Uint8Array | string {
    const pending = this.pending;
    this.pending = [];
    this.pendingLength = 0;
    if (pending.length === 1) return pending[0] as Uint8Array | string;
    let total = 0;
    for (const c of pending) total += c.length;
    work.copied += total;
    if (typeof pending[0] === 'string') return (pending as string[]).join('');
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of pending as Uint8Array[]) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  private append(chunk: Uint8Array | string): void {
    work.copied += chunk.length + (this.buf.length - this.pos);
    if (this.mode === 'binary' && typeof chunk !== 'string' && this.pos < this.buf.length && chunk.length > 0) {
      // The unfinished tail of the previous chunk and this one, as one flat string.
      const joined = this.joiner.join(this.pos > 0 ? this.buf.slice(this.pos) : this.buf, chunk);
      if (joined !== undefined) {
        this.base += this.pos;
        this.searchFrom -= this.pos;
        this.buf = joined;
        this.bytes = this.joiner.bytes;
        this.pos = 0;
        this.nextLf = -1;
        this.nextCr = -1;
        this.drain(false);
        return;
      }
    }
    let units: string;
    if (typeof chunk === 'string') {
      if (this.mode === undefined) this.mode = 'text';
      units = this.mode === 'text' ? chunk : fastBytesToUnits(utf8Encoder.encode(chunk));
    } else {
      if (this.mode === undefined) this.mode = 'binary';
      if (this.mode === 'binary') units = fastBytesToUnits(chunk);
      else {
        this.streamDecoder ??= new TextDecoder('utf-8');
        units = this.streamDecoder.decode(chunk, { stream: true });
      }
    }
    if (units.length === 0) return;
    if (this.pos > 0) {
      this.base += this.pos;
      this.searchFrom -= this.pos;
      this.buf = this.buf.slice(this.pos) + units;
      this.pos = 0;
    } else {
      this.buf += units;
    }
    // Bytes read as they are give the same indexes as the units (the join above handles a leftover).
    this.bytes =
      this.mode === 'binary' && typeof chunk !== 'string' && this.buf.length === chunk.length ? chunk : undefined;
    this.nextLf = -1;
    this.nextCr = -1;
    this.drain(false);
  }

  /** Signals the end of input: an unterminated last segment is still emitted, with a finding. */
  end(): void {
    if (this.ended) return;
    this.need = NEED_NONE;
    if (this.pending.length > 0) this.append(this.takePending());
    if (this.streamDecoder) {
      const rest = this.streamDecoder.decode();
      if (rest) {
        this.buf += rest;
        this.bytes = undefined;
      }
      this.nextLf = -1;
      this.nextCr = -1;
    }
    this.drain(true);
    this.ended = true;
  }

  /**
   * For the parallel mode: continues as if the input skipped, between two segments, to absolute `offset`,
   * which starts line `line` at absolute `lineStart`. Everything written so far must have been read.
   */
  jump(offset: number, line: number, lineStart: number): void {
    this.need = NEED_NONE;
    this.terminatorAt = -1;
    this.scanner.resume = undefined;
    this.pending = [];
    this.pendingLength = 0;
    this.base = offset;
    this.buf = '';
    this.bytes = undefined;
    this.pos = 0;
    this.searchFrom = 0;
    this.nextLf = -1;
    this.nextCr = -1;
    this.line = line;
    this.lineStart = lineStart;
    this.pendingWhitespace = undefined;
  }

  /** Absolute offset just past the input read so far (not counting chunks queued while waiting). */
  get length(): number {
    return this.base + this.buf.length;
  }

  private lenient(code: FindingCode, at: Position, path: string): void {
    this.handler.finding(this.report(code, at, path, this.strict ? { severity: 'error' } : undefined));
  }

  /** Reads what the buffer holds; counts the units it consumed (see work.ts) once, not per segment. */
  private drain(final: boolean): void {
    const from = this.pos;
    this.read(final);
    work.steps += this.pos - from;
  }

  private read(final: boolean): void {
    const s = this.buf;
    const n = s.length;
    while (this.pos < n) {
      if (this.objectLength >= 0) {
        if (!this.readObject(final)) {
          this.need = NEED_LENGTH;
          this.needLength = this.base + this.pos + this.objectLength;
          return;
        }
        continue;
      }
      const start = this.pos;
      const c = s.charCodeAt(start);
      if (!this.started) {
        // A byte-order mark before the first segment (UTF-8 bytes EF BB BF, or U+FEFF in text).
        if (this.mode === 'binary' && c === 0xef) {
          if (n - start < 3 && !final) return;
          if (s.charCodeAt(start + 1) === 0xbb && s.charCodeAt(start + 2) === 0xbf) {
            this.lenient('EDI_BYTE_ORDER_MARK', this.position(this.base + start), '');
            this.pos += 3;
            this.started = true;
            continue;
          }
        } else if (c === 0xfeff) {
          this.lenient('EDI_BYTE_ORDER_MARK', this.position(this.base + start), '');
          this.pos += 1;
          this.started = true;
          continue;
        }
        this.started = true;
      }
      if (isWhitespace(c)) {
        // Line breaks and indentation between segments: lenient, reported once when a segment follows.
        let i = start;
        while (i < n && isWhitespace(s.charCodeAt(i))) i++;
        if (i === n && !final) {
          // Read again once the wait ends (see work.ts).
          work.steps += i - start;
          // A CR at the very end may pair with an LF in the next chunk: wait for more.
          this.need = NEED_TEXT;
          return;
        }
        this.pendingWhitespace ??= this.position(this.base + start);
        this.skipLines(start, i);
        this.pos = i;
        continue;
      }
      if (this.pendingWhitespace) {
        if (!this.whitespaceReported) {
          this.whitespaceReported = true;
          this.lenient('EDI_WHITESPACE_BETWEEN_SEGMENTS', this.pendingWhitespace, '');
        }
        this.pendingWhitespace = undefined;
      }
      const scan =
        this.screen !== undefined && c === 0x55 && s.charCodeAt(start + 1) === 0x4e && s.charCodeAt(start + 2) === 0x48
          ? this.scanner.scan(this, start, n)
          : SCAN_NONE;
      if (scan === SCAN_CLEAN && this.screen?.(this.scanner.message) === true) {
        const m = this.scanner.message;
        this.index += m.count;
        this.line = m.lastLine;
        this.lineStart = m.lastLineStart;
        this.pos = (m.ends[m.count - 1] as number) + 1;
        this.searchFrom = this.pos;
        continue;
      }
      // A message that looks clean so far continues in the next chunk: wait for it, so that it can be screened. It is
      // scanned again once the input has doubled from here (not at every chunk), so its scans add up to twice its size.
      if (scan === SCAN_INCOMPLETE && !final && n - start <= SCAN_WAIT_MAX) {
        this.need = NEED_LENGTH;
        this.needLength = this.base + start + Math.min(2 * (n - start), SCAN_WAIT_MAX + 1);
        return;
      }
      // UNA service string advice: exactly nine characters, no release processing (ISO 9735 part 1 clause 4 / UNA).
      if (c === 0x55 && s.charCodeAt(start + 1) === 0x4e && s.charCodeAt(start + 2) === 0x41) {
        if (n - start < 9 && !final) return;
        if (n - start >= 3) {
          this.readUna(start, final);
          continue;
        }
      }
      if (!this.unaApplies && c === 0x55 && s.charCodeAt(start + 1) === 0x4e && s.charCodeAt(start + 2) === 0x42) {
        if (n - start < 4 && !final) return;
        this.resetDefaults(s.charCodeAt(start + 3));
      }
      const end = this.findTerminator(start);
      if (end === -1) {
        if (!final) {
          this.need = NEED_TERMINATOR;
          let k = n;
          while (this.rel >= 0 && k > start && s.charCodeAt(k - 1) === this.rel) k--;
          work.steps += n - k;
          this.releaseRun = n - k;
          return;
        }
        // The input ends inside a segment; trailing line breaks are not part of it.
        let e = n;
        while (e > start && isWhitespace(s.charCodeAt(e - 1))) e--;
        this.emitSegment(start, e, true);
        this.pos = n;
        this.searchFrom = n;
        return;
      }
      this.emitSegment(start, end, false);
      this.pos = end + 1;
      this.searchFrom = this.pos;
    }
    if (final && this.pendingWhitespace) this.pendingWhitespace = undefined;
  }

  /** Index of the unreleased segment terminator of the segment at `start`, or -1 when not yet in the buffer. */
  private findTerminator(start: number): number {
    const s = this.buf;
    const term = this.delimiters.segment;
    let from = Math.max(start, this.searchFrom);
    // Where a queued chunk brought the terminator (see brings): nothing before it needs reading again.
    if (this.terminatorAt >= 0) {
      const known = this.terminatorAt - this.base;
      this.terminatorAt = -1;
      if (known > from) from = known;
    }
    for (;;) {
      const i = s.indexOf(term, from);
      if (i === -1) {
        // Read again when more comes (drain counts what it consumes, see work.ts).
        work.steps += s.length - from;
        // Resume later from the last unit: a release character there may release the next chunk's first unit.
        this.searchFrom = Math.max(start, s.length - 1);
        return -1;
      }
      if (this.rel >= 0) {
        // The terminator is released when an odd number of release characters precedes it (clause 9.3).
        let k = i - 1;
        while (k >= start && s.charCodeAt(k) === this.rel) k--;
        if ((i - 1 - k) % 2 === 1) {
          work.steps += i - k;
          from = i + 1;
          continue;
        }
      }
      return i;
    }
  }

  private resetDefaults(fourth: number): void {
    this.delimiters = delimitersWithoutAdvice(fourth);
    this.applyDelimiters();
  }

  private readUna(start: number, final: boolean): void {
    const s = this.buf;
    const n = s.length;
    const at = this.position(this.base + start);
    if (n - start < 9) {
      // Only at the end of input: the advice is cut short.
      const f = this.report('EDI_UNEXPECTED_END_OF_FILE', at, 'UNA');
      this.handler.finding(f);
      this.skipLines(start, n);
      this.pos = n;
      this.searchFrom = n;
      void final;
      return;
    }
    const chars = s.slice(start + 3, start + 9);
    const findings: Finding[] = [];
    const advice = readAdvice(chars);
    if (!advice.valid) {
      findings.push(
        this.report('EDI_INVALID_SERVICE_STRING', at, 'UNA', { actual: 'UNA' + chars, params: { advice: chars } }),
      );
    }
    if (advice.delimiters !== undefined) {
      this.delimiters = advice.delimiters;
      this.applyDelimiters();
    }
    this.unaApplies = true;
    const segment_: Segment = {
      tag: 'UNA',
      elements: [{ components: [chars] }],
      position: at,
      length: 9,
      index: this.index++,
    };
    this.skipLines(start, start + 9);
    this.pos = start + 9;
    this.searchFrom = this.pos;
    this.handler.segment(segment_, findings.length > 0 ? findings : null);
  }

  private readObject(final: boolean): boolean {
    const s = this.buf;
    const start = this.pos;
    let end = start + this.objectLength;
    if (end > s.length) {
      if (!final) return false;
      end = s.length;
      this.handler.finding(this.report('EDI_UNEXPECTED_END_OF_FILE', this.position(this.base + start), 'UNO'));
    }
    const at = this.position(this.base + start);
    const bytes = this.mode === 'text' ? utf8Encoder.encode(s.slice(start, end)) : unitsToBytes(s, start, end);
    this.skipLines(start, end);
    this.pos = end;
    this.searchFrom = end;
    this.objectLength = -1;
    this.handler.object?.(bytes, at);
    return true;
  }
}
