/**
 * One parsed UN/EDIFACT message to the canonical body, driven by segment tags and the groups they open.
 *
 * Segment group numbers differ between message types and directories (the parties are SG2 in ORDERS D96A and SG3 in
 * INVOIC D01B…), but the shape of the groups does not: a group starts with its trigger segment (NAD, LIN, RFF…) and
 * holds the segments after it until a segment its group cannot hold. So the mapper keeps a stack of open groups
 * ("frames"), each with the tags it holds; a segment goes to the innermost open frame that holds its tag, closing
 * the frames above it; if that is a group trigger, it opens a new frame. A DTM after `RFF+ON` is the order's date,
 * after `LIN` the line's, after `BGM` the document's, whatever the version. The stack is a few frames deep, so the
 * mapping is linear in the number of segments.
 *
 * Groups the body has no place for (transport, locations, handling…) open opaque frames that swallow their own
 * segments, so a transport DTM never becomes a document date. Everything skipped is noted; nothing throws.
 */
import type { Message, Segment } from '@portal/edifact';
import {
  CREDIT_NOTE_CODES,
  EDIFACT_MESSAGE_KINDS,
  emptyDocument,
  type Acknowledgement,
  type AllowanceCharge,
  type FinancialAccount,
  type CanonicalDocument,
  type Contact,
  type DocumentKind,
  type ErrorReport,
  type Line,
  type Package,
  type Packaging,
  type Party,
  type PaymentTerm,
  type Reference,
  type Tax,
} from '../canonical.ts';
import {
  addPackageMarks,
  joined,
  put,
  readAllowance,
  readAmount,
  readCommunication,
  readContact,
  readDate,
  readMarks,
  readPackaging,
  readParty,
  readPaymentTerm,
  readPercentage,
  readPrice,
  readQuantity,
  readReference,
  readTax,
  readText,
  value,
  type Notes,
} from './segments.ts';

type Frame =
  | { kind: 'header' }
  | { kind: 'summary' }
  | { kind: 'reference'; reference: Reference }
  | { kind: 'party'; party: Party }
  | { kind: 'contact'; contact: Contact }
  | { kind: 'tax'; tax: Tax }
  | { kind: 'allowance'; allowance: AllowanceCharge }
  | { kind: 'payment'; term: PaymentTerm }
  | { kind: 'line'; line: Line }
  | { kind: 'lineMarks'; line: Line }
  | { kind: 'package'; pkg: Package }
  | { kind: 'packaging'; packaging: Packaging }
  | { kind: 'packageMarks'; packaging: Packaging }
  | { kind: 'error'; error: ErrorReport }
  | { kind: 'groupResponse' }
  | { kind: 'messageResponse'; reference: string }
  | { kind: 'segmentResponse'; reference: string; position: string }
  | { kind: 'opaque'; tag: string };

type Kind = Frame['kind'];
type FrameOf<K extends Kind> = Extract<Frame, { kind: K }>;

/** The state of one mapping: the body being built and where notes go. */
type State = { document: CanonicalDocument; notes: Notes };

/** What a frame does with a segment of a tag it holds; returns the frame the segment opens, if it is a trigger. */
type Rule<K extends Kind> = (frame: FrameOf<K>, segment: Segment, state: State) => Frame | void;
type Rules = { [K in Exclude<Kind, 'opaque'>]: Readonly<Record<string, Rule<K>>> };

/**
 * The segments of groups the body has no place for, per trigger tag (after the UN/EDIFACT directories' group
 * shapes, D96A and D01B). A trigger not listed opens no frame: its segments are checked against the open frames.
 */
const OPAQUE_CHILDREN: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    PRI: ['CUX', 'APR', 'RNG', 'DTM'],
    CUX: ['PCD', 'DTM'],
    TDT: ['TMD', 'MEA', 'DTM', 'TSR', 'LOC', 'RFF', 'TPL', 'SGP', 'TCC', 'FTX'],
    LOC: ['DTM', 'QTY'],
    TOD: ['LOC'],
    PAC: ['MEA', 'QTY', 'HAN', 'PCI', 'GIN', 'GIR', 'DTM', 'RFF'],
    PCI: ['RFF', 'DTM', 'GIN', 'GIR', 'MEA', 'QTY'],
    EQD: ['HAN', 'MEA', 'FTX', 'SEL', 'EQN'],
    SCC: ['QTY', 'DTM', 'FTX', 'RFF'],
    DOC: ['DTM'],
    RCS: ['RFF', 'DTM', 'FTX'],
    DGS: ['FTX', 'MEA', 'CTA', 'COM', 'SGP'],
    QVR: ['DTM'],
    RTE: ['LOC'],
    CCI: ['CAV', 'MEA'],
    HAN: ['FTX'],
    APR: ['DTM', 'RNG'],
    PGI: ['DTM', 'QTY', 'ALI', 'FTX', 'PRI', 'CUX'],
    // A trigger that could not be read (a NAD without role, an ALC that is neither allowance nor charge) still
    // holds its group's segments, so they do not land in the frame below.
    NAD: ['LOC', 'FII', 'RFF', 'CTA', 'COM', 'DOC'],
    RFF: ['DTM'],
    TAX: ['MOA', 'LOC'],
    ALC: ['ALI', 'DTM', 'QTY', 'PCD', 'MOA', 'RTE', 'TAX', 'RNG'],
    ERC: ['FTX', 'RFF'],
    CTA: ['COM'],
  }).map(([tag, children]) => [tag, new Set(children)]),
);

