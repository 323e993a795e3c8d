/**
 * English texts of the finding codes, for the command line only. The library itself holds no display text
 * (`codes.ts`); the web app translates each finding from its code in `packages/i18n` (the same wording, in 11
 * languages), and this file gives the CLI the English of it without a dependency on that package.
 */
import { isFindingCode, type FindingCode } from './codes.ts';
import type { Finding } from './model.ts';

/** The values a text is built from, taken from a finding's path, expected and actual values and params. */
type Values = {
  segment: string;
  element: string;
  expected: string;
  actual: string;
  count: string;
  max: string;
  min: string;
  finding: Omit<Finding, 'code'>;
};

const SEGMENT_PART = /^([A-Z]{3})(\[\d+\])?$/;

/** `SG2[1]/NAD[1]/C082/3039` → segment `NAD`, element `C082/3039` (the last segment tag and what follows it). */
const splitPath = (path: string): { segment: string; element: string } => {
  const parts = path.split('/').filter(Boolean);
  for (let i = parts.length - 1; i >= 0; i--) {
    const match = SEGMENT_PART.exec(parts[i] ?? '');
    if (match) return { segment: match[1] ?? '', element: parts.slice(i + 1).join('/') };
  }
  return { segment: '', element: '' };
};

const str = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

const param = (v: Values, name: string): string => str(v.finding.params?.[name]);
const isMap = (v: Values): boolean => v.finding.level === 'map';
const isGroup = (v: Values): boolean => v.finding.params?.['group'] === 1 || v.expected.includes('(');
const endOf = (v: Values, what: string): string =>
  v.actual ? `${what} before segment ${v.actual}.` : `${what} before the end of the document.`;

