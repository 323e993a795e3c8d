/**
 * Cuts an interchange file, read as a stream, into pieces at message boundaries for the batched ingest (decision
 * 0024): each piece is validated and mapped on the CPU pool as if the bytes before it had been read
 * (`validateStream`'s `resume`), and written in its own transaction.
 *
 * This runs on the event loop, so it does no tokenizing: like the EDIFACT engine's parallel split it only looks at
 * the places where `UN` occurs (Buffer's native indexOf) and keeps those that start a service segment (after an
 * unreleased terminator and whitespace). Memory holds one piece and the chunk being read, whatever the file's size.
 * A piece is cut only at a UNH inside an interchange without groups or packages; anything unusual (another
 * terminator without UNA, groups) is simply not cut there, and a file with no cut is one piece, read whole.
 */

/** One piece: its bytes and where the reader resumes. */
export type Piece = {
  /** The open interchange's UNA and UNB, when the piece starts inside it (undefined for the file's first piece). */
  header: Uint8Array | undefined;
  body: Uint8Array;
  /** Absolute offset of the body, the line it starts, and that line's start. */
  offset: number;
  line: number;
  lineStart: number;
  /** Messages of the open interchange before the piece (what UNZ counts). */
  messagesBefore: number;
  /** The file-wide index of the piece's first message. */
  firstIndex: number;
  /** Absolute offsets of the piece's UNH segments, in order: message `firstIndex + i` starts at `starts[i]`. */
  starts: number[];
  /** The piece ends the file. */
  last: boolean;
};

export type SplitOptions = {
  /** A piece is cut at the first message start once it holds this many messages… */
  batchMessages: number;
  /** …or this many bytes. */
  batchBytes: number;
  /** Messages already ingested (the interchange's progress marker): the first piece starts at message `skip`. */
  skip?: number;
  /** Never cut (the whole file is one piece). */
  whole?: boolean;
  /** Each interchange's header (its UNA and UNB) as found: the duplicate check of every interchange in a file. */
  onHeader?: (header: Uint8Array, position: number) => void;
  /** Only look (for `onHeader`): no pieces, and memory holds one chunk. */
  scanOnly?: boolean;
};

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A growable byte buffer: appends amortised, the consumed front dropped by moving the rest down. */
class Window {
  bytes = Buffer.alloc(1 << 16);
  length = 0;
  /** Absolute offset of bytes[0]. */
  start = 0;

  append(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.bytes.length) {
      const grown = Buffer.alloc(Math.max(this.bytes.length * 2, this.length + chunk.length));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.length);
    this.length += chunk.length;
  }

  get end(): number {
    return this.start + this.length;
  }

  at(absolute: number): number | undefined {
    const i = absolute - this.start;
    return i >= 0 && i < this.length ? this.bytes[i] : undefined;
  }

  /** A copy of [from, to) (absolute). */
  copy(from: number, to: number): Buffer {
    return Buffer.from(this.bytes.subarray(from - this.start, to - this.start));
  }

  /** Forgets everything before `absolute`. */
  drop(absolute: number): void {
    const n = absolute - this.start;
    if (n <= 0) return;
    this.bytes.copy(this.bytes, 0, n, this.length);
    this.length -= n;
    this.start = absolute;
    // A window that grew for one large piece shrinks again.
    if (this.bytes.length > 1 << 22 && this.length < this.bytes.length / 4) {
      this.bytes = Buffer.from(this.bytes.subarray(0, Math.max(this.length * 2, 1 << 16)));
    }
  }
}

/** The pieces of a file read as chunks (see the module comment). */
export async function* splitInterchange(
  chunks: AsyncIterable<Uint8Array>,
  options: SplitOptions,
): AsyncGenerator<Piece> {
  const splitter = createSplitter(options);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}

