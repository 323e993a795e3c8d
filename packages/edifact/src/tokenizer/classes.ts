/**
 * Character classes of the tokenizer: every unit below 256 is read through a 256-entry table that says whether it
 * is data, one of the service characters in force, a line break, or outside the syntax identifier's repertoire.
 */
import type { Charset } from '../charsets.ts';

export const K_PLAIN = 0;
export const K_COMP = 1;
export const K_ELEM = 2;
export const K_REL = 3;
export const K_REP = 4;
export const K_LF = 5;
export const K_CR = 6;
export const K_INVALID = 7;
export const K_HIGH = 8;
export const K_TERM = 9;

export const LF = 0x0a;
export const CR = 0x0d;

export const isWhitespace = (c: number): boolean => c === 0x20 || c === LF || c === CR || c === 0x09;
export const isTagChar = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/** The char codes of the service characters in force (-1: release or repetition not used). */
export type ServiceCodes = { comp: number; elem: number; rel: number; rep: number; term: number };

/**
 * Fills `table` for `charset` and the service characters. `decodesHigh`: units above 0x7F are bytes to decode
 * (binary input under a set that is not Latin-1), so they leave the plain loop.
 */
export const fillClassTable = (
  table: Uint8Array,
  charset: Charset,
  decodesHigh: boolean,
  codes: ServiceCodes,
): void => {
  for (let c = 0; c < 256; c++) {
    table[c] = charset.valid[c] === 1 ? (c >= 0x80 && decodesHigh ? K_HIGH : K_PLAIN) : K_INVALID;
  }
  table[LF] = K_LF;
  table[CR] = K_CR;
  const set = (code: number, k: number): void => {
    if (code >= 0 && code < 256) table[code] = k;
  };
  set(codes.comp, K_COMP);
  set(codes.elem, K_ELEM);
  set(codes.rep, K_REP);
  set(codes.rel, K_REL);
  set(codes.term, K_TERM);
};
