/**
 * What a mapping could not carry into the canonical body. A mapper never throws on what it is given: it skips the
 * part and says so here. Notes hold codes and positions, no display text (the screens translate the code).
 */

export const MAPPING_NOTE_CODES = [
  /** A segment the canonical body has no place for; it stays in the original payload. */
  'segment_not_mapped',
  /** A segment the body has a place for, but not where it appears (e.g. a quantity before any line). */
  'segment_out_of_place',
  /** A segment without the value that gives it meaning (a party without role, a quantity without value). */
  'value_missing',
  /** An amount, quantity, price or percentage that is not a decimal number. */
  'value_not_decimal',
  /** A date of a date format that is not a real date; kept as sent. */
  'date_not_valid',
  /** A party identified by agency 9 (GS1) whose identifier is not 13 digits; kept as another identifier. */
  'value_not_gln',
] as const;
export type MappingNoteCode = (typeof MAPPING_NOTE_CODES)[number];

export type MappingNote = {
  code: MappingNoteCode;
  /** The segment's tag. */
  tag: string;
  /** 1-based line and column of the segment in the original payload. */
  line: number;
  column: number;
  /** The value concerned, when there is one. */
  value?: string;
};

/** Notes kept per document; more are counted in `omittedNotes`, so a hostile message cannot grow the result. */
export const MAX_MAPPING_NOTES = 1000;
