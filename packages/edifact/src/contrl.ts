/**
 * CONTRL (syntax and service report message, UN/EDIFACT CONTRL D:3 for syntax version 3) built from findings:
 * what a partner's translator sends back. ISO 9735 part 1 annex B / UNSM CONTRL: UCI for the interchange,
 * UCF for groups, UCM for messages, UCS/UCD for the erroneous segments and data elements.
 */
import type { Finding, Group, Interchange, Message } from './model.ts';
import { serializeSegments } from './serializer.ts';
import { DEFAULT_DELIMITERS } from './tokenizer.ts';
import { messageReport, type ValidationResult } from './validate.ts';
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

/**
 * Builds a CONTRL interchange answering the validated input: one UCI per interchange (first interchange only when
 * the input held several), UCF per group, UCM per message, UCS/UCD for the errors, as EDIFACT text (UNOC, syntax 3).
 */
export const buildContrl = (result: ValidationResult, options: ContrlOptions = {}): string => {
  const interchange: Interchange | undefined = result.interchanges[0];
  const date = options.date ?? new Date();
  const yymmdd = pad(date.getUTCFullYear() % 100, 2) + pad(date.getUTCMonth() + 1, 2) + pad(date.getUTCDate(), 2);
  const hhmm = pad(date.getUTCHours(), 2) + pad(date.getUTCMinutes(), 2);
  const originalRef = interchange?.controlReference ?? '';
  const controlRef = options.controlReference ?? ('C' + originalRef).slice(0, 14);
  const messageRef = options.messageReference ?? '1';
  const sender = interchange?.recipient || 'RECIPIENT';
  const recipient = interchange?.sender || 'SENDER';

  const interchangeErrors: Finding[] = [];
  for (const f of result.findings)
    if (f.messageReference === undefined && f.severity === 'error') interchangeErrors.push(f);
  const findingsOf = messageFindingsOf(result, interchange);

  const body: Segment[] = [seg('UNH', el(messageRef), el('CONTRL', 'D', '3', 'UN'))];
  const uci = [el(originalRef), el(interchange?.sender ?? ''), el(interchange?.recipient ?? '')];
  const first = interchangeErrors[0];
  if (first) {
    uci.push(el(REJECTED), el(errorCode(first)), el(first.path.slice(0, 3)));
    const id = dataElementId(first);
    if (id) uci.push(id);
  } else {
    uci.push(el(ACCEPTED));
  }
  body.push(seg('UCI', ...uci));
  if (interchange) {
    for (const group of interchange.groups as Group[]) {
      const groupErrors = group.messages.some((m) => findingsOf(m).hasErrors);
      body.push(seg('UCF', el(group.reference), el(), el(), el(groupErrors ? REJECTED : ACCEPTED)));
      for (const m of group.messages) messageBlock(m, findingsOf(m), body);
    }
    for (const m of interchange.messages) messageBlock(m, findingsOf(m), body);
  }
  body.push(seg('UNT', el(String(body.length + 1)), el(messageRef)));

  const d = { ...DEFAULT_DELIMITERS };
  const segments: Segment[] = [
    seg('UNA', el(":+.? '")),
    seg('UNB', el('UNOC', '3'), el(sender), el(recipient), el(yymmdd, hhmm), el(controlRef)),
    ...body,
    seg('UNZ', el('1'), el(controlRef)),
  ];
  work.steps += segments.length;
  const text = serializeSegments(segments, d, { lineBreak: options.lineBreak ?? '' });
  return text;
};
