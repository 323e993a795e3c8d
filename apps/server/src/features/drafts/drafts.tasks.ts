/**
 * A draft's Check, on the CPU pool: the form written as the EANCOM interchange Send would store (the writer of
 * `@portal/documents`), validated by the engine against the directory and the EANCOM guide, each finding placed on
 * the form field whose segment it concerns. A form holds at most DRAFT_MAX_LINES lines, so this is bounded work; it
 * runs off the event loop with the pool's time limit like every parse and validation.
 */
import type { DraftForm, DraftKind, EdifactFinding } from '@portal/contracts';
import { buildInterchange, formToCanonical, writeEancomMessage, type EancomDirectory } from '@portal/documents';
import { parse, serializeInterchange, serializeInterchangeBytes, validate, type Segment } from '@portal/edifact/node';
import { levelsFor, type StoreRef } from '../edifact/edifact.tasks.ts';

export type CheckDraftTask = StoreRef & {
  kind: DraftKind;
  form: DraftForm;
  algorithm: 'lines' | 'summary';
  directory: EancomDirectory;
  syntax: string;
  una: boolean;
  test: boolean;
  sender: string;
  recipient: string;
  controlReference: string;
  /** `2026-11-27T10:15`: UNB's date and time of preparation. */
  preparedAt: string;
};

export type CheckedFinding = EdifactFinding & { field: string | null };

export type CheckDraftResult = {
  edifact: string;
  /** The interchange in its syntax identifier's character set, as Send stores it. */
  bytes: Uint8Array;
  messageType: string;
  findings: CheckedFinding[];
  omitted: string[];
  errors: number;
};

const PARTY_FIELDS: Record<string, string> = { BY: 'buyer', SU: 'supplier', DP: 'deliveryPoint', IV: 'invoicee' };
const REFERENCE_FIELDS: Record<string, string> = { ON: 'orderNumber', AAK: 'despatchNumber', IV: 'invoiceNumber' };
const REFERENCE_DATE_FIELDS: Record<string, string> = { ON: 'orderDate', IV: 'invoiceDate' };
const LINE_FIELDS: Record<string, string> = {
  LIN: 'gtin',
  PIA: 'buyerArticleNumber',
  IMD: 'description',
  QTY: 'quantity',
  PRI: 'price',
  TAX: 'vatRate',
  MOA: 'price',
  RFF: 'orderLineNumber',
};

const first = (segment: Segment, element: number): string => segment.elements[element]?.components[0] ?? '';

/**
 * The form field of each segment of the written interchange, in order: a line's segments name the line (`lines.2.
 * quantity`) or its allowance (`lines.2.allowances.0.reason`, its PCD and MOA the `value`), a party's its part of
 * the form (`buyer`; its FII the payee's IBAN), the header's its field (PAI the payment means, PAT and its DTM and PCD
 * the terms); the envelope and the counts none.
 */
export function fieldsOfSegments(segments: readonly Segment[]): (string | null)[] {
  let line = -1;
  let sscc = -1;
  let party: string | null = null;
  let reference: string | null = null;
  let inPayment = false;
  let allowance = -1;
  return segments.map((segment) => {
    const tag = segment.tag;
    if (tag === 'LIN') {
      line++;
      allowance = -1;
      party = null;
    }
    if (tag === 'UNS' || tag === 'CNT' || tag === 'UNT' || tag === 'UNZ' || tag === 'UNB' || tag === 'UNH') {
      return null;
    }
    if (tag === 'GIN' && first(segment, 0) === 'BJ') return `packages.${++sscc}.sscc`;
    if (tag === 'CPS' || tag === 'PAC' || tag === 'PCI') return null;
    if (line >= 0) {
      // The ALC group closes a line (EANCOM INVOIC SG38, ORDERS SG38): what follows an ALC is of that allowance.
      if (tag === 'ALC') return `lines.${line}.allowances.${++allowance}.reason`;
      if (allowance >= 0) return `lines.${line}.allowances.${allowance}.value`;
      return `lines.${line}.${LINE_FIELDS[tag] ?? 'gtin'}`;
    }
    switch (tag) {
      case 'BGM':
        return 'number';
      case 'NAD':
        party = PARTY_FIELDS[first(segment, 0)] ?? null;
        reference = null;
        return party;
      case 'RFF': {
        const qualifier = first(segment, 0);
        if (party && (qualifier === 'VA' || qualifier === 'FC'))
          return `${party}.${qualifier === 'VA' ? 'vatId' : 'taxId'}`;
        party = null;
        reference = qualifier;
        return REFERENCE_FIELDS[qualifier] ?? null;
      }
      case 'DTM': {
        const qualifier = segment.elements[0]?.components[0] ?? '';
        if (qualifier === '137') return 'documentDate';
        if (qualifier === '171') return (reference && REFERENCE_DATE_FIELDS[reference]) ?? null;
        if (qualifier === '13' || inPayment) return 'paymentDueDate';
        return 'deliveryDate';
      }
      case 'FTX':
        return 'note';
      case 'CUX':
        return 'currency';
      case 'PAI':
        return 'payment.means';
      case 'FII':
        return 'payment.iban';
      case 'PAT': {
        inPayment = true;
        // PAT 22 is the early payment discount; a period after the invoice date the net days; else the due date.
        if (first(segment, 0) === '22') return 'payment.discountDays';
        return segment.elements[2]?.components[3] ? 'payment.days' : 'paymentDueDate';
      }
      case 'PCD':
        return inPayment ? 'payment.discountPercentage' : party;
      default:
        return party;
    }
  });
}

/** A finding's form field: a missing party by its role, else the field of the segment it points into. */
const fieldOf = (finding: EdifactFinding, segments: readonly Segment[], fields: readonly (string | null)[]) => {
  const role = finding.params?.code;
  if (finding.params?.segment === 'NAD' && typeof role === 'string' && PARTY_FIELDS[role]) {
    return `${PARTY_FIELDS[role]}.gln`;
  }
  // A group's count is about no one segment.
  if (/^SG\d+$/.test(finding.path)) return null;
  const index = segments.findIndex(
    (s) => finding.offset >= s.position.offset && finding.offset < s.position.offset + s.length,
  );
  return index >= 0 ? (fields[index] ?? null) : null;
};

export async function checkDraftTask(task: CheckDraftTask): Promise<CheckDraftResult> {
  const body = formToCanonical(task.kind, task.form, task.algorithm);
  const written = writeEancomMessage(body, { directory: task.directory, reference: '1' });
  const interchange = buildInterchange({
    messages: [written.message],
    sender: { id: task.sender },
    recipient: { id: task.recipient },
    controlReference: task.controlReference,
    preparedAt: task.preparedAt,
    test: task.test,
    una: task.una,
    syntax: task.syntax,
    applicationReference: written.message.type,
  });
  const edifact = serializeInterchange(interchange, { una: task.una ? 'always' : 'never' });
  const result = await validate(edifact, { levels: await levelsFor(task) });
  const segments = parse(edifact).interchanges.flatMap((i) => [
    ...(i.header ? [i.header] : []),
    ...i.messages.flatMap((m) => m.segments),
    ...(i.trailer ? [i.trailer] : []),
  ]);
  const fields = fieldsOfSegments(segments);
  const findings = result.findings.map((f) => ({ ...f, field: fieldOf(f, segments, fields) }));
  return {
    edifact,
    bytes: serializeInterchangeBytes(interchange, { una: task.una ? 'always' : 'never' }),
    messageType: written.message.type,
    findings,
    omitted: written.omitted,
    errors: findings.filter((f) => f.severity === 'error').length,
  };
}