/** The splitter itself, fed chunk by chunk: `push` and `end` answer the pieces they cut. */
export function createSplitter(options: SplitOptions): {
  push(chunk: Uint8Array): Piece[];
  end(): Piece[];
} {
  const skip = options.skip ?? 0;
  const w = new Window();
  // Service characters in force (UNA, or the defaults of level A and later).
  let comp = 0x3a;
  let elem = 0x2b;
  let release = 0x3f;
  let term = 0x27;
  let una = -1;
  let unaEnd = -1;
  let header: Buffer | undefined;
  let cuttable = false;
  let icMessages = 0;
  let index = 0;
  // Lines counted up to `counted`: LF, CRLF and a lone CR end a line (as the tokenizer counts them).
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  const countLines = (to: number) => {
    const from = counted - w.start;
    const end = to - w.start;
    const b = w.bytes;
    for (let lf = b.indexOf(0x0a, from); lf !== -1 && lf < end; lf = b.indexOf(0x0a, lf + 1)) {
      line++;
      lineStart = lf + 1 + w.start;
    }
    for (let cr = b.indexOf(0x0d, from); cr !== -1 && cr < end; cr = b.indexOf(0x0d, cr + 1)) {
      if (b[cr + 1] === 0x0a) continue;
      line++;
      lineStart = Math.max(lineStart, cr + 1 + w.start);
    }
    counted = Math.max(counted, to);
  };
  let piece = { offset: 0, line: 1, lineStart: 0, header: undefined as Buffer | undefined, before: 0, first: 0 };
  let starts: number[] = [];
  // Skipping the messages done: nothing is handed out until message `skip` starts a piece.
  let skipping = skip > 0;
  let scan = 0;

  const unreleased = (at: number, by = release): boolean => {
    if (by < 0) return true;
    let k = at - 1;
    while (k >= w.start && w.at(k) === by) k--;
    return (at - 1 - k) % 2 === 0;
  };
  /** Where the segment at `at` starts counting from the terminator before it; -1 when `at` starts no segment. */
  const segmentStart = (at: number): number => {
    let k = at - 1;
    while (k >= w.start && isSpace(w.at(k))) k--;
    // Before the window: the file's start, or a piece's start (right after a terminator).
    if (k < w.start) return w.start;
    return w.at(k) === term && unreleased(k) ? k + 1 : -1;
  };
  /** The end (just past the terminator) of the segment starting at `from`, or -1 when not read yet. */
  const segmentEnd = (from: number, by: number, released: number): number => {
    for (let i = w.bytes.indexOf(by, from - w.start); i !== -1 && i < w.length; i = w.bytes.indexOf(by, i + 1)) {
      if (unreleased(i + w.start, released)) return i + w.start + 1;
    }
    return -1;
  };
  const startPiece = (at: number) => {
    countLines(at);
    piece = { offset: at, line, lineStart, header: at === 0 ? undefined : header, before: icMessages, first: index };
    starts = [];
  };
  const cut = (at: number): Piece => {
    const out: Piece = {
      header: piece.header,
      body: w.copy(piece.offset, at),
      offset: piece.offset,
      line: piece.line,
      lineStart: piece.lineStart,
      messagesBefore: piece.before,
      firstIndex: piece.first,
      starts,
      last: false,
    };
    startPiece(at);
    w.drop(at);
    return out;
  };

  /** Looks at every `UN` read so far; `final`: no more input will come. Yields the pieces cut. */
  function* look(final: boolean): Generator<Piece> {
    for (;;) {
      const i = w.bytes.indexOf('UN', scan - w.start, 'latin1');
      if (i === -1 || i >= w.length) {
        scan = Math.max(scan, w.end - 1);
        return;
      }
      const at = i + w.start;
      if (!final && at + 9 > w.end) {
        scan = at;
        return;
      }
      scan = at + 2;
      const third = w.at(at + 2);
      if (third === 0x41 /* UNA */) {
        if (segmentStart(at) < 0 || at + 9 > w.end) continue;
        comp = w.at(at + 3)!;
        elem = w.at(at + 4)!;
        release = w.at(at + 6) === 0x20 ? -1 : w.at(at + 6)!;
        term = w.at(at + 8)!;
        una = at;
        unaEnd = at + 9;
        scan = at + 9;
        continue;
      }
      if (third === 0x42 /* UNB */) {
        // A UNB right after its UNA keeps it; any other starts from the defaults (after the check that it starts
        // a segment, by the terminator in force before it).
        let k = at - 1;
        while (k >= unaEnd && isSpace(w.at(k))) k--;
        const withUna = una >= 0 && k === unaEnd - 1;
        if (!withUna && segmentStart(at) < 0) continue;
        // The service characters of this interchange, taken on only once its UNB is read whole.
        const next = withUna ? { comp, elem, release, term } : { comp: 0x3a, elem: 0x2b, release: 0x3f, term: 0x27 };
        if (w.at(at + 3) !== next.elem || (withUna && segmentStart(at) < 0)) continue;
        const end = segmentEnd(at + 4, next.term, next.release);
        if (end < 0) {
          if (final) return;
          scan = at;
          return;
        }
        ({ comp, elem, release, term } = next);
        header = w.copy(withUna ? una : at, end);
        options.onHeader?.(header, at);
        una = -1;
        cuttable = comp !== elem && !options.whole && !options.scanOnly;
        icMessages = 0;
        scan = end;
        continue;
      }
      if (w.at(at + 3) !== elem) continue;
      if (third === 0x47 || third === 0x4f || third === 0x50 || third === 0x5a) {
        // UNG, UNO, UNP: groups and packages are not cut; after UNZ no interchange is open.
        if (segmentStart(at) >= 0) cuttable = false;
        continue;
      }
      if (third !== 0x48 /* UNH */) continue;
      const start = segmentStart(at);
      if (start < 0) continue;
      if (skipping) {
        if (index === skip && cuttable) {
          skipping = false;
          startPiece(start);
          w.drop(start);
        } else {
          // Only the messages before are read here: the window keeps the current one.
          countLines(start);
          w.drop(start);
        }
      } else if (
        cuttable &&
        index > piece.first &&
        (index - piece.first >= options.batchMessages || start - piece.offset >= options.batchBytes)
      ) {
        yield cut(start);
      }
      if (!skipping) starts.push(at);
      icMessages++;
      index++;
    }
  }

  return {
    push(chunk) {
      w.append(chunk);
      const pieces = [...look(false)];
      if (options.scanOnly) {
        // Kept: what a segment start looks back at, and a UNA or UNB not read whole yet.
        w.drop(Math.max(w.start, Math.min(scan, una >= 0 ? una : scan) - 256));
      }
      return pieces;
    },
    end() {
      const pieces = [...look(true)];
      if (options.scanOnly) return pieces;
      if (skipping) throw new Error(`ingest progress (${skip} messages) past the file's ${index} messages`);
      const last = cut(w.end);
      pieces.push({ ...last, last: true });
      return pieces;
    },
  };
}