/** One text per code; a few codes read differently by level or by a parameter (as the web app's variants). */
const TEXTS: Record<FindingCode, (v: Values) => string> = {
  EDI_MISSING_UNH: (v) => `Segment ${v.actual || v.segment} is outside a message: the UNH message header is missing.`,
  EDI_MISSING_UNT: (v) => endOf(v, 'The message is not closed by a UNT segment'),
  EDI_MISSING_UNZ: (v) => endOf(v, 'The interchange is not closed by a UNZ segment'),
  EDI_MISSING_UNE: (v) => endOf(v, 'The functional group is not closed by a UNE segment'),
  EDI_MISSING_UNG: () => 'Segment UNE has no functional group header UNG before it.',
  EDI_MISSING_UNB: (v) =>
    `The document starts with segment ${v.actual || v.segment} instead of the interchange header UNB.`,
  EDI_MISSING_UNP: () => 'The package started by UNO is not closed by a UNP segment.',
  EDI_UNT_COUNT_MISMATCH: (v) => `Segment UNT says ${v.actual} segments, the message has ${v.expected}.`,
  EDI_UNT_REFERENCE_MISMATCH: (v) =>
    `Segment UNT refers to message ${v.actual}, but the UNH message reference is ${v.expected}.`,
  EDI_UNE_COUNT_MISMATCH: (v) => `Segment UNE says ${v.actual} messages, the group has ${v.expected}.`,
  EDI_UNE_REFERENCE_MISMATCH: (v) =>
    `Segment UNE refers to group ${v.actual}, but the UNG group reference is ${v.expected}.`,
  EDI_UNZ_COUNT_MISMATCH: (v) => `Segment UNZ says ${v.actual} messages or groups, the interchange has ${v.expected}.`,
  EDI_UNZ_REFERENCE_MISMATCH: (v) =>
    `Segment UNZ refers to interchange ${v.actual}, but the UNB control reference is ${v.expected}.`,
  EDI_UNEXPECTED_END_OF_FILE: (v) =>
    v.expected === 'UNB'
      ? `The document holds no segment; it should start with ${v.expected}.`
      : v.expected && v.segment
        ? `The document ends inside segment ${v.segment}: the segment terminator ${v.expected} is missing.`
        : v.segment
          ? `The document ends unexpectedly inside segment ${v.segment}.`
          : 'The document ends unexpectedly.',
  EDI_UNEXPECTED_CHARACTER: (v) => `Unexpected text outside any segment: “${v.actual}”.`,
  EDI_UNEXPECTED_SEPARATOR: (v) =>
    v.segment
      ? `Unexpected separator “${v.actual}” in segment ${v.segment}.`
      : `An empty segment: the separator “${v.actual}” follows directly on the previous segment.`,
  EDI_INVALID_CHARACTER: (v) =>
    v.finding.params?.['encoding']
      ? `The value is not valid UTF-8, which the syntax identifier ${v.expected} requires.`
      : `The character “${v.actual}” is not allowed by the syntax identifier ${v.expected}.`,
  EDI_UNSUPPORTED_SYNTAX: (v) =>
    v.element.endsWith('0002')
      ? `The syntax version ${v.actual} is not supported (expected ${v.expected}).`
      : `The syntax identifier ${v.actual} is not supported.`,
  EDI_INVALID_RELEASE: (v) =>
    `The release character in “${v.actual}” is not followed by a separator or another release character.`,
  EDI_INVALID_SEGMENT_TAG: (v) => `“${v.actual}” is not a valid segment tag: a tag has three letters or digits.`,
  EDI_INVALID_SERVICE_STRING: (v) => `The service string advice “${v.actual}” is malformed.`,
  EDI_MIXED_GROUPS_AND_MESSAGES: () => 'The interchange mixes functional groups with messages outside groups.',
  EDI_DUPLICATE_MESSAGE_REFERENCE: (v) => `The message reference ${v.actual} is already used by another message.`,
  EDI_DUPLICATE_GROUP_REFERENCE: (v) => `The group reference ${v.actual} is already used by another group.`,
  EDI_INTERNAL_ERROR: (v) => `The ${param(v, 'plugin')} check could not finish on this message: ${param(v, 'error')}`,
  EDI_BYTE_ORDER_MARK: () => 'The document starts with a byte-order mark.',
  EDI_WHITESPACE_BETWEEN_SEGMENTS: () => 'There are line breaks or spaces between segments.',
  EDI_MANDATORY_ELEMENT_MISSING: (v) =>
    isMap(v)
      ? `The guide requires data element ${v.element} of segment ${v.segment} (status ${param(v, 'status')}), but it is empty.`
      : `The mandatory data element ${v.element} of segment ${v.segment} is missing.`,
  EDI_MANDATORY_COMPONENT_MISSING: (v) =>
    isMap(v)
      ? `The guide requires component ${v.element} of segment ${v.segment} (status ${param(v, 'status')}), but it is empty.`
      : `The mandatory component ${v.element} of segment ${v.segment} is missing.`,
  EDI_TOO_MANY_ELEMENTS: (v) => `Segment ${v.segment} has ${v.count} data elements, at most ${v.max} are defined.`,
  EDI_TOO_MANY_COMPONENTS: (v) =>
    `Data element ${v.element} of segment ${v.segment} has ${v.count} components, at most ${v.max} are defined.`,
  EDI_TOO_MANY_REPETITIONS: (v) =>
    `Data element ${v.element} of segment ${v.segment} is repeated ${v.count} times, at most ${v.max} are allowed.`,
  EDI_INVALID_FORMAT: (v) => {
    const problem = v.finding.params?.['problem'];
    const start = `The value “${v.actual}” of ${v.element}`;
    if (problem === 'too-long') return `${start} is too long for the format ${v.expected}.`;
    if (problem === 'too-short') return `${start} is too short for the format ${v.expected}.`;
    if (problem === 'not-numeric') return `${start} is not numeric, the format is ${v.expected}.`;
    if (problem === 'not-alphabetic') return `${start} contains digits, the format ${v.expected} allows letters only.`;
    return `${start} does not match the format ${v.expected}.`;
  },
  EDI_INVALID_DATE_TIME: (v) =>
    `The date or time “${v.actual}” of ${v.element} does not match its format ${v.expected}${
      v.finding.params?.['problem'] === 'calendar' ? ': it is not a real date or time' : ''
    }.`,
  EDI_UNSUPPORTED_MESSAGE: (v) => {
    const type = param(v, 'type');
    if (!type) return `The message type, version or agency ${v.actual} is not supported.`;
    const directory = `${param(v, 'version')}${param(v, 'release')}`;
    return v.finding.params?.['reason'] === 'type'
      ? `Directory ${directory} does not define the message type ${type}.`
      : `No directory ${directory} (${param(v, 'agency')}) is available to check message ${type}.`;
  },
  EDI_UNKNOWN_SEGMENT: (v) => `Segment ${v.actual} is not defined in the directory.`,
  EDI_UNEXPECTED_SEGMENT: (v) =>
    v.finding.level === 'syntax' && v.expected
      ? `Segment ${v.actual || v.segment} has no ${v.expected} segment before it.`
      : `Segment ${v.actual || v.segment} is not expected at this place in the message.`,
  EDI_MANDATORY_SEGMENT_MISSING: (v) => {
    const what = `${isGroup(v) ? 'segment group' : 'segment'} ${v.expected || v.segment}`;
    return isMap(v) ? `The guide requires ${what}, but it is missing.` : `The mandatory ${what} is missing.`;
  },
  EDI_TOO_MANY_OCCURRENCES: (v) =>
    `${v.segment} occurs ${v.count} times, the ${isMap(v) ? 'guide' : 'directory'} allows at most ${v.max}.`,
  EDI_INVALID_CODE: (v) =>
    isMap(v)
      ? `The value “${v.actual}” of ${v.element} is not allowed by the guide; allowed: ${v.expected}.`
      : `The value “${v.actual}” of ${v.element} is not in the code list of the directory.`,
  EDI_REQUIRED_QUALIFIER_MISSING: (v) => `The guide requires a segment ${v.expected}, but the message has none.`,
  EDI_FORBIDDEN_SEGMENT: (v) => `Segment ${v.actual || v.segment} is marked as not used in the guide.`,
  EDI_TOO_FEW_OCCURRENCES: (v) => `${v.segment} occurs ${v.count} times, the guide requires at least ${v.min}.`,
  EDI_FORBIDDEN_ELEMENT: (v) =>
    `Data element ${v.element} of segment ${v.segment} is marked as not used in the guide, but holds “${v.actual}”.`,
  EDI_FORBIDDEN_COMPONENT: (v) =>
    `Component ${v.element} of segment ${v.segment} is marked as not used in the guide, but holds “${v.actual}”.`,
};

