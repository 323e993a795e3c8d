/**
 * UN/EDIFACT to the canonical document: a parsed message (from `@portal/edifact`'s `parse`, `validate` or their
 * streams) to its body, its list summary and the notes of what was skipped.
 */
import type { Interchange, Message, Segment } from '@portal/edifact';
import type { CanonicalDocument, DocumentSummary } from '../canonical.ts';
import { MAX_MAPPING_NOTES, type MappingNote } from '../notes.ts';
import { summarizeDocument } from '../summary.ts';
import { mapMessageBody } from './map-message.ts';
import { value, type Notes } from './segments.ts';

export type MappedDocument = {
  document: CanonicalDocument;
  summary: DocumentSummary;
  /** What was skipped, in message order: the first {@link MAX_MAPPING_NOTES}. */
  notes: MappingNote[];
  /** Notes past that cap, counted. */
  omittedNotes: number;
};

export type EdifactContext = {
  /** The interchange the message came in: its UNB carries the test indicator. */
  interchange?: Pick<Interchange, 'header'>;
};

/** UNB 0035 (the eleventh element): 1 when the interchange is a test. */
const isTest = (header: Segment | undefined): boolean => header !== undefined && value(header, 10) === '1';

/** Maps one message. Never throws on its content: what does not fit is skipped and noted. */
export const mapEdifactMessage = (message: Message, context: EdifactContext = {}): MappedDocument => {
  const notes: MappingNote[] = [];
  let omittedNotes = 0;
  const sink: Notes = {
    add(code, segment, v) {
      if (notes.length >= MAX_MAPPING_NOTES) {
        omittedNotes++;
        return;
      }
      const note: MappingNote = {
        code,
        tag: segment.tag,
        line: segment.position.line,
        column: segment.position.column,
      };
      if (v !== undefined) note.value = v;
      notes.push(note);
    },
  };
  const document = mapMessageBody(message, sink);
  const summary = summarizeDocument(document, {
    standard: 'edifact',
    messageType: message.type,
    version: message.directory,
    associationCode: message.association || undefined,
    test: isTest(context.interchange?.header),
  });
  // A message without BGM (CONTRL) is known by its message reference.
  if (summary.number === undefined && message.documentNumber) summary.number = message.documentNumber;
  return { document, summary, notes, omittedNotes };
};

/** Maps every message of the interchanges (in functional groups or not), in order. */
export const mapEdifactInterchanges = (interchanges: Interchange[]): MappedDocument[] => {
  const mapped: MappedDocument[] = [];
  for (const interchange of interchanges) {
    for (const group of interchange.groups) {
      for (const message of group.messages) mapped.push(mapEdifactMessage(message, { interchange }));
    }
    for (const message of interchange.messages) mapped.push(mapEdifactMessage(message, { interchange }));
  }
  return mapped;
};
