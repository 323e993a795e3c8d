/**
 * The EDIFACT work of the documents, on the CPU pool's threads (src/cpu): reading an upload's envelope (its UNB, for
 * the duplicate check and the sender check before anything is stored), and reading a whole interchange: each message
 * validated (syntax, directory, EANCOM guide) and mapped to the canonical body (decision 0018).
 */
import { createHash } from 'node:crypto';
import {
  buildContrlStream,
  tokenize,
  validateStream,
  type Finding,
  type Segment,
  type StreamResume,
} from '@portal/edifact';
import { mapEdifactMessage, type CanonicalDocument, type DocumentSummary } from '@portal/documents';
import { DOCUMENT_MAX_FINDINGS, type DocumentFinding } from '@portal/contracts';
import { levelsFor, type StoreRef } from '../edifact/edifact.tasks.ts';
import { createSplitter } from './documents.split.ts';

/** The envelope is read from the start of the file only: a UNA and a UNB fit well within this. */
export const ENVELOPE_BYTES = 4096;

export type Envelope = {
  senderId: string;
  senderQualifier: string | null;
  recipientId: string;
  recipientQualifier: string | null;
  controlReference: string;
  /** UNB S001, e.g. `UNOC:3`. */
  syntax: string;
};

export type EnvelopeTask = { bytes: Uint8Array };
/** `envelope`: the first UNB (null when the file does not start with an interchange); `envelopes`: every UNB. */
export type EnvelopeResult = { sha256: string; envelope: Envelope | null; envelopes: Envelope[] };

/** Interchanges of one file checked for duplicates, at most (past this a file's further UNBs are not claimed). */
export const MAX_ENVELOPES = 1000;

const component = (segment: Segment, element: number, index: number): string =>
  segment.elements[element]?.components[index] ?? '';

/** The envelope of a UNB segment (null when it lacks the sender, recipient or control reference). */
export function envelopeOf(unb: Segment | undefined): Envelope | null {
  if (!unb || unb.tag !== 'UNB') return null;
  const senderId = component(unb, 1, 0);
  const recipientId = component(unb, 2, 0);
  const controlReference = component(unb, 4, 0);
  if (!senderId || !recipientId || !controlReference) return null;
  const syntax = unb.elements[0]?.components.filter(Boolean).join(':') ?? '';
  return {
    senderId,
    senderQualifier: component(unb, 1, 1) || null,
    recipientId,
    recipientQualifier: component(unb, 2, 1) || null,
    controlReference,
    syntax,
  };
}

/** The envelope of an interchange's header bytes (its UNA and UNB, as the split finds them). */
export const envelopeOfHeader = (header: Uint8Array): Envelope | null =>
  envelopeOf(tokenize(header).segments.find((s) => s.tag === 'UNB'));

/** Every interchange's envelope of a file in memory (at most MAX_ENVELOPES), found as the ingest's split finds them. */
export function envelopesOf(bytes: Uint8Array): Envelope[] {
  const envelopes: Envelope[] = [];
  const splitter = createSplitter({
    batchMessages: Infinity,
    batchBytes: Infinity,
    scanOnly: true,
    onHeader: (header) => {
      const envelope = envelopes.length < MAX_ENVELOPES ? envelopeOfHeader(header) : null;
      if (envelope) envelopes.push(envelope);
    },
  });
  // In slices, so that the split's window stays small.
  for (let at = 0; at < bytes.length; at += 1 << 20) splitter.push(bytes.subarray(at, at + (1 << 20)));
  splitter.end();
  return envelopes;
}

/** The file's hash, its first UNB, and every UNB (the duplicate check). */
export async function envelopeTask(task: EnvelopeTask): Promise<EnvelopeResult> {
  const sha256 = createHash('sha256').update(task.bytes).digest('hex');
  const { segments } = tokenize(task.bytes.subarray(0, ENVELOPE_BYTES));
  const first = segments.find((s) => s.tag !== 'UNA');
  const envelope = envelopeOf(first);
  if (!envelope) return { sha256, envelope: null, envelopes: [] };
  const envelopes = envelopesOf(task.bytes);
  return { sha256, envelope, envelopes: envelopes.length ? envelopes : [envelope] };
}