/** The English text of every finding code (a test checks that none is missing). */
export const FINDING_TEXTS_EN: Readonly<Record<FindingCode, (v: Values) => string>> = TEXTS;

/**
 * The English text of a finding, e.g. “The value “380” of C002/1001 is not allowed by the guide; allowed: 220.”.
 * A code this catalogue does not know (a plugin written in JavaScript, a finding read back from JSON of another
 * version) gets its code and path, so the parameter takes any code.
 */
export const describeFindingEn = (finding: Omit<Finding, 'code'> & { code: string }): string => {
  const params = finding.params ?? {};
  const { segment: pathSegment, element: pathElement } = splitPath(finding.path);
  const paramElement = params['element'];
  const element = typeof paramElement === 'string' && !pathElement ? paramElement : pathElement || str(paramElement);
  const segment = typeof params['segment'] === 'string' ? params['segment'] : pathSegment;
  const values: Values = {
    segment,
    element,
    expected: finding.expected ?? '',
    actual: finding.actual ?? '',
    max: str(params['max'] ?? finding.expected),
    min: str(params['min']),
    count: str(params['count'] ?? finding.actual),
    finding,
  };
  const text = isFindingCode(finding.code) ? TEXTS[finding.code] : undefined;
  return text ? text(values) : `${finding.code} at ${finding.path}`;
};
