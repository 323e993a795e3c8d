/**
 * The shared data model of the EDIFACT engine: what the parser produces and what every validation level reads.
 * Positions are 1-based lines and columns and 0-based byte offsets into the original input.
 */
import type { FindingCode } from './codes.ts';

/** Service characters in force for an interchange (ISO 9735, UNA). */
export type Delimiters = {
  component: string; // default ':'
  element: string; // default '+'
  decimal: string; // default '.'
  release: string; // default '?'  ('' when none)
  repetition: string; // default '*' in syntax 4, ' ' (reserved, unused) in syntax 1-3
  segment: string; // default "'"
};

export type Position = { line: number; column: number; offset: number };

/** One data element: a list of components (a simple element has exactly one). Repetitions (syntax 4) are kept apart. */
export type Element = {
  /** components[i] is the unescaped text of component i; '' when empty. */
  components: string[];
  /** Further repetitions of the same element (syntax 4 repetition separator), each a list of components. */
  repeats?: string[][];
};

export type Segment = {
  tag: string;
  elements: Element[];
  position: Position;
  /** Byte length of the segment including its terminator. */
  length: number;
  /** Index of the segment in the interchange, 0-based. */
  index: number;
};

export type Message = {
  /** UNH 0062 message reference number. */
  reference: string;
  /** UNH S009: 0065 type, 0052 version, 0054 release, 0051 agency, 0057 association assigned code. */
  type: string;
  version: string;
  release: string;
  agency: string;
  association?: string;
  /** Directory name derived from version and release, e.g. `D96A`. */
  directory: string;
  /** BGM 1004 when present, else the message reference. */
  documentNumber: string;
  /** All segments from UNH to UNT inclusive, in order. */
  segments: Segment[];
  header: Segment;
  trailer?: Segment;
};

export type Group = {
  header: Segment;
  trailer?: Segment;
  reference: string;
  messages: Message[];
};

export type Interchange = {
  delimiters: Delimiters;
  /** UNB S001 0001, e.g. UNOA; '' for bare messages without UNB. */
  syntaxIdentifier: string;
  /** UNB S001 0002, 1 to 4. */
  syntaxVersion: number;
  controlReference: string;
  sender?: string;
  recipient?: string;
  header?: Segment;
  trailer?: Segment;
  /** UNA service string advice, when present. */
  una?: Segment;
  groups: Group[];
  /** Messages directly in the interchange (not in a functional group). */
  messages: Message[];
  /** Syntax 4 UNO/UNP packages, kept opaque. */
  packages: { header: Segment; trailer?: Segment; bytes: Uint8Array }[];
};

export type Severity = 'error' | 'warning' | 'info';
export type ValidationLevel = 'syntax' | 'specification' | 'map';

/** One validation finding. Carries no display text: `code` plus `params` are translated by the caller. */
export type Finding = {
  /** A stable `EDI_*` code of the catalogue (`FINDING_CODES`, ./codes.ts). */
  code: FindingCode;
  severity: Severity;
  level: ValidationLevel;
  /** e.g. `SG2[1]/NAD[1]/C082/3039`. */
  path: string;
  /** Name of the element, component or segment from the directory, when known. */
  fieldName?: string;
  messageType?: string;
  /** Directory (e.g. `D96A`) or guide (e.g. `EAN008`). */
  version?: string;
  documentNumber?: string;
  messageReference?: string;
  line: number;
  column: number;
  offset: number;
  /** Expected format, e.g. `an..35`. */
  expected?: string;
  /** The actual value found. */
  actual?: string;
  params?: Record<string, string | number>;
};