const opaque = (tag: string): Frame => ({ kind: 'opaque', tag });

/** A group trigger whose segment could not be read holds its group's segments in an opaque frame. */
const opened = <T>(read: T | undefined, segment: Segment, frame: (value: T) => Frame): Frame =>
  read === undefined ? opaque(segment.tag) : frame(read);

const push = <T>(list: T[], item: T | undefined): void => {
  if (item !== undefined) list.push(item);
};

const lineOf = (notes: Notes, s: Segment, packageId: string | undefined): Line => {
  const line: Line = { quantities: [], prices: [], amounts: [] };
  put(line, 'lineNumber', value(s, 0));
  put(line, 'action', value(s, 1));
  const id = value(s, 2, 0);
  const type = value(s, 2, 1);
  // UNCL 7143: EN is the EAN (GTIN-13) number, SRV the GS1 GTIN of any length.
  if (id && (type === 'EN' || type === 'SRV')) line.gtin = id;
  else if (id) line.itemIds = [{ qualifier: type, value: id }];
  put(line, 'parentLineNumber', value(s, 3, 1));
  put(line, 'packageId', packageId);
  if (!id && !line.lineNumber) notes.add('value_missing', s);
  return line;
};

/** PIA: up to five article numbers, each with its type (UNCL 7143: IN buyer's, SA supplier's…). */
const addArticleNumbers = (line: Line, s: Segment): void => {
  for (let e = 1; e < s.elements.length && e <= 5; e++) {
    const id = value(s, e, 0);
    const type = value(s, e, 1);
    if (!id) continue;
    if (type === 'IN' && !line.buyerArticleNumber) line.buyerArticleNumber = id;
    else if (type === 'SA' && !line.supplierArticleNumber) line.supplierArticleNumber = id;
    else if ((type === 'EN' || type === 'SRV') && !line.gtin) line.gtin = id;
    else (line.itemIds ??= []).push({ qualifier: type, value: id });
  }
};

const acknowledgementOf = (document: CanonicalDocument): Acknowledgement =>
  (document.acknowledgement ??= { messages: [] });

/** A syntax error code (UNCL 0085) of a CONTRL segment, as an error of the report. */
const addSyntaxError = (
  document: CanonicalDocument,
  code: string,
  reference: string | undefined,
  position: string | undefined,
): void => {
  if (!code) return;
  const error: ErrorReport = { code };
  put(error, 'reference', reference);
  put(error, 'position', position);
  document.errors.push(error);
};

/** UCM: 0062 the message answered, S009 its type, 0083 the action, 0085 an error. */
const messageResponse = (_f: Frame, s: Segment, { document }: State): Frame => {
  const reference = value(s, 0);
  const response: Acknowledgement['messages'][number] = { reference };
  put(response, 'type', value(s, 1, 0));
  put(response, 'action', value(s, 2));
  acknowledgementOf(document).messages.push(response);
  addSyntaxError(document, value(s, 3), reference, undefined);
  return { kind: 'messageResponse', reference };
};

