/**
 * The service characters in force: the defaults (ISO 9735 part 1 clause 4), level B's (clause 5.2), a UNA service
 * string advice, and the repetition separator that syntax version 4 brings.
 */
import type { Delimiters } from '../model.ts';

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

/**
 * The service characters of an interchange without UNA, from the fourth unit of its UNB: level B may use IS3 as
 * element separator (clause 5.2); anything else has the defaults.
 */
export const delimitersWithoutAdvice = (fourth: number): Delimiters =>
  fourth === LEVEL_B_SEPARATORS.element
    ? {
        component: String.fromCharCode(LEVEL_B_SEPARATORS.component),
        element: String.fromCharCode(LEVEL_B_SEPARATORS.element),
        decimal: '.',
        release: '',
        repetition: ' ',
        segment: String.fromCharCode(LEVEL_B_SEPARATORS.segment),
      }
    : { ...DEFAULT_DELIMITERS };

/**
 * Reads the six characters of a UNA service string advice (after `UNA`; exactly nine characters in all, no release
 * processing). `delimiters`: what it sets, undefined when its separators are not distinct (they then stay as they
 * were); `valid`: false also for a decimal mark other than `.` and `,`.
 */
export const readAdvice = (chars: string): { delimiters: Delimiters | undefined; valid: boolean } => {
  const comp = chars[0] ?? ':';
  const elem = chars[1] ?? '+';
  const decimal = chars[2] ?? '.';
  const release = chars[3] ?? '?';
  const repetition = chars[4] ?? ' ';
  const segment = chars[5] ?? "'";
  // The separators in use must differ from each other (part 1 clause 4; space marks "not used").
  const used = [comp, elem, segment];
  if (release !== ' ') used.push(release);
  if (repetition !== ' ') used.push(repetition);
  const distinct = new Set(used).size === used.length;
  return {
    delimiters: distinct
      ? { component: comp, element: elem, decimal, release: release === ' ' ? '' : release, repetition, segment }
      : undefined,
    valid: distinct && (decimal === '.' || decimal === ','),
  };
};

/**
 * The service characters after a UNB of syntax version `version`: syntax 4 brings the repetition separator (`*` by
 * default, part 1 clause 4) unless a UNA set it; in 1-3 that position is reserved. `delimiters` itself when nothing
 * changes.
 */
export const delimitersForVersion = (delimiters: Delimiters, version: string, advised: boolean): Delimiters => {
  if (version === '4') return advised ? delimiters : { ...delimiters, repetition: '*' };
  return delimiters.repetition === ' ' ? delimiters : { ...delimiters, repetition: ' ' };
};
