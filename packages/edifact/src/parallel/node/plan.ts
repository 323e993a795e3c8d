/**
 * The parallel mode's split: one interchange cut into parts at message boundaries, each part read by its own
 * worker as if the parts before it had been read (see `Parser.resume`). Only plain inputs are split (one UNB at the
 * start, no UNA after it, no groups, no packages, UNZ in the last part); anything else is read in one piece, and a
 * part whose worker reads other messages than this plan found makes the caller read the input in one piece too.
 */

/** One part of the input and what its reader must assume about the parts before it. */
export type PartPlan = {
  /** Absolute start (right after a segment terminator, before the whitespace and UNH that follow) and end. */
  start: number;
  end: number;
  /** For a part after the first: the interchange header (UNA, UNB) is input[0, header), read before resuming. */
  header: number;
  /** Line of `start` and the absolute offset where that line starts. */
  line: number;
  lineStart: number;
  /** Messages before the part and their references (what UNZ counts and duplicate references need). */
  messages: number;
  references: string[];
  /** The references of this part's messages, as found here: the worker's must be the same. */
  expected: string[];
  /** The last part ends the input (UNZ, end of input). */
  last: boolean;
};

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Whether the unit at `at` is a terminator no release character escapes. */
const unreleased = (bytes: Uint8Array, at: number, release: number): boolean => {
  if (release < 0) return true;
  let k = at - 1;
  while (k >= 0 && bytes[k] === release) k--;
  return (at - 1 - k) % 2 === 0;
};

/**
 * The parts of `bytes` for `count` readers (at most), each at least `minSize` long; undefined when the input is not
 * plain enough to split (it is then read in one piece).
 */
export const planParts = (bytes: Uint8Array, count: number, minSize: number): PartPlan[] | undefined => {
  const size = bytes.length;
  if (count < 2 || size < 2 * minSize) return undefined;
  // Service characters: UNA, or the defaults (level B and anything unusual is not split).
  let comp = 0x3a;
  let elem = 0x2b;
  let release = 0x3f;
  let term = 0x27;
  let at = 0;
  if (bytes[0] === 0x55 && bytes[1] === 0x4e && bytes[2] === 0x41) {
    comp = bytes[3] as number;
    elem = bytes[4] as number;
    release = bytes[6] === 0x20 ? -1 : (bytes[6] as number);
    term = bytes[8] as number;
    const used = [comp, elem, term, ...(release < 0 ? [] : [release])];
    if (new Set(used).size !== used.length || used.some((c) => c === undefined || isSpace(c) || c >= 0x80))
      return undefined;
    if (bytes[7] !== 0x20) return undefined;
    at = 9;
  }
  if (!(bytes[at] === 0x55 && bytes[at + 1] === 0x4e && bytes[at + 2] === 0x42 && bytes[at + 3] === elem))
    return undefined;
  let header = -1;
  for (let i = bytes.indexOf(term, at); i !== -1; i = bytes.indexOf(term, i + 1)) {
    if (unreleased(bytes, i, release)) {
      header = i + 1;
      break;
    }
  }
  if (header < 0) return undefined;
  // One pass over every `UN`: no further UNA, UNB, group or package; every message start (UNH and its element
  // separator after a terminator and whitespace) with its reference; the first UNZ. Buffer's indexOf is native.
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  const references: string[] = [];
  let unz = -1;
  for (
    let i = view.indexOf('UN', header, 'latin1');
    i !== -1 && i + 2 < size;
    i = view.indexOf('UN', i + 2, 'latin1')
  ) {
    const third = bytes[i + 2];
    if (third === 0x41 || third === 0x42 || third === 0x47 || third === 0x4f) return undefined;
    if (third === 0x5a && unz < 0) unz = i;
    if (third !== 0x48 || bytes[i + 3] !== elem) continue;
    let k = i - 1;
    while (k >= header && isSpace(bytes[k] as number)) k--;
    if (k < header - 1 || bytes[k] !== term || !unreleased(bytes, k, release)) continue;
    let reference = '';
    for (let p = i + 4; p < size; p++) {
      const c = bytes[p] as number;
      if (c === comp || c === elem || c === term) break;
      // A released or non-ASCII reference is not compared here: not split.
      if (c === release || c >= 0x80) return undefined;
      reference += String.fromCharCode(c);
    }
    starts.push(k + 1);
    references.push(reference);
  }
  // Cut points: the first message start after each equal share.
  const cuts: number[] = [];
  let m = 0;
  for (let part = 1; part < count; part++) {
    const target = Math.floor((size * part) / count);
    while (m < starts.length && (starts[m] as number) < target) m++;
    if (m >= starts.length) break;
    const cut = starts[m] as number;
    if (cut - (cuts.at(-1) ?? 0) < minSize || size - cut < minSize) continue;
    cuts.push(cut);
  }
  if (cuts.length === 0) return undefined;
  if (unz !== -1 && unz < (cuts.at(-1) as number)) return undefined;

  const parts: PartPlan[] = [];
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  let message = 0;
  const bounds = [0, ...cuts, size];
  for (let p = 0; p + 1 < bounds.length; p++) {
    const start = bounds[p] as number;
    const end = bounds[p + 1] as number;
    // Lines up to `start`: LF, CRLF and a lone CR end a line (found with indexOf: most inputs have few).
    for (let lf = bytes.indexOf(0x0a, counted); lf !== -1 && lf < start; lf = bytes.indexOf(0x0a, lf + 1)) {
      line++;
      lineStart = lf + 1;
    }
    for (let cr = bytes.indexOf(0x0d, counted); cr !== -1 && cr < start; cr = bytes.indexOf(0x0d, cr + 1)) {
      if (bytes[cr + 1] === 0x0a) continue;
      line++;
      lineStart = Math.max(lineStart, cr + 1);
    }
    counted = start;
    const first = message;
    while (message < starts.length && (starts[message] as number) < end) message++;
    parts.push({
      start,
      end,
      header,
      line,
      lineStart,
      messages: first,
      references: references.slice(0, first),
      expected: references.slice(first, message),
      last: p + 2 === bounds.length,
    });
  }
  return parts;
};