const RULES: Rules = {
  header: {
    BGM: (_f, s, { document }) => {
      const header = document.header;
      put(header, 'documentNameCode', value(s, 0, 0));
      put(header, 'documentName', value(s, 0, 3));
      put(header, 'number', value(s, 1, 0));
      put(header, 'functionCode', value(s, 2));
      put(header, 'responseType', value(s, 3));
    },
    DTM: (_f, s, { document, notes }) => push(document.header.dates, readDate(notes, s)),
    FTX: (_f, s, { document, notes }) => push(document.header.texts, readText(notes, s)),
    MOA: (_f, s, { document, notes }) => push(document.totals, readAmount(notes, s)),
    CNT: () => undefined, // control totals: the lines themselves are in the body
    RFF: (_f, s, { document, notes }) =>
      opened(readReference(notes, s), s, (reference) => {
        document.references.push(reference);
        return { kind: 'reference', reference };
      }),
    NAD: (_f, s, { document, notes }) =>
      opened(readParty(notes, s), s, (party) => {
        document.parties.push(party);
        return { kind: 'party', party };
      }),
    TAX: (_f, s, { document, notes }) =>
      opened(readTax(notes, s), s, (tax) => {
        document.taxes.push(tax);
        return { kind: 'tax', tax };
      }),
    // CUX C504: 6345 the currency of the first CUX (its reference currency, 6347 = 2, in EANCOM).
    CUX: (_f, s, { document }) => {
      if (!document.currency) put(document, 'currency', value(s, 0, 1));
      return opaque('CUX');
    },
    // PAI C534 4461: the payment means.
    PAI: (_f, s, { document }) => put(document, 'paymentMeans', value(s, 0, 2)),
    PAT: (_f, s, { document, notes }) => {
      const term = readPaymentTerm(notes, s);
      document.paymentTerms.push(term);
      return { kind: 'payment', term };
    },
    ALC: (_f, s, { document, notes }) =>
      opened(readAllowance(notes, s), s, (allowance) => {
        document.allowances.push(allowance);
        return { kind: 'allowance', allowance };
      }),
    LIN: (_f, s, { document, notes }) => {
      const line = lineOf(notes, s, undefined);
      document.lines.push(line);
      return { kind: 'line', line };
    },
    CPS: (_f, s, { document, notes }) => {
      const id = value(s, 0);
      if (!id) {
        notes.add('value_missing', s);
        return opaque('CPS');
      }
      const pkg: Package = { id, packaging: [] };
      put(pkg, 'parentId', value(s, 1));
      document.packages.push(pkg);
      return { kind: 'package', pkg };
    },
    // APERAK ERC C901: 9321 the application error code.
    ERC: (_f, s, { document, notes }) => {
      const code = value(s, 0, 0);
      if (!code) {
        notes.add('value_missing', s);
        return opaque('ERC');
      }
      const error: ErrorReport = { code };
      document.errors.push(error);
      return { kind: 'error', error };
    },
    // CONTRL UCI: 0020 the interchange answered, 0083 the action, 0085 an error in its envelope.
    UCI: (_f, s, { document }) => {
      const acknowledgement = acknowledgementOf(document);
      put(acknowledgement, 'interchangeReference', value(s, 0));
      put(acknowledgement, 'action', value(s, 3));
      addSyntaxError(document, value(s, 4), value(s, 0) || undefined, undefined);
    },
    // CONTRL UCF: a functional group answered; its messages follow in UCM.
    UCF: (_f, s, { document }) => {
      addSyntaxError(document, value(s, 4), value(s, 0) || undefined, undefined);
      return { kind: 'groupResponse' };
    },
    UCM: messageResponse,
  },
  summary: {
    MOA: (_f, s, { document, notes }) => push(document.totals, readAmount(notes, s)),
    CNT: () => undefined,
    FTX: (_f, s, { document, notes }) => push(document.header.texts, readText(notes, s)),
    TAX: (_f, s, { document, notes }) =>
      opened(readTax(notes, s), s, (tax) => {
        document.taxes.push(tax);
        return { kind: 'tax', tax };
      }),
    ALC: (_f, s, { document, notes }) =>
      opened(readAllowance(notes, s), s, (allowance) => {
        document.allowances.push(allowance);
        return { kind: 'allowance', allowance };
      }),
  },
  reference: {
    DTM: ({ reference }, s, { notes }) => push((reference.dates ??= []), readDate(notes, s)),
  },
  party: {
    // FII: 3035 role, C078 3194 account number, C088 3433 institution.
    FII: ({ party }, s) => {
      const account: FinancialAccount = { qualifier: value(s, 0) };
      put(account, 'account', value(s, 1, 0));
      put(account, 'institution', value(s, 2, 0));
      (party.accounts ??= []).push(account);
    },
    // RFF under NAD: VA is the party's VAT number, FC its fiscal number, anything else a reference of the party.
    RFF: ({ party }, s, { notes }) =>
      opened(readReference(notes, s), s, (reference) => {
        if (reference.qualifier === 'VA' && reference.value && !party.vatId) party.vatId = reference.value;
        else if (reference.qualifier === 'FC' && reference.value && !party.taxId) party.taxId = reference.value;
        else (party.references ??= []).push(reference);
        return { kind: 'reference', reference };
      }),
    CTA: ({ party }, s, { notes }) => {
      const contact = readContact(notes, s);
      (party.contacts ??= []).push(contact);
      return { kind: 'contact', contact };
    },
  },
  contact: {
    COM: ({ contact }, s, { notes }) => push((contact.communications ??= []), readCommunication(notes, s)),
  },
  tax: {
    MOA: ({ tax }, s, { notes }) => push(tax.amounts, readAmount(notes, s)),
  },
  allowance: {
    MOA: ({ allowance }, s, { notes }) => push(allowance.amounts, readAmount(notes, s)),
    QTY: ({ allowance }, s, { notes }) => push((allowance.quantities ??= []), readQuantity(notes, s)),
    PCD: ({ allowance }, s, { notes }) => put(allowance, 'percentage', readPercentage(notes, s)),
    TAX: ({ allowance }, s, { notes }) =>
      opened(readTax(notes, s), s, (tax) => {
        (allowance.taxes ??= []).push(tax);
        return { kind: 'tax', tax };
      }),
  },
  payment: {
    DTM: ({ term }, s, { notes }) => push((term.dates ??= []), readDate(notes, s)),
    PCD: ({ term }, s, { notes }) => put(term, 'percentage', readPercentage(notes, s)),
    MOA: ({ term }, s, { notes }) => push((term.amounts ??= []), readAmount(notes, s)),
  },
  line: {
    PIA: ({ line }, s) => addArticleNumbers(line, s),
    // IMD C273 7008: the first description with text is the line's; further ones are noted.
    IMD: ({ line }, s, { notes }) => {
      const text = joined(s, 2, 3, 4);
      if (text && !line.description) line.description = text;
      else notes.add('segment_not_mapped', s, text || undefined);
    },
    QTY: ({ line }, s, { notes }) => push(line.quantities, readQuantity(notes, s)),
    MOA: ({ line }, s, { notes }) => push(line.amounts, readAmount(notes, s)),
    DTM: ({ line }, s, { notes }) => push((line.dates ??= []), readDate(notes, s)),
    FTX: ({ line }, s, { notes }) => push((line.texts ??= []), readText(notes, s)),
    GIN: ({ line }, s, { notes }) => {
      const marks = readMarks(notes, s);
      if (marks.length) (line.identifiers ??= []).push(...marks);
    },
    PRI: ({ line }, s, { notes }) => {
      push(line.prices, readPrice(notes, s));
      return opaque('PRI');
    },
    RFF: ({ line }, s, { notes }) =>
      opened(readReference(notes, s), s, (reference) => {
        (line.references ??= []).push(reference);
        return { kind: 'reference', reference };
      }),
    TAX: ({ line }, s, { notes }) =>
      opened(readTax(notes, s), s, (tax) => {
        (line.taxes ??= []).push(tax);
        return { kind: 'tax', tax };
      }),
    ALC: ({ line }, s, { notes }) =>
      opened(readAllowance(notes, s), s, (allowance) => {
        (line.allowances ??= []).push(allowance);
        return { kind: 'allowance', allowance };
      }),
    NAD: ({ line }, s, { notes }) =>
      opened(readParty(notes, s), s, (party) => {
        (line.parties ??= []).push(party);
        return { kind: 'party', party };
      }),
    PCI: ({ line }) => ({ kind: 'lineMarks', line }),
  },
  lineMarks: {
    GIN: ({ line }, s, { notes }) => {
      const marks = readMarks(notes, s);
      if (marks.length) (line.identifiers ??= []).push(...marks);
    },
  },
  package: {
    PAC: ({ pkg }, s, { notes }) => {
      const packaging = readPackaging(notes, s);
      pkg.packaging.push(packaging);
      return { kind: 'packaging', packaging };
    },
    LIN: ({ pkg }, s, { document, notes }) => {
      const line = lineOf(notes, s, pkg.id);
      document.lines.push(line);
      return { kind: 'line', line };
    },
  },
  packaging: {
    QTY: ({ packaging }, s, { notes }) => push((packaging.quantities ??= []), readQuantity(notes, s)),
    PCI: ({ packaging }) => ({ kind: 'packageMarks', packaging }),
    GIN: ({ packaging }, s, { notes }) => addPackageMarks(packaging, readMarks(notes, s)),
  },
  packageMarks: {
    GIN: ({ packaging }, s, { notes }) => addPackageMarks(packaging, readMarks(notes, s)),
  },
  error: {
    // FTX under ERC (or under its RFF): the error's text.
    FTX: ({ error }, s, { notes }) => {
      const text = readText(notes, s)?.text;
      if (text) error.text = error.text ? `${error.text} ${text}` : text;
    },
    RFF: ({ error }, s, { notes }) => {
      const reference = readReference(notes, s);
      if (reference?.value && !error.reference) error.reference = reference.value;
    },
  },
  groupResponse: { UCM: messageResponse },
  messageResponse: {
    // UCS: 0096 the position of the segment in error, 0085 the error.
    UCS: ({ reference }, s, { document }) => {
      const position = value(s, 0);
      addSyntaxError(document, value(s, 1), reference, position || undefined);
      return { kind: 'segmentResponse', reference, position };
    },
  },
  segmentResponse: {
    // UCD: 0085 the error, S011 the element (0098) and component (0104) positions.
    UCD: ({ reference, position }, s, { document }) => {
      const element = value(s, 1, 0);
      const component = value(s, 1, 1);
      const at = `${position}/${element}${component ? `:${component}` : ''}`;
      addSyntaxError(document, value(s, 0), reference, at);
    },
  },
};

