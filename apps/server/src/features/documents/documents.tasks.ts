/**
 * The EDIFACT work of the documents, on the CPU pool's threads (src/cpu): reading an upload's envelope (its UNB, for
 * the duplicate check and the sender check before anything is stored), and reading a whole interchange: each message
 * validated (syntax, directory, EANCOM guide) and mapped to the canonical body (decision 0018).
 */
import { createHash } from 'node:crypto';
import { tokenize, validateStream, type Finding, type Segment } from '@portal/edifact';
import { mapEdifactMessage, type CanonicalDocument, type DocumentSummary } from '@portal/documents';
import { DOCUMENT_MAX_FINDINGS, type DocumentFinding } from '@portal/contracts';
import { levelsFor, type StoreRef } from '../edifact/edifact.tasks.ts';

/** The envelope is read from the start of the file only: a UNA and a UNB fit well within this. */
const ENVELOPE_BYTES = 4096;

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
export type EnvelopeResult = { sha256: string; envelope: Envelope | null };

const component = (segment: Segment, element: number, index: number): string =>
  segment.elements[element]?.components[index] ?? '';

/** The file's hash and its UNB (null when the file does not start with an interchange). */
export async function envelopeTask(task: EnvelopeTask): Promise<EnvelopeResult> {
  const sha256 = createHash('sha256').update(task.bytes).digest('hex');
  const { segments } = tokenize(task.bytes.subarray(0, ENVELOPE_BYTES));
  const unb = segments.find((s) => s.tag !== 'UNA');
  if (!unb || unb.tag !== 'UNB') return { sha256, envelope: null };
  const senderId = component(unb, 1, 0);
  const recipientId = component(unb, 2, 0);
  const controlReference = component(unb, 4, 0);
  if (!senderId || !recipientId || !controlReference) return { sha256, envelope: null };
  const syntax = unb.elements[0]?.components.filter(Boolean).join(':') ?? '';
  return {
    sha256,
    envelope: {
      senderId,
      senderQualifier: component(unb, 1, 1) || null,
      recipientId,
      recipientQualifier: component(unb, 2, 1) || null,
      controlReference,
      syntax,
    },
  };
}

export type IngestTask = StoreRef & { bytes: Uint8Array };

export type IngestedMessage = {
  /** The message's place in the file, from 0. */
  index: number;
  reference: string;
  type: string;
  /** The interchange's recipient (UNB), the first choice for routing. */
  unbRecipient: string;
  unbSender: string;
  status: 'valid' | 'warning' | 'error';
  findings: DocumentFinding[];
  /** UNH to UNT, terminator included, in the file's bytes. */
  offset: number;
  length: number;
  body: CanonicalDocument;
  summary: DocumentSummary;
};

export type IngestResult = { messages: IngestedMessage[]; findings: DocumentFinding[] };

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

/** Every message of the file, validated and mapped, with the findings outside messages. */
export async function ingestTask(task: IngestTask): Promise<IngestResult> {
  const levels = await levelsFor(task);
  const messages: IngestedMessage[] = [];
  const findings: DocumentFinding[] = [];
  for await (const event of validateStream([task.bytes], { levels })) {
    if (event.type === 'finding') {
      if (findings.length < DOCUMENT_MAX_FINDINGS) findings.push(toDocumentFinding(event.finding));
      continue;
    }
    if (event.type !== 'message') continue;
    const { message, interchange } = event;
    const mapped = mapEdifactMessage(message, { interchange });
    const start = message.header.position.offset;
    const last = message.trailer ?? message.segments.at(-1) ?? message.header;
    messages.push({
      index: messages.length,
      reference: message.reference,
      type: message.type,
      unbRecipient: interchange.recipient ?? '',
      unbSender: interchange.sender ?? '',
      status: event.summary.status,
      findings: event.findings.slice(0, DOCUMENT_MAX_FINDINGS).map(toDocumentFinding),
      offset: start,
      length: last.position.offset + last.length - start,
      body: mapped.document,
      summary: mapped.summary,
    });
  }
  return { messages, findings };
}
