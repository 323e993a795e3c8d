/**
 * Representations of data element values (ISO 9735 part 1, clause 10 / syntax 3 clause 10; UNTDID EDED `Repr`):
 * `a` alphabetic, `n` numeric, `an` alphanumeric; `an3` exactly 3 characters, `an..3` up to 3.
 */

/** A compiled representation. */
export type ValueFormat = { kind: 'a' | 'n' | 'an'; min: number; max: number; text: string };

/** Why a value does not match its representation. */
export type FormatProblem = 'too-long' | 'too-short' | 'not-alphabetic' | 'not-numeric';

const cache = new Map<string, ValueFormat | undefined>();

/** Parses `an..35`, `n3` ...; undefined for anything else. */
export const parseFormat = (text: string): ValueFormat | undefined => {
  if (cache.has(text)) return cache.get(text);
  const match = /^(an|a|n)(\.\.)?(\d+)$/.exec(text);
  const format: ValueFormat | undefined = match
    ? {
        kind: match[1] === 'a' ? 'a' : match[1] === 'n' ? 'n' : 'an',
        min: match[2] ? 0 : Number(match[3]),
        max: Number(match[3]),
        text,
      }
    : undefined;
  cache.set(text, format);
  return format;
};

/**
 * Checks a value (non-empty, release characters already removed) against its representation. For numerics, the
 * length counts digits only: a leading minus sign and the decimal mark are not counted, and a decimal mark needs a
 * digit on each side (ISO 9735 clause 10). `decimal` is the mark of UNA (or the default `.`); with `anyDecimal`
 * (syntax 4, where ISO 9735-1 lets the sender use either) both `.` and `,` are accepted.
 */
export const checkValue = (
  value: string,
  format: ValueFormat,
  decimal: string,
  anyDecimal: boolean,
): FormatProblem | undefined =>
  checkRange(value, 0, value.length, format, decimal.length === 1 ? decimal.charCodeAt(0) : -1, anyDecimal);

/** `checkValue` of `text[start, end)`, without slicing it out; `decimal` is the char code of the mark (-1: none). */
export const checkRange = (
  text: string,
  start: number,
  end: number,
  format: ValueFormat,
  decimal: number,
  anyDecimal: boolean,
): FormatProblem | undefined => {
  let length = end - start;
  if (format.kind === 'n') {
    let digits = 0;
    let marks = 0;
    let lastMark = -2;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code >= 48 && code <= 57) digits++;
      else if (i === start && code === 45 && end - start > 1) continue;
      else if ((code === decimal || (anyDecimal && (code === 44 || code === 46))) && marks === 0) {
        marks++;
        lastMark = i;
      } else return 'not-numeric';
    }
    if (marks > 0) {
      const before = lastMark > start ? text.charCodeAt(lastMark - 1) : -1;
      const after = lastMark + 1 < end ? text.charCodeAt(lastMark + 1) : -1;
      if (!(before >= 48 && before <= 57) || !(after >= 48 && after <= 57)) return 'not-numeric';
    }
    length = digits;
  } else if (format.kind === 'a') {
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code >= 48 && code <= 57) return 'not-alphabetic';
    }
  }
  if (length > format.max) return 'too-long';
  if (length < format.min) return 'too-short';
  return undefined;
};
