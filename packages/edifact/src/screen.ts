/**
 * The screen: validation's fast path for clean messages.
 *
 * Most messages of real traffic have nothing to report. For them, building a segment object per segment and then
 * walking those objects is most of the cost of validating. The screen reads a whole message, UNH to UNT, straight
 * from the tokenizer's text in one pass and only proves that it is clean: plain data units, separators and tags
 * only; a matching UNT; valid UNH and UNT service elements; then each level that offers a screen (the
 * specification and map levels do) check the same text ranges. A message that passes is handed on as a
 * {@link ScreenedMessage}, whose segments are built only if something reads them. Anything the screen does not
 * prove clean (a release character, a line break before whitespace was reported, a duplicate reference, a
 * count mismatch, an unknown message shape, any value a level would report) takes the plain path, segment by
 * segment, so findings, their paths and their order are exactly what the plain path gives.
 *
 * `test/screen.test.ts` compares both paths on mutated real messages.
 *
 * All of this is engine-internal (docs/decisions/0017-edifact-public-surface.md): a ScannedMessage is the
 * tokenizer's working layout, reused from message to message, and the package does not promise its shape. So the
 * screens of the engine's own levels are attached with `withScreen`, not through `ValidationLevelPlugin`; a level
 * of one's own has no screen and runs on the screened message (its segments are built for it).
 */
import type { CodeAllowance, ValidationLevelPlugin } from './levels.ts';
import type { Message, Segment } from './model.ts';
import { RawSegment } from './segment.ts';
import { internTag } from './tags.ts';

/**
 * A message found clean by the tokenizer's scan, as ranges of the tokenizer's text, with what the levels' screens
 * need to check it. Reused from message to message: a screen must not keep it.
 */
export type ScannedMessage = {
  /** The tokenizer's text (one unit per byte, or the UTF-16 units of text input). */
  text: string;
  /** For binary input, the bytes of `text` at the same indexes (faster to read than its units); else undefined. */
  bytes: Uint8Array | undefined;
  /** Segments UNH to UNT, both included. */
  count: number;
  /** Per segment: index in `text` of its tag's first unit. */
  starts: Int32Array;
  /** Per segment: index in `text` of its terminator. */
  ends: Int32Array;
  /** Per segment: its tag's three char codes, `(a << 16) | (b << 8) | c` (see tagCode). */
  codes: Int32Array;
  /**
   * The component and element separators of the message, in order: an element separator at i as `i`, a component
   * separator as `~i` (negative). Segment `s` has those from `sepStarts[s]` to `sepStarts[s + 1]`; a segment with
   * elements starts with the element separator right after its tag.
   */
  seps: Int32Array;
  sepStarts: Int32Array;
  /** Absolute offset of `text[0]` in the input. */
  base: number;
  /** Index of the UNH segment in the interchange's segments. */
  index: number;
  /** Line of UNH and the absolute offset where that line starts; the same for UNT. */
  line: number;
  lineStart: number;
  lastLine: number;
  lastLineStart: number;
  /** Char codes of the component and element separators and of the segment terminator in force. */
  comp: number;
  elem: number;
  term: number;
  // Filled by the parser before the levels' screens run.
  /** UNH S009: 0065, 0052, 0054, 0051, 0057 ('' when absent). */
  type: string;
  version: string;
  release: string;
  agency: string;
  association: string;
  /** Decimal mark (UNA, default `.`). */
  decimal: string;
  /** UNB S001 0002, or 3 when unknown (as `MessageContext.syntaxVersion`). */
  syntaxVersion: number;
};

/**
 * A level's screen: true only when its `validateMessage` would find nothing in `message`, which the syntax level
 * has found clean and holds as text ranges. Answers synchronously, keeps nothing of `message`, and says false
 * whenever unsure (e.g. the directory is not loaded yet): the message then goes the plain way. `allowance`: the
 * run's `allowsCode` (see `ValidationLevelPlugin.allowsCode`).
 */
export type LevelScreen = (message: ScannedMessage, allowance: CodeAllowance | undefined) => boolean;

/**
 * Where an engine level keeps its screen: under a symbol the package does not export, so that no public type
 * mentions it, as an own enumerable property, so that a copy of the level made by spreading (a wrapper that counts
 * or logs) keeps its fast path.
 */
const SCREEN = Symbol('edifact.screen');
type WithScreen = ValidationLevelPlugin & { [SCREEN]?: LevelScreen };

/** Gives one of the engine's levels (specification, map) its screen; returns the level. */
export const withScreen = <L extends ValidationLevelPlugin>(level: L, screen: LevelScreen): L => {
  (level as WithScreen)[SCREEN] = screen;
  return level;
};

/** The screen of `level` (or of the level it was copied from), when it is one of the engine's levels. */
export const screenOf = (level: ValidationLevelPlugin): LevelScreen | undefined => (level as WithScreen)[SCREEN];

