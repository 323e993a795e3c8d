/**
 * Streaming EDIFACT tokenizer: bytes or text, in one piece or in chunks, to segments (ISO 9735 part 1).
 *
 * The input is held as a "unit string": for bytes, one char per byte (code 0-255); for text, the UTF-16 code units
 * as given. Scanning works on char codes through a 256-entry class table, components are sliced out of that string
 * and decoded only when they hold a release character or (for UTF-8 and non-Latin-1 sets) a byte above 0x7F.
 * Only complete segments are processed, so any chunk split gives the same segments and findings.
 */
import { getCharset, getUndeclaredCharset, type Charset } from './charsets.ts';
import { createFinding } from './findings.ts';
import type { FindingCode } from './codes.ts';
import type { Delimiters, Element, Finding, Position, Segment } from './model.ts';
import { RawSegment } from './segment.ts';
import { internTag } from './tags.ts';
import { createScannedMessage, ensureCapacity, growSeparators, UNS, UNT, type ScannedMessage } from './screen.ts';
import { work } from './work.ts';

/** Options of the tokenizer. */
export type TokenizerOptions = {
  /** Lenient acceptances (BOM, whitespace between segments) are reported as errors instead of warnings. */
  strict?: boolean;
};

/** Receives what the tokenizer finds, in input order. */
export type TokenHandler = {
  /** A segment, with the findings about its own content (characters, release, tag), or null when none. */
  segment(segment: Segment, findings: Finding[] | null): void;
  /** A finding outside any segment (BOM, whitespace, stray characters, end of input). */
  finding(finding: Finding): void;
  /** The object of a syntax 4 package (the octets between UNO and UNP, ISO 9735 part 8). */
  object?(bytes: Uint8Array, position: Position): void;
};

// Character classes of the scanner.
const K_PLAIN = 0;
const K_COMP = 1;
const K_ELEM = 2;
const K_REL = 3;
const K_REP = 4;
const K_LF = 5;
const K_CR = 6;
const K_INVALID = 7;
const K_HIGH = 8;
const K_TERM = 9;

const LF = 0x0a;
const CR = 0x0d;

// What scanMessage found.
const SCAN_NONE = 0;
const SCAN_CLEAN = 1;
const SCAN_NOT_CLEAN = 2;
const SCAN_INCOMPLETE = 3;
/** A message cut by the end of a chunk is waited for up to this size (more takes the plain path, segment by segment). */
const SCAN_WAIT_MAX = 1024 * 1024;

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

/** A scan's answer, after counting the units it read (see work.ts). */
const scanned = (answer: number, units: number): number => {
  work.steps += units;
  return answer;
};

const isWhitespace = (c: number): boolean => c === 0x20 || c === LF || c === CR || c === 0x09;
const isTagChar = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

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

/** Default service characters (ISO 9735 part 1 clause 4 / annex: `:+.? '`, and `*` as repetition in syntax 4). */
export const DEFAULT_DELIMITERS: Readonly<Delimiters> = {
  component: ':',
  element: '+',
  decimal: '.',
  release: '?',
  repetition: ' ',
  segment: "'",
};

/** Level B defaults: IS1 component, IS3 element, IS4 segment terminator, no release character (clause 5.2). */
const LEVEL_B_SEPARATORS = { component: 0x1f, element: 0x1d, segment: 0x1c };

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();
const singleByteDecoders = new Map<string, InstanceType<typeof TextDecoder>>();

/** Turns a chunk of bytes into a unit string, one char per byte. */
const bytesToUnits = (bytes: Uint8Array): string => {
  let out = '';
  const STEP = 8192;
  for (let i = 0; i < bytes.length; i += STEP) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + STEP) as unknown as number[]);
  }
  return out;
};

type BufferLike = {
  latin1Slice?: (start: number, end: number) => string;
  write(text: string, offset: number, length: number, encoding: 'latin1'): number;
  set(bytes: Uint8Array, offset: number): void;
};
type BufferCtor = {
  from(bytes: ArrayBufferLike, offset: number, length: number): BufferLike;
  allocUnsafe(size: number): BufferLike;
};
// Node's Buffer (when present) decodes Latin-1 natively, several times faster than fromCharCode; the browser
// falls back to the portable loop. No import: the core must also run where there is no Buffer.
const NodeBuffer = (globalThis as { Buffer?: BufferCtor }).Buffer;
const fastBytesToUnits = (bytes: Uint8Array): string => {
  if (NodeBuffer) {
    const b = NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (b.latin1Slice) return b.latin1Slice(0, bytes.byteLength);
  }
  return bytesToUnits(bytes);
};