/**
 * One piece of an interchange file (documents.split.ts): its bytes and, for a piece after the first, where it resumes
 * (the open interchange's header, offset, line, messages before it). `starts` names the piece's messages: the one whose
 * UNH is at `starts[i]` is message `firstIndex + i` of the file, whatever the parser makes of the bytes around it.
 */
export type IngestTask = StoreRef & {
  bytes: Uint8Array;
  resume?: StreamResume | undefined;
  firstIndex?: number;
  starts?: number[] | undefined;
};
export type IngestedMessage = {
  /** The message's place in the file, from 0. */
  index: number;
  reference: string;
  type: string;
  /** The interchange's recipient (UNB), the first choice for routing. */
  unbRecipient: string;
  unbSender: string;
  /** The interchange's control reference (UNB 0020): with the sender, what names it for duplicates. */
  unbReference: string;
  status: 'valid' | 'warning' | 'error';
  findings: DocumentFinding[];
  /** UNH to UNT, terminator included, in the file's bytes. */
  offset: number;
  length: number;
  body: CanonicalDocument;
  summary: DocumentSummary;
};

/**
 * `mismatch`: the parser found a message where the split found none (a piece cut where it should not have been):
 * the caller reads the file again in one piece.
 */
export type IngestResult = { messages: IngestedMessage[]; findings: DocumentFinding[]; mismatch?: boolean };

/** A finding as stored: the engine's fields that say what and where (no field names from a directory). */
export function toDocumentFinding(f: Finding): DocumentFinding {
  return {
    code: f.code,
    severity: f.severity,
    level: f.level,
    path: f.path,
    line: f.line,
    column: f.column,
    ...(f.messageReference !== undefined ? { messageReference: f.messageReference } : {}),
    ...(f.documentNumber !== undefined ? { documentNumber: f.documentNumber } : {}),
    ...(f.expected !== undefined ? { expected: f.expected } : {}),
    ...(f.actual !== undefined ? { actual: f.actual } : {}),
    ...(f.params !== undefined ? { params: f.params } : {}),
  };
}

/** Every message of the piece (or the whole file), validated and mapped, with the findings outside messages. */
export async function ingestTask(task: IngestTask): Promise<IngestResult> {
  const levels = await levelsFor(task);
  const messages: IngestedMessage[] = [];
  const findings: DocumentFinding[] = [];
  const first = task.firstIndex ?? 0;
  const byStart = task.starts ? new Map(task.starts.map((offset, i) => [offset, first + i])) : undefined;
  for await (const event of validateStream([task.bytes], { levels }, task.resume)) {
    if (event.type === 'finding') {
      if (findings.length < DOCUMENT_MAX_FINDINGS) findings.push(toDocumentFinding(event.finding));
      continue;
    }
    if (event.type !== 'message') continue;
    const { message, interchange } = event;
    const start = message.header.position.offset;
    const index = byStart ? byStart.get(start) : first + messages.length;
    if (index === undefined) return { messages: [], findings: [], mismatch: true };
    const mapped = mapEdifactMessage(message, { interchange });
    const last = message.trailer ?? message.segments.at(-1) ?? message.header;
    messages.push({
      index,
      reference: message.reference,
      type: message.type,
      unbRecipient: interchange.recipient ?? '',
      unbSender: interchange.sender ?? '',
      unbReference: interchange.controlReference ?? '',
      status: event.summary.status,
      findings: event.findings.slice(0, DOCUMENT_MAX_FINDINGS).map(toDocumentFinding),
      offset: start,
      length: last.position.offset + last.length - start,
      body: mapped.document,
      summary: mapped.summary,
    });
  }
  if (byStart && messages.length !== byStart.size) return { messages: [], findings: [], mismatch: true };
  return { messages, findings };
}

/** The CONTRL answering a received interchange (decision 0035): the file validated as the ingest does, then reported. */
export type ContrlAnswerTask = StoreRef & { bytes: Uint8Array; controlReference: string; date: string };

export async function contrlAnswerTask(task: ContrlAnswerTask): Promise<string> {
  // Read as a stream: a 20 MB interchange validated whole would hold each of its segments at once.
  const events = validateStream([task.bytes], { levels: await levelsFor(task) });
  return buildContrlStream(events, {
    controlReference: task.controlReference,
    date: new Date(task.date),
    lineBreak: '\n',
  });
}