/** An empty ScannedMessage with room for `capacity` segments. */
export const createScannedMessage = (capacity = 256): ScannedMessage => ({
  text: '',
  bytes: undefined,
  count: 0,
  starts: new Int32Array(capacity),
  ends: new Int32Array(capacity),
  codes: new Int32Array(capacity),
  seps: new Int32Array(capacity * 8),
  sepStarts: new Int32Array(capacity + 1),
  base: 0,
  index: 0,
  line: 1,
  lineStart: 0,
  lastLine: 1,
  lastLineStart: 0,
  comp: 0,
  elem: 0,
  term: 0,
  type: '',
  version: '',
  release: '',
  agency: '',
  association: '',
  decimal: '.',
  syntaxVersion: 3,
});

const grow = (array: Int32Array): Int32Array => {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
};

/** Makes room for segment `i` of `m`. */
export const ensureCapacity = (m: ScannedMessage, i: number): void => {
  if (i + 1 < m.starts.length) return;
  m.starts = grow(m.starts);
  m.ends = grow(m.ends);
  m.codes = grow(m.codes);
  m.sepStarts = grow(m.sepStarts);
};

/** Makes room for more separators than `m.seps` holds. */
export const growSeparators = (m: ScannedMessage): Int32Array => (m.seps = grow(m.seps));

/** A three-character tag as one number. */
export const tagCode = (tag: string): number =>
  (tag.charCodeAt(0) << 16) | (tag.charCodeAt(1) << 8) | tag.charCodeAt(2);

export const UNH = 0x554e48;
export const UNS = 0x554e53;
export const UNT = 0x554e54;
export const BGM = 0x42474d;

/** Segment `i` of a scanned message as the tokenizer builds it (a RawSegment). */
export const scannedSegment = (m: ScannedMessage, i: number, line: number, lineStart: number): RawSegment => {
  const start = m.starts[i] as number;
  const end = m.ends[i] as number;
  const offset = m.base + start;
  return new RawSegment(
    internTag(m.text, start),
    line,
    offset - lineStart + 1,
    offset,
    end - start + 1,
    m.index + i,
    m.text,
    end === start + 3 ? end : start + 3,
    end,
    m.comp,
    m.elem,
  );
};

const LF = 0x0a;
const CR = 0x0d;

/**
 * A message that passed the screen: the fields of a parsed Message at once, its segments built from its text
 * the first time `segments` is read (the same RawSegments, positions and indexes the tokenizer gives).
 */
export class ScreenedMessage implements Message {
  reference: string;
  type: string;
  version: string;
  release: string;
  agency: string;
  declare association?: string;
  directory: string;
  documentNumber: string;
  header: Segment;
  trailer: Segment;
  #text: string;
  #base: number;
  #starts: number;
  #line: number;
  #lineStart: number;
  #count: number;
  #comp: number;
  #elem: number;
  #term: number;

  constructor(
    m: ScannedMessage,
    fields: { reference: string; association: string; documentNumber: string },
    header: Segment,
    trailer: Segment,
  ) {
    this.reference = fields.reference;
    this.type = m.type;
    this.version = m.version;
    this.release = m.release;
    this.agency = m.agency;
    if (fields.association) this.association = fields.association;
    this.directory = m.version + m.release;
    this.documentNumber = fields.documentNumber;
    this.header = header;
    this.trailer = trailer;
    this.#text = m.text;
    this.#base = m.base;
    this.#starts = m.starts[0] as number;
    this.#line = m.line;
    this.#lineStart = m.lineStart;
    this.#count = m.count;
    this.#comp = m.comp;
    this.#elem = m.elem;
    this.#term = m.term;
  }

  /** UNH to UNT; built once, on first read, then an ordinary own property. */
  get segments(): Segment[] {
    const list = this.build();
    Object.defineProperty(this, 'segments', { value: list, writable: true, enumerable: true, configurable: true });
    return list;
  }

  set segments(value: Segment[]) {
    Object.defineProperty(this, 'segments', { value, writable: true, enumerable: true, configurable: true });
  }

  private build(): Segment[] {
    const s = this.#text;
    const list: Segment[] = [this.header];
    let line = this.#line;
    let lineStart = this.#lineStart;
    const term = String.fromCharCode(this.#term);
    let p = s.indexOf(term, this.#starts) + 1;
    for (let i = 1; i < this.#count - 1; i++) {
      // Whitespace between segments (the screen takes it only once the tokenizer has reported it).
      for (;;) {
        const c = s.charCodeAt(p);
        if (c === LF) {
          line++;
          lineStart = this.#base + p + 1;
        } else if (c === CR) {
          if (s.charCodeAt(p + 1) !== LF) {
            line++;
            lineStart = this.#base + p + 1;
          }
        } else if (c !== 0x20 && c !== 0x09) break;
        p++;
      }
      const end = s.indexOf(term, p);
      const offset = this.#base + p;
      list.push(
        new RawSegment(
          internTag(s, p),
          line,
          offset - lineStart + 1,
          offset,
          end - p + 1,
          this.header.index + i,
          s,
          end === p + 3 ? end : p + 3,
          end,
          this.#comp,
          this.#elem,
        ),
      );
      p = end + 1;
    }
    if (this.#count > 1) list.push(this.trailer);
    return list;
  }
}
