/**
 * The catalogue of stable finding codes. Codes never change meaning; new ones may be added.
 * No display text: each code is translated by the caller from `code` and the finding's `params`.
 * The description in each TSDoc comment is for developers only.
 */
import type { Severity, ValidationLevel } from './model.ts';

/** Default severity and level of a finding code. */
export type FindingCodeInfo = { severity: Severity; level: ValidationLevel };

const syntaxError: FindingCodeInfo = { severity: 'error', level: 'syntax' };
const syntaxWarning: FindingCodeInfo = { severity: 'warning', level: 'syntax' };
const specError: FindingCodeInfo = { severity: 'error', level: 'specification' };
const specWarning: FindingCodeInfo = { severity: 'warning', level: 'specification' };
const mapError: FindingCodeInfo = { severity: 'error', level: 'map' };

/** Every finding code with its default severity and level. */
export const FINDING_CODES = {
  // --- Syntax and envelope (ISO 9735) ---
  /** A message segment appears where a UNH message header is required (e.g. BGM directly after UNB), or UNT without UNH. */
  EDI_MISSING_UNH: syntaxError,
  /** A message (UNH) is not closed by UNT before the next UNH, UNE, UNZ or the end of input. */
  EDI_MISSING_UNT: syntaxError,
  /** An interchange (UNB) is not closed by UNZ before the next UNB or the end of input. */
  EDI_MISSING_UNZ: syntaxError,
  /** UNT 0074 (number of segments in the message, UNH and UNT included) differs from the segments counted. */
  EDI_UNT_COUNT_MISMATCH: syntaxError,
  /** UNT 0062 differs from the UNH 0062 message reference number. */
  EDI_UNT_REFERENCE_MISMATCH: syntaxError,
  /** UNE 0060 (number of messages in the group) differs from the messages counted. */
  EDI_UNE_COUNT_MISMATCH: syntaxError,
  /** UNE 0048 differs from the UNG 0048 group reference number. */
  EDI_UNE_REFERENCE_MISMATCH: syntaxError,
  /** UNZ 0036 (number of messages, or of groups when groups are used) differs from what was counted. */
  EDI_UNZ_COUNT_MISMATCH: syntaxError,
  /** UNZ 0020 differs from the UNB 0020 interchange control reference. */
  EDI_UNZ_REFERENCE_MISMATCH: syntaxError,
  /** The input ends inside a segment (no segment terminator), or holds no segment at all. */
  EDI_UNEXPECTED_END_OF_FILE: syntaxError,
  /** Data that is not part of a segment (e.g. text before UNA/UNB, or control characters between segments). */
  EDI_UNEXPECTED_CHARACTER: syntaxError,
  /** A separator where the syntax forbids it (e.g. a component or repetition separator in a segment tag). */
  EDI_UNEXPECTED_SEPARATOR: syntaxError,
  /** A character outside the character repertoire of the declared syntax identifier (ISO 9735 part 1, clause 11 / annex). */
  EDI_INVALID_CHARACTER: syntaxError,
  /** The syntax identifier (UNB S001 0001) or syntax version (0002) is unknown or not supported. */
  EDI_UNSUPPORTED_SYNTAX: syntaxError,
  /** A release character not followed by a service character (ISO 9735 part 1, clause 9.3). */
  EDI_INVALID_RELEASE: syntaxWarning,
  /** A segment tag that is not 1 to 3 upper-case letters or digits (ISO 9735 part 1, clause 8.1). */
  EDI_INVALID_SEGMENT_TAG: syntaxError,
  /** The UNA service string advice is malformed (too short, or two service characters are equal). */
  EDI_INVALID_SERVICE_STRING: syntaxError,
  /** Messages without a UNB interchange header (bare messages): a warning, an error in strict mode. */
  EDI_MISSING_UNB: syntaxWarning,
  /** A functional group (UNG) is not closed by UNE before the next UNG, UNZ or the end of input. */
  EDI_MISSING_UNE: syntaxError,
  /** UNE without a preceding UNG. */
  EDI_MISSING_UNG: syntaxError,
  /** A package (UNO) is not closed by UNP (ISO 9735 part 8). */
  EDI_MISSING_UNP: syntaxError,
  /** Groups and messages directly in the interchange are mixed (ISO 9735 part 1, clause 7: either all in groups or none). */
  EDI_MIXED_GROUPS_AND_MESSAGES: syntaxError,
  /** Two messages of one group or interchange share the UNH 0062 message reference number. */
  EDI_DUPLICATE_MESSAGE_REFERENCE: syntaxError,
  /** Two groups of one interchange share the UNG 0048 group reference number. */
  EDI_DUPLICATE_GROUP_REFERENCE: syntaxError,
  /** A validation level failed on a message (a bug in that level, not bad input); params name the level. */
  EDI_INTERNAL_ERROR: syntaxError,
  /** A byte-order mark before the first segment: accepted with a warning, an error in strict mode. */
  EDI_BYTE_ORDER_MARK: syntaxWarning,
  /** Line breaks or indentation between segments: accepted with a warning (once per input), an error in strict mode. */
  EDI_WHITESPACE_BETWEEN_SEGMENTS: syntaxWarning,

  // --- Shared by the syntax level (service segments) and the specification level ---
  /** A mandatory data element is missing or empty. */
  EDI_MANDATORY_ELEMENT_MISSING: specError,
  /** A mandatory component of a composite data element is missing or empty. */
  EDI_MANDATORY_COMPONENT_MISSING: specError,
  /** More data elements than the segment defines. */
  EDI_TOO_MANY_ELEMENTS: specError,
  /** More components than the composite defines. */
  EDI_TOO_MANY_COMPONENTS: specError,
  /** A value does not match its representation (`a`, `n`, `an`, length, decimal mark). */
  EDI_INVALID_FORMAT: specError,
  /** More repetitions of a data element than allowed (syntax 4 repetition separator). */
  EDI_TOO_MANY_REPETITIONS: specError,

  // --- Specification (UN/EDIFACT directory of the message's version) ---
  /** No directory for the message's type, version, release or agency. */
  EDI_UNSUPPORTED_MESSAGE: specError,
  /** A segment tag that the directory does not define. */
  EDI_UNKNOWN_SEGMENT: specError,
  /**
   * A segment the directory defines, but not at this place of this message. The syntax level uses it too (with
   * level `syntax`) for a segment the envelope does not allow there, e.g. UNG inside a message.
   */
  EDI_UNEXPECTED_SEGMENT: specError,
  /** A mandatory segment or segment group is missing. */
  EDI_MANDATORY_SEGMENT_MISSING: specError,
  /** A segment or group occurs more often than allowed. */
  EDI_TOO_MANY_OCCURRENCES: specError,
  /** A value outside the code list (a warning at the specification level, an error at the map level). */
  EDI_INVALID_CODE: specWarning,
  /** A date/time value (C507 2380) that does not match its format qualifier (2379), e.g. 102 CCYYMMDD. */
  EDI_INVALID_DATE_TIME: specError,

  // --- Map (message implementation guide, e.g. EANCOM) ---
  /** A segment or group the guide marks as not used. */
  EDI_FORBIDDEN_SEGMENT: mapError,
  /** A segment or group occurs fewer times than the guide requires. */
  EDI_TOO_FEW_OCCURRENCES: mapError,
  /** A data element the guide marks as not used. */
  EDI_FORBIDDEN_ELEMENT: mapError,
  /** A component the guide marks as not used. */
  EDI_FORBIDDEN_COMPONENT: mapError,
  /** No segment with a qualifier the guide requires, e.g. no NAD with 3035 = SU (the supplier) in an EANCOM order. */
  EDI_REQUIRED_QUALIFIER_MISSING: mapError,
} as const satisfies Record<string, FindingCodeInfo>;

/** A stable finding code. */
export type FindingCode = keyof typeof FINDING_CODES;

/** Whether `code` is a code of the catalogue. */
export const isFindingCode = (code: string): code is FindingCode => Object.hasOwn(FINDING_CODES, code);
