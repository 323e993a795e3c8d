/**
 * CONTRL (syntax and service report message, UN/EDIFACT CONTRL D:3 for syntax version 3) built from findings:
 * what a partner's translator sends back. ISO 9735 part 1 annex B / UNSM CONTRL: UCI for the interchange,
 * UCF for groups, UCM for messages, UCS/UCD for the erroneous segments and data elements.
 */
import type { Finding, Group, Interchange, Message } from './model.ts';
import { serializeSegments } from './serializer.ts';
import { DEFAULT_DELIMITERS } from './tokenizer.ts';
import { messageReport, type ValidationEvent, type ValidationResult } from './validate.ts';
import type { Element, Segment } from './model.ts';
import { work } from './work.ts';

/** Options of `buildContrl`. */
export type ContrlOptions = {
  /** Interchange control reference of the CONTRL interchange (default: `C` + the original reference). */
  controlReference?: string;
  /** Message reference of the CONTRL message (default `1`). */
  messageReference?: string;
  /** Preparation date and time (default: now), as YYMMDD and HHMM. */
  date?: Date;
  /** Line break after each segment (default none). */
  lineBreak?: string;
};

/** Syntax error codes (data element 0085) for the finding codes. */
const ERROR_CODE: Record<string, string> = {
  EDI_UNSUPPORTED_SYNTAX: '2',
  EDI_INVALID_FORMAT: '12',
  EDI_INVALID_CODE: '12',
  EDI_INVALID_DATE_TIME: '12',
  EDI_MANDATORY_ELEMENT_MISSING: '13',
  EDI_MANDATORY_COMPONENT_MISSING: '13',
  EDI_MANDATORY_SEGMENT_MISSING: '13',
  EDI_REQUIRED_QUALIFIER_MISSING: '13',
  EDI_MISSING_UNH: '13',
  EDI_MISSING_UNT: '13',
  EDI_MISSING_UNZ: '13',
  EDI_MISSING_UNE: '13',
  EDI_MISSING_UNG: '13',
  EDI_MISSING_UNB: '13',
  EDI_UNEXPECTED_SEGMENT: '14',
  EDI_FORBIDDEN_SEGMENT: '15',
  EDI_FORBIDDEN_ELEMENT: '15',
  EDI_FORBIDDEN_COMPONENT: '15',
  EDI_UNKNOWN_SEGMENT: '15',
  EDI_TOO_MANY_ELEMENTS: '16',
  EDI_TOO_MANY_COMPONENTS: '16',
  EDI_UNEXPECTED_SEPARATOR: '22',
  EDI_INVALID_RELEASE: '22',
  EDI_INVALID_SERVICE_STRING: '22',
  EDI_INVALID_CHARACTER: '21',
  EDI_UNEXPECTED_CHARACTER: '21',
  EDI_DUPLICATE_MESSAGE_REFERENCE: '26',
  EDI_DUPLICATE_GROUP_REFERENCE: '26',
  EDI_UNT_REFERENCE_MISMATCH: '28',
  EDI_UNE_REFERENCE_MISMATCH: '28',
  EDI_UNZ_REFERENCE_MISMATCH: '28',
  EDI_UNT_COUNT_MISMATCH: '29',
  EDI_UNE_COUNT_MISMATCH: '29',
  EDI_UNZ_COUNT_MISMATCH: '29',
  EDI_TOO_MANY_OCCURRENCES: '35',
  EDI_TOO_MANY_REPETITIONS: '35',
  EDI_UNSUPPORTED_MESSAGE: '14',
};

const errorCode = (f: Finding): string => ERROR_CODE[f.code] ?? '18';

// 0083 action codes: 4 rejected, 7 acknowledged.
const REJECTED = '4';
const ACCEPTED = '7';

const el = (...components: string[]): Element => ({ components });

const seg = (tag: string, ...elements: Element[]): Segment => ({
  tag,
  elements,
  position: { line: 0, column: 0, offset: 0 },
  length: 0,
  index: 0,
});