/** Tags some frame maps: met where no open frame holds them, they are out of place rather than unknown. */
const MAPPED_TAGS: ReadonlySet<string> = new Set(Object.values(RULES).flatMap((rules) => Object.keys(rules)));

type AnyRule = (frame: Frame, segment: Segment, state: State) => Frame | void;

const ruleOf = (frame: Frame, tag: string): AnyRule | undefined => {
  if (frame.kind === 'opaque') return OPAQUE_CHILDREN[frame.tag]?.has(tag) ? opaqueChild : undefined;
  return (RULES[frame.kind] as Readonly<Record<string, AnyRule>>)[tag];
};

/** A segment of a group the body has no place for; if it opens a group of its own, that is opaque too. */
const opaqueChild: AnyRule = (_frame, s, { notes }) => {
  notes.add('segment_not_mapped', s);
  return OPAQUE_CHILDREN[s.tag] ? opaque(s.tag) : undefined;
};

/** The kind of a message: by its type, and for INVOIC by its document name code (BGM 1001). */
export const kindOfMessage = (messageType: string, documentNameCode: string | undefined): DocumentKind => {
  const kind = EDIFACT_MESSAGE_KINDS[messageType] ?? 'other';
  return kind === 'invoice' && documentNameCode && CREDIT_NOTE_CODES.has(documentNameCode) ? 'credit_note' : kind;
};

