/**
 * Messages to one EDIFACT interchange (UNA, UNB … UNZ), serialized by the engine (`@portal/edifact`), so release
 * characters and service characters are the engine's, the same that parses them back.
 */
import {
  DEFAULT_DELIMITERS,
  serializeInterchange,
  type Delimiters,
  type Interchange,
  type Message,
  type Segment,
} from '@portal/edifact';
import { seg } from './write-segments.ts';

/** A party of the interchange (UNB S002/S003): its identification and code qualifier (0007: 14 = GS1 GLN). */
export type InterchangeParty = { id: string; qualifier?: string; internalId?: string };

export type WriteInterchangeOptions = {
  messages: readonly Message[];
  sender: InterchangeParty;
  recipient: InterchangeParty;
  /** UNB 0020 / UNZ 0020: unique per sender and recipient (the caller keeps the counter). */
  controlReference: string;
  /** The date and time of preparation (UNB S004) as the partner's local wall time: `2024-01-15T09:30`. */
  preparedAt: string;
  /** UNB 0035 = 1: the interchange is a test (the partner's TestOut). */
  test?: boolean;
  /** Write the UNA service string advice (default false: the default service characters need none). */
  una?: boolean;
  /** UNB S001 0001, the syntax level (character repertoire): UNOA, UNOB, UNOC (default), UNOD (Latin-2)… */
  syntax?: string;
  /** UNB S001 0002, the syntax version: 3 (default, EANCOM 97 and 2002) or 4. */
  version?: 1 | 2 | 3 | 4;
  /** UNB 0026, the application reference (EANCOM: the message type when all messages are of one type). */
  applicationReference?: string;
};

/** `2024-01-15T09:30` as UNB S004: YYMMDD (CCYYMMDD in syntax 4) and HHMM. */
const preparation = (at: string, version: number): [string, string] => {
  const match = /^(\d{2})(\d{2})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(at);
  if (!match) return ['', ''];
  const [, cc, yy, mm, dd, hh, mi] = match;
  return [`${version >= 4 ? cc : ''}${yy}${mm}${dd}`, `${hh}${mi}`];
};

/** The interchange as the engine's model, for `serializeInterchange` or `serializeInterchangeBytes` (charset bytes). */
export const buildInterchange = (options: WriteInterchangeOptions): Interchange => {
  const version = options.version ?? 3;
  const syntax = options.syntax ?? 'UNOC';
  // Syntax 4 brings the repetition separator `*`; in 1-3 the position is reserved (a space).
  const delimiters: Delimiters = { ...DEFAULT_DELIMITERS, repetition: version >= 4 ? '*' : ' ' };
  const party = (p: InterchangeParty) => [p.id, p.qualifier ?? '14', p.internalId];
  const header = seg(
    'UNB',
    [syntax, String(version)],
    party(options.sender),
    party(options.recipient),
    preparation(options.preparedAt, version),
    options.controlReference,
    undefined,
    options.applicationReference,
    undefined,
    undefined,
    undefined,
    options.test ? '1' : undefined,
  );
  const trailer = seg('UNZ', String(options.messages.length), options.controlReference);
  // The serializer writes blocks in the order of their first segment's index.
  let index = 1;
  const indexed = (s: Segment): Segment => ({ ...s, index: index++ });
  const messages = options.messages.map((m) => {
    const segments = m.segments.map(indexed);
    return { ...m, segments, header: segments[0] as Segment, trailer: segments[segments.length - 1] };
  });
  return {
    delimiters,
    syntaxIdentifier: syntax,
    syntaxVersion: version,
    controlReference: options.controlReference,
    sender: options.sender.id,
    recipient: options.recipient.id,
    header: { ...header, index: 0 },
    trailer: { ...trailer, index },
    groups: [],
    messages,
    packages: [],
  };
};

/** The interchange as EDIFACT text (no line breaks, as interchanges travel). */
export const writeInterchange = (options: WriteInterchangeOptions): string =>
  serializeInterchange(buildInterchange(options), { una: options.una ? 'always' : 'never' });
