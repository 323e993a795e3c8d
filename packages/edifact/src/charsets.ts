/**
 * Character repertoires of the syntax identifiers (UNB S001 0001), ISO 9735 part 1 clause 5 (syntax 1-3: UNTDID
 * part 4 chapter 2.2 clause 5.1 and 5.2) and the code list of data element 0001 (syntax 4).
 */

/** How the bytes of a component are turned into text. */
export type CharsetDecoding = 'latin1' | 'utf-8' | 'single-byte';

export type Charset = {
  /** The syntax identifier, e.g. `UNOC`; '' when unknown or not yet declared. */
  id: string;
  /** Whether the identifier is one of ISO 9735's. */
  known: boolean;
  /** valid[c] = 1 when the byte (or code unit below 256) c belongs to the repertoire. */
  valid: Uint8Array;
  /** Whether a UTF-16 code unit at or above 256 belongs to the repertoire (text input). */
  isValidHigh: (unit: number) => boolean;
  decoding: CharsetDecoding;
  /** The WHATWG encoding label for single-byte sets other than ISO 8859-1. */
  label?: string;
};

const LEVEL_A_PUNCTUATION = ' .,-()/=\'+:?!"%&*;<>';

const setChars = (valid: Uint8Array, chars: string): void => {
  for (let i = 0; i < chars.length; i++) valid[chars.charCodeAt(i)] = 1;
};

const range = (valid: Uint8Array, from: number, to: number): void => {
  for (let c = from; c <= to; c++) valid[c] = 1;
};

const levelA = (): Uint8Array => {
  // Clause 5.1: upper-case letters, digits, space and the listed punctuation (the last eight "not for telex").
  const valid = new Uint8Array(256);
  range(valid, 0x41, 0x5a);
  range(valid, 0x30, 0x39);
  setChars(valid, LEVEL_A_PUNCTUATION);
  return valid;
};

const levelB = (): Uint8Array => {
  // Clause 5.2: level A plus lower-case letters; IS1/IS3/IS4 serve as separators (set by the tokenizer when used).
  const valid = levelA();
  range(valid, 0x61, 0x7a);
  return valid;
};

const graphic8859 = (): Uint8Array => {
  // ISO 8859-x: the graphic characters 0x20-0x7E and 0xA0-0xFF; C0 and C1 controls are not part of the repertoire.
  const valid = new Uint8Array(256);
  range(valid, 0x20, 0x7e);
  range(valid, 0xa0, 0xff);
  return valid;
};

const utf8Bytes = (): Uint8Array => {
  // ISO 10646 in UTF-8: every byte from 0x80 may start or continue a sequence; sequences are checked on decoding.
  const valid = new Uint8Array(256);
  range(valid, 0x20, 0x7e);
  range(valid, 0x80, 0xff);
  return valid;
};

const never = (): boolean => false;
const always = (): boolean => true;

/** WHATWG labels of the ISO 8859 parts named by syntax identifiers UNOD to UNOL. */
const SINGLE_BYTE_LABELS: Record<string, string> = {
  UNOD: 'iso-8859-2',
  UNOE: 'iso-8859-5',
  UNOF: 'iso-8859-7',
  UNOG: 'iso-8859-3',
  UNOH: 'iso-8859-4',
  UNOI: 'iso-8859-6',
  UNOJ: 'iso-8859-8',
  UNOK: 'iso-8859-9',
  UNOL: 'iso-8859-15',
};

/** Every syntax identifier of ISO 9735 (code list of 0001). */
export const SYNTAX_IDENTIFIERS: readonly string[] = [
  'UNOA',
  'UNOB',
  'UNOC',
  'UNOD',
  'UNOE',
  'UNOF',
  'UNOG',
  'UNOH',
  'UNOI',
  'UNOJ',
  'UNOK',
  'UNOL',
  'UNOW',
  'UNOX',
  'UNOY',
];

const cache = new Map<string, Charset>();

/** Single-byte decoders from the platform, with a byte-to-text table to check text input against the set. */
const singleByteHigh = (label: string): ((unit: number) => boolean) => {
  let units: Set<number> | undefined;
  return (unit) => {
    if (units === undefined) {
      units = new Set();
      try {
        const bytes = new Uint8Array(96);
        for (let i = 0; i < 96; i++) bytes[i] = 0xa0 + i;
        const text = new TextDecoder(label).decode(bytes);
        for (let i = 0; i < text.length; i++) units.add(text.charCodeAt(i));
      } catch {
        // The platform lacks the label: accept the character rather than report a false error.
        return true;
      }
    }
    return units.has(unit);
  };
};

/** The repertoire of a syntax identifier; unknown identifiers get a permissive set (no character checks). */
export const getCharset = (id: string): Charset => {
  const cached = cache.get(id);
  if (cached) return cached;
  let charset: Charset;
  if (id === 'UNOA') charset = { id, known: true, valid: levelA(), isValidHigh: never, decoding: 'latin1' };
  else if (id === 'UNOB') charset = { id, known: true, valid: levelB(), isValidHigh: never, decoding: 'latin1' };
  else if (id === 'UNOC') charset = { id, known: true, valid: graphic8859(), isValidHigh: never, decoding: 'latin1' };
  else if (id === 'UNOW' || id === 'UNOY') {
    charset = { id, known: true, valid: utf8Bytes(), isValidHigh: always, decoding: 'utf-8' };
  } else if (id === 'UNOX') {
    // ISO 2022 with escape sequences: ESC (0x1B) is part of the data; decoded as bytes.
    const valid = graphic8859();
    valid[0x1b] = 1;
    range(valid, 0x80, 0x9f);
    charset = { id, known: true, valid, isValidHigh: never, decoding: 'latin1' };
  } else {
    const label = SINGLE_BYTE_LABELS[id];
    if (label !== undefined) {
      charset = {
        id,
        known: true,
        valid: graphic8859(),
        isValidHigh: singleByteHigh(label),
        decoding: 'single-byte',
        label,
      };
    } else {
      const valid = new Uint8Array(256).fill(1);
      charset = { id, known: false, valid, isValidHigh: always, decoding: 'latin1' };
    }
  }
  cache.set(id, charset);
  return charset;
};

/** The charset used before any UNB (bare messages): no checks, bytes read as UTF-8. */
export const getUndeclaredCharset = (): Charset => {
  const cached = cache.get('');
  if (cached) return cached;
  const charset: Charset = {
    id: '',
    known: false,
    valid: new Uint8Array(256).fill(1),
    isValidHigh: always,
    decoding: 'utf-8',
  };
  cache.set('', charset);
  return charset;
};