/** Work done by {@link mapMessageBody}: frames looked at and frames closed (a test holds it linear in the segments). */
export type MappingWork = { steps: number };

/** The canonical body of one message; what it skips goes to `notes`. */
export const mapMessageBody = (message: Message, notes: Notes, work?: MappingWork): CanonicalDocument => {
  const document = emptyDocument(kindOfMessage(message.type, undefined));
  const state: State = { document, notes };
  const stack: Frame[] = [{ kind: 'header' }];
  for (const segment of message.segments) {
    const tag = segment.tag;
    if (tag === 'UNH' || tag === 'UNT') continue;
    if (tag === 'UNS') {
      // UNS 0081: S separates the detail from the summary, D the header from the detail.
      stack.length = 0;
      stack.push(value(segment, 0) === 'S' ? { kind: 'summary' } : { kind: 'header' });
      continue;
    }
    let depth = stack.length - 1;
    let rule: AnyRule | undefined;
    for (; depth >= 0; depth--) {
      rule = ruleOf(stack[depth] as Frame, tag);
      if (rule) break;
    }
    if (work) work.steps += stack.length - depth;
    if (!rule) {
      if (OPAQUE_CHILDREN[tag]) {
        // A group no open frame holds (transport, a header PAC…): its own segments must not fall into the open
        // frames. It closes the opaque frames above the innermost mapped one, which could not hold it either, so
        // a run of such groups does not deepen the stack.
        notes.add('segment_not_mapped', segment);
        while ((stack[stack.length - 1] as Frame).kind === 'opaque') {
          stack.pop();
          if (work) work.steps++;
        }
        stack.push(opaque(tag));
      } else notes.add(MAPPED_TAGS.has(tag) ? 'segment_out_of_place' : 'segment_not_mapped', segment);
      continue;
    }
    stack.length = depth + 1;
    const next = rule(stack[depth] as Frame, segment, state);
    if (next) stack.push(next);
  }
  document.kind = kindOfMessage(message.type, document.header.documentNameCode);
  return document;
};
