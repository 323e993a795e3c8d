/**
 * What the portal reads from and writes into e-TTN documents, as plain data (no I/O): a document's summary for lists
 * and views, the next transaction of a note, a new act. Used by the CPU task (`ettn.tasks.ts`) and nothing else, so
 * the work stays off the event loop for big inputs.
 */
import {
  ACT_BUSINESS_PROCESS,
  actGuideline,
  foldRole,
  noteDocument,
  readEttn,
  type ActType,
  type EttnDocument,
  type EttnModel,
  type EttnNote,
  type TradeParty,
} from '@portal/ettn';

export type SummaryParty = {
  role: string;
  name: string | null;
  edrpou: string | null;
  address: string | null;
  person: string | null;
};

/** The facts of a document that lists and views show. */
export type DocumentSummary = {
  kind: 'ettn' | 'act';
  actType: ActType | null;
  transactionId: string;
  number: string | null;
  issueDateTime: string | null;
  parties: SummaryParty[];
  /** EDRPOU codes of the parties (scheme ЄДРПОУ). */
  partyIds: string[];
  vehicle: string | null;
  routeFrom: string | null;
  routeTo: string | null;
  loading: { name: string | null; description: string | null } | null;
  unloading: { name: string | null; description: string | null } | null;
  items: {
    sequence: string | null;
    name: string | null;
    uktzed: string | null;
    grossWeight: string | null;
    weightUnit: string | null;
    packageQuantity: string | null;
    packageType: string | null;
    amount: string | null;
    currency: string | null;
  }[];
  vehicles: {
    id: string | null;
    category: string | null;
    seals: string[];
    brand: string | null;
    model: string | null;
  }[];
  /** The back reference: the note's previous transaction id (730), or the act's note reference (730). */
  previousId: string | null;
  previousDocumentId: string | null;
};

const n = <T>(v: T | undefined): T | null => v ?? null;

const party = (role: string, p: TradeParty): SummaryParty => ({
  role,
  name: n(p.name),
  edrpou: p.idScheme === 'ЄДРПОУ' || p.idScheme === undefined ? n(p.id) : null,
  address: p.address
    ? [p.address.street, p.address.city, p.address.countryId].filter(Boolean).join(', ') || null
    : null,
  person: n(p.personName),
});

export const summarize = (model: EttnModel): DocumentSummary => {
  if (model.kind === 'act') {
    const ref = model.references.find((r) => r.typeCode === '730');
    const parties = model.parties.map((p) => party(p.roleCode ?? 'TradeParty', p));
    return {
      kind: 'act',
      actType: model.actType ?? null,
      transactionId: model.header.transactionId,
      number: n(model.header.number),
      issueDateTime: n(model.header.issueDateTime),
      parties,
      partyIds: parties.flatMap((p) => (p.edrpou ? [p.edrpou] : [])),
      vehicle: null,
      routeFrom: null,
      routeTo: null,
      loading: null,
      unloading: null,
      items: [],
      vehicles: [],
      previousId: n(ref?.id),
      previousDocumentId: n(ref?.file?.id),
    };
  }
  const c = model.consignment;
  const parties: SummaryParty[] = [
    ...(c.consignor ? [party('CZ', c.consignor)] : []),
    ...(c.consignee ? [party('CN', c.consignee)] : []),
    ...(c.carrier ? [party('CA', c.carrier)] : []),
    ...c.notified.map((p) => party(p.roleCode ?? 'OB', p)),
  ];
  const noteOf = (notes: { code: string; content: string }[], code: string) =>
    notes.find((x) => x.code === code)?.content ?? null;
  return {
    kind: 'ettn',
    actType: null,
    transactionId: model.header.transactionId,
    number: n(model.header.number),
    issueDateTime: n(model.header.issueDateTime),
    parties,
    partyIds: [...new Set(parties.flatMap((p) => (p.edrpou ? [p.edrpou] : [])))],
    vehicle:
      c.equipment
        .map((e) => e.id)
        .filter(Boolean)
        .join(' / ') || null,
    routeFrom: n(c.loading?.description ?? c.loading?.name),
    routeTo: n(c.unloading?.description ?? c.unloading?.name),
    loading: c.loading ? { name: n(c.loading.name), description: n(c.loading.description) } : null,
    unloading: c.unloading ? { name: n(c.unloading.name), description: n(c.unloading.description) } : null,
    items: c.items.map((i) => ({
      sequence: n(i.sequence),
      name: n(i.name),
      uktzed: n(i.uktzed),
      grossWeight: n(i.grossWeight),
      weightUnit: n(i.weightUnit),
      packageQuantity: n(i.packageQuantity),
      packageType: n(i.packageType),
      amount: n(i.invoiceAmount),
      currency: n(i.currency),
    })),
    vehicles: c.equipment.map((e) => ({
      id: n(e.id),
      category: n(e.categoryCode),
      seals: e.seals,
      brand: noteOf(e.notes, 'BRAND'),
      model: noteOf(e.notes, 'MODEL'),
    })),
    previousId: n(c.previous?.id),
    previousDocumentId: n(c.previous?.file?.id),
  };
};

