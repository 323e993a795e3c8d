import iconv from 'iconv-lite';
import type { FileEncoding } from '@portal/contracts';

/**
 * Saving an original in the user's file encoding (the profile's additional settings, description section 9), through
 * iconv-lite. The file's own encoding comes from its UNB syntax identifier (ISO 9735: UNOC is ISO 8859-1, UNOD 8859-2,
 * UNOW UTF-8…). When the chosen encoding is the file's own (or the file is plain ASCII and the target keeps ASCII as
 * it is), the bytes go out unchanged. A character the target cannot hold is reported with its place, never replaced
 * by `?`.
 */

/** The iconv-lite name of each offered encoding; `unicode` is what Windows calls it: UTF-16 LE with a BOM. */
const TARGETS: Record<Exclude<FileEncoding, '{token}'>, string> = {
  'utf-8': 'utf8',
  unicode: 'utf-16le',
  ascii: 'ascii',
  'iso-8859-1': 'iso-8859-1',
  'iso-8859-2': 'iso-8859-2',
  'iso-8859-4': 'iso-8859-4',
  'iso-8859-5': 'iso-8859-5',
  'iso-8859-9': 'iso-8859-9',
  ibm852: 'ibm852',
};

/** Targets whose bytes 0x00–0x7F are ASCII: a plain ASCII file is already in them. */
const ASCII_COMPATIBLE = new Set([
  'utf8',
  'ascii',
  'iso-8859-1',
  'iso-8859-2',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-9',
  'ibm852',
]);

/** ISO 9735 syntax identifiers (UNB S001 0001) and the encoding of their repertoire. */
const SOURCES: Record<string, string> = {
  UNOC: 'iso-8859-1',
  UNOD: 'iso-8859-2',
  UNOE: 'iso-8859-5',
  UNOF: 'iso-8859-7',
  UNOG: 'iso-8859-3',
  UNOH: 'iso-8859-4',
  UNOI: 'iso-8859-6',
  UNOJ: 'iso-8859-8',
  UNOK: 'iso-8859-9',
  UNOL: 'iso-8859-15',
  UNOW: 'utf8',
  UNOY: 'utf8',
};

export type Unencodable = {
  /** The character (a whole code point). */
  character: string;
  /** `U+0142`. */
  codePoint: string;
  /** Line and column (1-based, in characters) in the file, and the character's index from 0. */
  line: number;
  column: number;
  offset: number;
};

export type EncodeResult = { ok: true; bytes: Uint8Array; changed: boolean } | ({ ok: false } & Unencodable);

const isAscii = (bytes: Uint8Array): boolean => {
  for (const b of bytes) if (b > 0x7f) return false;
  return true;
};

const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/**
 * The encoding the file's bytes are in: its syntax identifier's, and for UNOA/UNOB (ASCII subsets) or an unknown one,
 * UTF-8 when the bytes are valid UTF-8 (files declared UNOA often are), else ISO 8859-1 as the engine reads them.
 */
export function sourceEncoding(syntax: string, bytes: Uint8Array): string {
  const id = syntax.split(':')[0]?.toUpperCase() ?? '';
  return SOURCES[id] ?? (isUtf8(bytes) ? 'utf8' : 'iso-8859-1');
}

/** The first character of `text` that did not come back the same from the target (`back`), with its place. */
function firstLost(text: string, back: string): Unencodable {
  let line = 1;
  let column = 1;
  let i = 0;
  let j = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const backCp = back.codePointAt(j);
    if (backCp !== cp) {
      return {
        character: String.fromCodePoint(cp),
        codePoint: `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`,
        line,
        column,
        offset: i,
      };
    }
    j += backCp > 0xffff ? 2 : 1;
    i += width;
    if (cp === 0x0a) {
      line++;
      column = 1;
    } else column++;
  }
  // Not reached for a real loss; a lossless but different rendering is reported at the end.
  return { character: '', codePoint: '', line, column, offset: i };
}

/** The original's bytes in `target` (`{token}`: as received). */
export function encodeOriginal(bytes: Uint8Array, syntax: string, target: FileEncoding): EncodeResult {
  if (target === '{token}') return { ok: true, bytes, changed: false };
  const to = TARGETS[target];
  const from = sourceEncoding(syntax, bytes);
  if (from === to || (ASCII_COMPATIBLE.has(to) && isAscii(bytes))) return { ok: true, bytes, changed: false };
  const text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), from);
  const out = iconv.encode(text, to, { addBOM: to === 'utf-16le' });
  const back = iconv.decode(out, to, { stripBOM: true });
  if (back !== text) return { ok: false, ...firstLost(text, back) };
  return { ok: true, bytes: new Uint8Array(out.buffer, out.byteOffset, out.byteLength), changed: true };
}