const JOIN_SCRATCH_MAX = 2 * 1024 * 1024;

/**
 * Joins the unit string of `rest` (a unit string of bytes) and `bytes` into one flat string: V8 reads a flat string
 * several times faster than the rope that `rest + units` makes. In a scratch buffer of its own, kept up to 2 MB (a
 * 1 MB chunk and its leftover; more gets a buffer of its own, so no large one stays behind). The string made from
 * it is a copy, so nothing off-heap piles up between GCs; the buffer stays readable until the next join (`bytes`).
 * Undefined where there is no Buffer.
 */
class UnitJoiner {
  private scratch: BufferLike | undefined;
  private size = 0;
  /** The bytes of the last joined string (valid until the next join). */
  bytes: Uint8Array | undefined;

  join(rest: string, bytes: Uint8Array): string | undefined {
    if (!NodeBuffer) return undefined;
    const total = rest.length + bytes.length;
    let b: BufferLike;
    if (total > JOIN_SCRATCH_MAX) b = NodeBuffer.allocUnsafe(total);
    else {
      if (total > this.size || this.scratch === undefined) {
        this.size = Math.min(JOIN_SCRATCH_MAX, Math.max(total * 2, 64 * 1024));
        this.scratch = NodeBuffer.allocUnsafe(this.size);
      }
      b = this.scratch;
    }
    if (!b.latin1Slice) return undefined;
    b.write(rest, 0, rest.length, 'latin1');
    b.set(bytes, rest.length);
    this.bytes = (b as unknown as Uint8Array).subarray(0, total);
    return b.latin1Slice(0, total);
  }
}

const unitsToBytes = (units: string, start: number, end: number): Uint8Array => {
  const out = new Uint8Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = units.charCodeAt(i) & 0xff;
  return out;
};

/**
 * A push tokenizer. Call `write` with each chunk and `end` once; segments go to the handler as soon as they are
 * complete. The same instance handles several interchanges in a row (each UNA/UNB sets its own service characters).
 */
export class Tokenizer {
  private readonly handler: TokenHandler;
  private readonly strict: boolean;
  private mode: 'binary' | 'text' | undefined;
  private streamDecoder: InstanceType<typeof TextDecoder> | undefined;
  private buf = '';
  /** The bytes of `buf` (binary input: one byte per unit, same indexes), or undefined; the screen reads them. */
  private bytes: Uint8Array | undefined = undefined;
  private readonly joiner = new UnitJoiner();
  /**
   * Index in buf of the next LF / CR at or after the last line count (buf.length when there is none; -1 unknown).
   * Line counting looks for line breaks with indexOf instead of reading every unit of every segment.
   */
  private nextLf = -1;
  private nextCr = -1;
  /** Absolute offset of buf[0]. */
  private base = 0;
  private pos = 0;
  /** Where the search for the current segment's terminator resumes. */
  private searchFrom = 0;
  private line = 1;
  /** Absolute offset of the first unit of the current line. */
  private lineStart = 0;
  private started = false;
  private index = 0;
  private whitespaceReported = false;
  private pendingWhitespace: Position | undefined;
  private unaApplies = false;
  private objectLength = -1;
  private charset: Charset = getUndeclaredCharset();
  private table = new Uint8Array(256);
  private highClass = K_PLAIN;
  private comp = 0;
  private elem = 0;
  private rel = -1;
  private rep = -1;
  private term = 0;
  private ended = false;
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
  /**
   * @internal Set by the parser for validation's fast path (see screen.ts): offered each message that starts at a
   * segment boundary and whose units, up to its UNT, are all plain; true when it has taken the message.
   */
  screen: ((message: ScannedMessage) => boolean) | undefined = undefined;
  private readonly scanned: ScannedMessage = createScannedMessage();
  /** What the buffer waits for (NEED_*); chunks that cannot bring it wait in `pending`, unjoined. */
  private need = NEED_NONE;
  /**
   * Where the scan of a message cut by the end of the input stopped: its UNH at absolute `start`, then at buffer
   * index `index`; p (the start of the segment to read next), count, ns, line and lineStart as scanMessage's locals.
   */
  private scanResume:
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
  private needLength = 0;
  /** NEED_TERMINATOR: release characters right before the end of the input seen so far. */
  private releaseRun = 0;
  /** NEED_TERMINATOR: the absolute offset of the terminator the last chunk brought (-1 none). */
  private terminatorAt = -1;
  private pending: (Uint8Array | string)[] = [];
  private pendingLength = 0;