/** The EDRPOU of the note's party that a (folded) role names: consignor, carrier, consignee or a notified party. */
export const partyIdOfRole = (parties: readonly SummaryParty[], role: string): string[] => {
  const folded = foldRole(role);
  return parties.filter((p) => foldRole(p.role) === folded && p.edrpou !== null).map((p) => p.edrpou as string);
};

/**
 * The note's next transaction, written by the portal: the same consignment, the transaction number one up, the
 * back reference to the previous transaction (730 with the registry's document-detail id), and for the loading or
 * unloading step the certifying party of that event. Earlier signatures stay in the storage (they verify against
 * the earlier transactions' bytes).
 */
export const nextNoteTransaction = (
  base: EttnDocument,
  step: { move: string; transactionNo: number; previousDetId: string; previousSize: number; certifying?: TradeParty },
): EttnDocument => {
  const note = base.model as EttnNote;
  // The registry's document id of the previous transaction, its link and size (field 3.25).
  const previous = {
    typeCode: '730',
    id: note.header.transactionId,
    file: { id: step.previousDetId, uri: `urn:uuid:${step.previousDetId}`, size: String(step.previousSize) },
  };
  const event = step.certifying ? { certifyingParties: [step.certifying], notes: [] } : undefined;
  return noteDocument({
    ...note,
    header: { ...note.header, transactionId: String(step.transactionNo) },
    consignment: {
      ...note.consignment,
      previous,
      ...(step.move === 'pickup_sign' && event ? { pickUp: event } : {}),
      ...(step.move === 'arrival_sign' && event ? { delivery: event } : {}),
    },
    signatures: note.signatures,
  });
};

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const NS =
  'xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:103" ' +
  'xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:27" ' +
  'xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:103"';

/**
 * A new act of a note, written by the portal (the screens' "start an act"): transaction 0 of the act, its guideline
 * URN, the reason in the remarks, and the 730 back reference to the note's transaction it is about.
 */
export const newAct = (input: {
  actType: ActType;
  number: string;
  issueDateTime: string;
  reason?: string;
  noteTransactionId: string;
  noteDetId: string;
}): EttnDocument => {
  const xml =
    `<UAECMR_ACT ${NS}><ACT>` +
    '<ExchangedDocumentContext><ram:SpecifiedTransactionID>0</ram:SpecifiedTransactionID>' +
    `<ram:BusinessProcessSpecifiedDocumentContextParameter><ram:ID>${ACT_BUSINESS_PROCESS}</ram:ID></ram:BusinessProcessSpecifiedDocumentContextParameter>` +
    `<ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${actGuideline(input.actType)}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>` +
    '</ExchangedDocumentContext>' +
    `<ExchangedDocument><ram:ID>${escape(input.number)}</ram:ID>` +
    `<ram:IssueDateTime><udt:DateTime>${escape(input.issueDateTime)}</udt:DateTime></ram:IssueDateTime>` +
    (input.reason ? `<ram:Remarks>${escape(input.reason)}</ram:Remarks>` : '') +
    '</ExchangedDocument>' +
    `<${input.actType}Payload><PreviousAdministrativeReferencedDocument><ram:TypeCode>730</ram:TypeCode>` +
    `<ram:ID>${escape(input.noteTransactionId)}</ram:ID>` +
    `<ram:AttachedSpecifiedBinaryFile><ram:ID>${escape(input.noteDetId)}</ram:ID></ram:AttachedSpecifiedBinaryFile>` +
    `</PreviousAdministrativeReferencedDocument></${input.actType}Payload>` +
    '</ACT></UAECMR_ACT>';
  const read = readEttn(xml);
  if (!read.ok) throw new Error(`the act writer wrote XML it cannot read: ${read.error.message}`);
  return read.document;
};