type MessageReport = { findings: Finding[]; hasErrors: boolean };

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Within [start, end] of the message's segments, the 1-based position of the segment holding `offset`. */
const segmentPosition = (message: Message, offset: number): number => {
  const segments = message.segments;
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const s = segments[mid] as Segment;
    if (s.position.offset <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
};

const dataElementId = (f: Finding): Element | undefined => {
  const element = f.params?.element;
  if (typeof element !== 'number') return undefined;
  const component = f.params?.component;
  return typeof component === 'number' ? el(String(element), String(component)) : el(String(element));
};

/** The UCM of a message, and UCS/UCD for its listed errors; `hasErrors`: it has errors, listed or not. */
const messageBlock = (message: Message, report: MessageReport, out: Segment[]): void => {
  const errors = report.findings.filter((f) => f.severity === 'error');
  const s009 = el(message.type, message.version, message.release, message.agency);
  const envelope = errors.find((f) => f.path.startsWith('UNH[') || f.path.startsWith('UNT['));
  if (errors.length === 0 && !report.hasErrors) {
    out.push(seg('UCM', el(message.reference), s009, el(ACCEPTED)));
    return;
  }
  const ucm = [el(message.reference), s009, el(REJECTED)];
  if (envelope) {
    ucm.push(el(errorCode(envelope)), el(envelope.path.slice(0, 3)));
    const id = dataElementId(envelope);
    if (id) ucm.push(id);
  }
  out.push(seg('UCM', ...ucm));
  // Segment-level errors (UCS), each with the data element in error (UCD) when known; at most 999 (CONTRL SG2).
  for (const f of errors.filter((x) => x !== envelope).slice(0, 999)) {
    out.push(seg('UCS', el(String(segmentPosition(message, f.offset))), el(errorCode(f))));
    const id = dataElementId(f);
    if (id) out.push(seg('UCD', el(errorCode(f)), id));
  }
};

/**
 * The listed findings of each message. From `validate`'s own record when the result is its own; otherwise (a result
 * copied or built by hand) each finding goes to the message of its reference that starts last at or before it, so
 * that messages sharing a reference (an error in itself) do not each get the findings of all the others.
 */
const messageFindingsOf = (
  result: ValidationResult,
  interchange: Interchange | undefined,
): ((message: Message) => MessageReport) => {
  const first = interchange?.messages[0] ?? interchange?.groups[0]?.messages[0];
  if (first === undefined || messageReport(result, first) !== undefined) {
    return (message) => messageReport(result, message) ?? { findings: [], hasErrors: false };
  }
  const byReference = new Map<string, Message[]>();
  const all = [...interchange!.groups.flatMap((g) => g.messages), ...interchange!.messages];
  all.sort((a, b) => a.header.position.offset - b.header.position.offset);
  for (const m of all) {
    const list = byReference.get(m.reference);
    if (list) list.push(m);
    else byReference.set(m.reference, [m]);
  }
  const byMessage = new Map<Message, Finding[]>();
  for (const f of result.findings) {
    const candidates = f.messageReference === undefined ? undefined : byReference.get(f.messageReference);
    if (candidates === undefined) continue;
    // The last candidate starting at or before the finding (binary search: many messages may share a reference).
    let lo = 0;
    let hi = candidates.length - 1;
    while (lo < hi) {
      work.steps++;
      const mid = (lo + hi + 1) >> 1;
      if ((candidates[mid] as Message).header.position.offset <= f.offset) lo = mid;
      else hi = mid - 1;
    }
    const owner = candidates[lo] as Message;
    const list = byMessage.get(owner);
    if (list) list.push(f);
    else byMessage.set(owner, [f]);
  }
  return (message) => {
    const findings = byMessage.get(message) ?? [];
    return { findings, hasErrors: findings.some((f) => f.severity === 'error') };
  };
};

/** The CONTRL of an input, put together message by message: what `buildContrl` and `buildContrlStream` share. */
type ContrlParts = {
  /** The first interchange (its UCI; the report answers it alone). */
  interchange: Interchange | undefined;
  /** Errors outside messages, of any interchange: the first rejects the interchange in its UCI. */
  interchangeErrors: Finding[];
  /** Each group of the first interchange, in order, with the blocks of its messages and whether any has errors. */
  groups: { reference: string; errors: boolean; blocks: string }[];
  /** The blocks of the messages directly in the first interchange. */
  direct: string;
  /** Segments in the blocks so far (UNT counts them). */
  count: number;
};

const d = DEFAULT_DELIMITERS;

/** A message's UCM (and UCS/UCD) as text, counted into `parts`. */
const blockText = (parts: ContrlParts, message: Message, report: MessageReport, lineBreak: string): string => {
  const segments: Segment[] = [];
  messageBlock(message, report, segments);
  parts.count += segments.length;
  work.steps += segments.length;
  return serializeSegments(segments, d, { lineBreak });
};

/** The CONTRL interchange of its parts: UNA, UNB, UNH, UCI, each group's UCF and blocks, the direct blocks, UNT, UNZ. */
const contrlText = (parts: ContrlParts, options: ContrlOptions): string => {
  const { interchange, interchangeErrors } = parts;
  const lineBreak = options.lineBreak ?? '';
  const date = options.date ?? new Date();
  const yymmdd = pad(date.getUTCFullYear() % 100, 2) + pad(date.getUTCMonth() + 1, 2) + pad(date.getUTCDate(), 2);
  const hhmm = pad(date.getUTCHours(), 2) + pad(date.getUTCMinutes(), 2);
  const originalRef = interchange?.controlReference ?? '';
  const controlRef = options.controlReference ?? ('C' + originalRef).slice(0, 14);
  const messageRef = options.messageReference ?? '1';
  const sender = interchange?.recipient || 'RECIPIENT';
  const recipient = interchange?.sender || 'SENDER';

  const uci = [el(originalRef), el(interchange?.sender ?? ''), el(interchange?.recipient ?? '')];
  const first = interchangeErrors[0];
  if (first) {
    uci.push(el(REJECTED), el(errorCode(first)), el(first.path.slice(0, 3)));
    const id = dataElementId(first);
    if (id) uci.push(id);
  } else {
    uci.push(el(ACCEPTED));
  }
  const text = (segments: Segment[]) => serializeSegments(segments, d, { lineBreak });
  const out = [
    text([
      seg('UNA', el(":+.? '")),
      seg('UNB', el('UNOC', '3'), el(sender), el(recipient), el(yymmdd, hhmm), el(controlRef)),
      seg('UNH', el(messageRef), el('CONTRL', 'D', '3', 'UN')),
      seg('UCI', ...uci),
    ]),
  ];
  // UNH and UCI, then one UCF a group.
  let count = 2 + parts.count;
  for (const g of parts.groups) {
    out.push(text([seg('UCF', el(g.reference), el(), el(), el(g.errors ? REJECTED : ACCEPTED))]), g.blocks);
    count++;
  }
  out.push(parts.direct);
  out.push(text([seg('UNT', el(String(count + 1)), el(messageRef)), seg('UNZ', el('1'), el(controlRef))]));
  work.steps += 5 + parts.groups.length;
  return out.join('');
};

const newParts = (interchange: Interchange | undefined): ContrlParts => ({
  interchange,
  interchangeErrors: [],
  groups: [],
  direct: '',
  count: 0,
});

/**
 * Builds a CONTRL interchange answering the validated input: one UCI per interchange (first interchange only when
 * the input held several), UCF per group, UCM per message, UCS/UCD for the errors, as EDIFACT text (UNOC, syntax 3).
 */
export const buildContrl = (result: ValidationResult, options: ContrlOptions = {}): string => {
  const interchange: Interchange | undefined = result.interchanges[0];
  const parts = newParts(interchange);
  const lineBreak = options.lineBreak ?? '';
  for (const f of result.findings)
    if (f.messageReference === undefined && f.severity === 'error') parts.interchangeErrors.push(f);
  const findingsOf = messageFindingsOf(result, interchange);
  if (interchange) {
    for (const group of interchange.groups as Group[]) {
      const reports = group.messages.map((m) => [m, findingsOf(m)] as const);
      parts.groups.push({
        reference: group.reference,
        errors: reports.some(([, r]) => r.hasErrors),
        blocks: reports.map(([m, r]) => blockText(parts, m, r, lineBreak)).join(''),
      });
    }
    parts.direct = interchange.messages.map((m) => blockText(parts, m, findingsOf(m), lineBreak)).join('');
  }
  return contrlText(parts, options);
};

/**
 * `buildContrl` of a validation read as a stream (`validateStream`'s events): the same CONTRL, while memory holds the
 * report's text and one message at a time, not the input's messages (a whole interchange validated at once holds
 * every segment of it). A message belongs to the group whose UNG precedes it and whose UNE, if any, follows it.
 */
export const buildContrlStream = async (
  events: AsyncIterable<ValidationEvent> | Iterable<ValidationEvent>,
  options: ContrlOptions = {},
): Promise<string> => {
  const lineBreak = options.lineBreak ?? '';
  let parts: ContrlParts | undefined;
  const globalErrors: Finding[] = [];
  // The group the messages reached so far are in: the interchange's groups list grows as the parser reads on.
  let groupIndex = -1;
  const groupOf = (interchange: Interchange, offset: number): Group | undefined => {
    const groups = interchange.groups;
    while (groupIndex + 1 < groups.length && (groups[groupIndex + 1] as Group).header.position.offset < offset) {
      groupIndex++;
    }
    const group = groups[groupIndex];
    if (!group) return undefined;
    return group.trailer === undefined || group.trailer.position.offset > offset ? group : undefined;
  };
  const groupParts = new Map<Group, ContrlParts['groups'][number]>();
  const partsFor = (interchange: Interchange): ContrlParts | undefined => {
    parts ??= newParts(interchange);
    return parts.interchange === interchange ? parts : undefined;
  };
  for await (const event of events) {
    if (event.type === 'finding') {
      if (event.finding.messageReference === undefined && event.finding.severity === 'error') {
        globalErrors.push(event.finding);
      }
      continue;
    }
    const own = partsFor(event.interchange);
    if (event.type !== 'message' || own === undefined) continue;
    const { message, findings, summary } = event;
    const report = { findings, hasErrors: summary.status === 'error' };
    const text = blockText(own, message, report, lineBreak);
    const group = groupOf(event.interchange, message.header.position.offset);
    if (group === undefined) {
      own.direct += text;
      continue;
    }
    let g = groupParts.get(group);
    if (g === undefined) {
      g = { reference: group.reference, errors: false, blocks: '' };
      groupParts.set(group, g);
    }
    g.blocks += text;
    g.errors ||= report.hasErrors;
  }
  const result = parts ?? newParts(undefined);
  // Every group gets its UCF, in the interchange's order (one without messages too).
  if (result.interchange) {
    result.groups = result.interchange.groups.map(
      (group) => groupParts.get(group) ?? { reference: group.reference, errors: false, blocks: '' },
    );
  }
  result.interchangeErrors = globalErrors;
  return contrlText(result, options);
};