  constructor(handler: TokenHandler, options: TokenizerOptions = {}) {
    this.handler = handler;
    this.strict = options.strict === true;
    this.applyDelimiters();
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
   * @internal For the parallel mode: continues as if the input skipped, between two segments, to absolute `offset`,
   * which starts line `line` at absolute `lineStart`. Everything written so far must have been read.
   */
  jump(offset: number, line: number, lineStart: number): void {
    this.need = NEED_NONE;
    this.terminatorAt = -1;
    this.scanResume = undefined;
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

  private applyDelimiters(): void {
    const d = this.delimiters;
    this.comp = d.component.charCodeAt(0);
    this.elem = d.element.charCodeAt(0);
    this.term = d.segment.charCodeAt(0);
    this.rel = d.release === '' || d.release === ' ' ? -1 : d.release.charCodeAt(0);
    this.rep = d.repetition === '' || d.repetition === ' ' ? -1 : d.repetition.charCodeAt(0);
    this.buildTable();
  }

  private buildTable(): void {
    const cs = this.charset;
    const decodesHigh = this.mode === 'binary' && cs.decoding !== 'latin1';
    const table = this.table;
    for (let c = 0; c < 256; c++) {
      table[c] = cs.valid[c] === 1 ? (c >= 0x80 && decodesHigh ? K_HIGH : K_PLAIN) : K_INVALID;
    }
    table[LF] = K_LF;
    table[CR] = K_CR;
    const set = (code: number, k: number): void => {
      if (code >= 0 && code < 256) table[code] = k;
    };
    set(this.comp, K_COMP);
    set(this.elem, K_ELEM);
    set(this.rep, K_REP);
    set(this.rel, K_REL);
    set(this.term, K_TERM);
    // Units >= 256 only occur in text mode; they need a per-unit check unless the set takes them all.
    this.highClass = K_HIGH;
  }

  private position(abs: number): Position {
    return { line: this.line, column: abs - this.lineStart + 1, offset: abs };
  }

  private report(code: FindingCode, at: Position, path: string, extra?: Partial<Finding>): Finding {
    const f = createFinding(code, { path, line: at.line, column: at.column, offset: at.offset, ...extra });
    return f;
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
          ? this.scanMessage(start, n)
          : SCAN_NONE;
      if (scan === SCAN_CLEAN && this.screen?.(this.scanned) === true) {
        const m = this.scanned;
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

  /**
   * Reads the message starting with UNH at buf[start] up to its UNT into `scanned`, when the whole of it is in the
   * buffer and every segment is one the plain path would build as a RawSegment without a finding: a three-character
   * tag followed by an element separator or the terminator, then only plain units and component and element
   * separators; no service segment but UNS between UNH and UNT; whitespace between segments only once reported.
   */
  private scanMessage(start: number, n: number): number {
    const s = this.buf;
    const table = this.table;
    const m = this.scanned;
    const bytes = this.bytes;
    let seps = m.seps;
    let ns = 0;
    let line = this.line;
    let lineStart = this.lineStart;
    let p = start;
    let count = 0;
    const r = this.scanResume;
    this.scanResume = undefined;
    if (r !== undefined && r.start === this.base + start) {
      // The same message, cut by the end of the input last time: go on at the segment that scan stopped in.
      const shift = r.index - start;
      if (shift !== 0) this.shiftScan(r.count, r.ns, shift);
      count = r.count;
      ns = r.ns;
      p = r.p - shift;
      line = r.line;
      lineStart = r.lineStart;
    }
    const from = p;
    for (;;) {
      if (p + 3 >= n) return this.suspendScan(start, p, count, ns, line, lineStart, p - from);
      const a = s.charCodeAt(p);
      const b = s.charCodeAt(p + 1);
      const c = s.charCodeAt(p + 2);
      if (!isTagChar(a) || !isTagChar(b) || !isTagChar(c)) return scanned(SCAN_NOT_CLEAN, p - from);
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
      if (k === K_ELEM) {
        if (ns === seps.length) seps = growSeparators(m);
        seps[ns++] = q;
        // Plain units in a tight loop (on the bytes when there are: faster to read than a string's units);
        // separators are recorded for the levels' screens.
        if (bytes !== undefined) {
          for (q++; q < n; q++) {
            k = table[bytes[q] as number] as number;
            if (k === K_PLAIN) continue;
            if (k > K_ELEM) break;
            if (ns === seps.length) seps = growSeparators(m);
            seps[ns++] = k === K_ELEM ? q : ~q;
          }
        } else {
          for (q++; q < n; q++) {
            u = s.charCodeAt(q);
            if (u > 255) return scanned(SCAN_NOT_CLEAN, q - from);
            k = table[u] as number;
            if (k === K_PLAIN) continue;
            if (k > K_ELEM) break;
            if (ns === seps.length) seps = growSeparators(m);
            seps[ns++] = k === K_ELEM ? q : ~q;
          }
        }
        // Cut inside this segment: the next scan reads it again from its tag (the wait doubles, see drain).
        if (q === n) return this.suspendScan(start, p, count, m.sepStarts[count] as number, line, lineStart, q - from);
      }
      if (k !== K_TERM) return scanned(SCAN_NOT_CLEAN, q - from);
      m.starts[count] = p;
      m.ends[count] = q;
      m.codes[count] = code;
      count++;
      if (count > 1 && code === UNT) break;
      p = q + 1;
      if (p < n && isWhitespace(s.charCodeAt(p))) {
        // Line breaks and indentation between segments: the plain path reports them once; after that they are
        // only counted.
        if (!this.whitespaceReported) return scanned(SCAN_NOT_CLEAN, p - from);
        const p0 = p;
        const line0 = line;
        const lineStart0 = lineStart;
        for (; p < n; p++) {
          const w = s.charCodeAt(p);
          if (w === LF || (w === CR && s.charCodeAt(p + 1) !== LF)) {
            line++;
            lineStart = this.base + p + 1;
          } else if (w !== CR && w !== 0x20 && w !== 0x09) break;
        }
        // A CR last may pair with an LF yet to come: go on before the whitespace.
        if (p === n) return this.suspendScan(start, p0, count, ns, line0, lineStart0, p - from);
      }
    }
    m.sepStarts[count] = ns;
    m.text = s;
    m.bytes = bytes;
    m.count = count;
    m.base = this.base;
    m.index = this.index;
    m.line = this.line;
    m.lineStart = this.lineStart;
    m.lastLine = line;
    m.lastLineStart = lineStart;
    m.comp = this.comp;
    m.elem = this.elem;
    m.term = this.term;
    return scanned(SCAN_CLEAN, p - from);
  }

  /** Moves the indexes a suspended scan recorded by `shift` (once, when what came before its UNH was dropped). */
  private shiftScan(count: number, ns: number, shift: number): void {
    const { starts, ends, seps } = this.scanned;
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
  private suspendScan(
    start: number,
    p: number,
    count: number,
    ns: number,
    line: number,
    lineStart: number,
    units: number,
  ): number {
    this.scanResume = { start: this.base + start, index: start, p, count, ns, line, lineStart };
    return scanned(SCAN_INCOMPLETE, units);
  }

  /** Counts line breaks in buf[from, to) (whitespace or object data). */
  private skipLines(from: number, to: number): void {
    const s = this.buf;
    let lf = this.nextLf;
    if (lf < from) {
      lf = s.indexOf('\n', from);
      this.nextLf = lf = lf === -1 ? s.length : lf;
    }
    let cr = this.nextCr;
    if (cr < from) {
      cr = s.indexOf('\r', from);
      this.nextCr = cr = cr === -1 ? s.length : cr;
    }
    if (lf >= to && cr >= to) return;
    this.nextLf = -1;
    this.nextCr = -1;
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
    // An interchange without UNA uses the defaults; level B may use IS3 as element separator (clause 5.2).
    if (fourth === LEVEL_B_SEPARATORS.element) {
      this.delimiters = {
        component: String.fromCharCode(LEVEL_B_SEPARATORS.component),
        element: String.fromCharCode(LEVEL_B_SEPARATORS.element),
        decimal: '.',
        release: '',
        repetition: ' ',
        segment: String.fromCharCode(LEVEL_B_SEPARATORS.segment),
      };
    } else {
      this.delimiters = { ...DEFAULT_DELIMITERS };
    }
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
    const comp = chars[0] ?? ':';
    const elem = chars[1] ?? '+';
    const decimal = chars[2] ?? '.';
    const release = chars[3] ?? '?';
    const repetition = chars[4] ?? ' ';
    const segment = chars[5] ?? "'";
    const findings: Finding[] = [];
    // The separators in use must differ from each other (part 1 clause 4; space marks "not used").
    const used = [comp, elem, segment];
    if (release !== ' ') used.push(release);
    if (repetition !== ' ') used.push(repetition);
    const distinct = new Set(used).size === used.length;
    if (!distinct || (decimal !== '.' && decimal !== ',')) {
      findings.push(
        this.report('EDI_INVALID_SERVICE_STRING', at, 'UNA', { actual: 'UNA' + chars, params: { advice: chars } }),
      );
    }
    if (distinct) {
      this.delimiters = {
        component: comp,
        element: elem,
        decimal,
        release: release === ' ' ? '' : release,
        repetition,
        segment,
      };
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

  /** Builds the segment buf[start, end) (end = index of its terminator, or of the end of input). */
  private emitSegment(start: number, end: number, unterminated: boolean): void {
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
    const bytes = unitsToBytes(raw, 0, raw.length);
    const cs_ = this.charset;
    if (cs_.decoding === 'utf-8') {
      try {
        return utf8Decoder.decode(bytes);
      } catch {
        // Not UTF-8 although the set says so (e.g. Latin-1 bytes under UNOW): report once, keep the bytes.
        if (cs_.known) {
          (this.segFindings ??= []).push(
            this.report(
              'EDI_INVALID_CHARACTER',
              this.positionInSegment(cs),
              `${this.segTag}/${elementNo}/${componentNo}`,
              {
                expected: cs_.id,
                params: { syntaxIdentifier: cs_.id, encoding: 'utf-8' },
              },
            ),
          );
        }
        return raw;
      }
    }
    if (cs_.decoding === 'single-byte' && cs_.label !== undefined) {
      let dec = singleByteDecoders.get(cs_.label);
      if (!dec) {
        try {
          dec = new TextDecoder(cs_.label);
        } catch {
          return raw;
        }
        singleByteDecoders.set(cs_.label, dec);
      }
      return dec.decode(bytes);
    }
    return raw;
  }

  private afterUnb(segment: Segment): void {
    const s001 = segment.elements[0]?.components;
    const id = s001?.[0] ?? '';
    const version = s001?.[1] ?? '';
    // Syntax 4 brings the repetition separator ('*' by default, part 1 clause 4); in 1-3 that position is reserved.
    if (version === '4') {
      if (!this.unaApplies) this.delimiters = { ...this.delimiters, repetition: '*' };
    } else if (this.delimiters.repetition !== ' ') {
      this.delimiters = { ...this.delimiters, repetition: ' ' };
    }
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

/** Every segment and finding of an input, in one call (see `Tokenizer` for streaming). */
export const tokenize = (
  input: Uint8Array | string,
  options: TokenizerOptions = {},
): { segments: Segment[]; findings: Finding[] } => {
  const segments: Segment[] = [];
  const findings: Finding[] = [];
  const tokenizer = new Tokenizer(
    {
      segment(segment, segFindings) {
        segments.push(segment);
        if (segFindings) for (const f of segFindings) findings.push(f);
      },
      finding(f) {
        findings.push(f);
      },
    },
    options,
  );
  tokenizer.write(input);
  tokenizer.end();
  return { segments, findings };
};
