/**
 * The typed model of an e-TTN v3 document: a note (`UAECMR` > `eCMR`) or an act (`UAECMR_ACT` > `ACT`), with the
 * signatures of its `UaSignatureStorage`.
 *
 * A read document keeps its element tree beside the typed view: writing it back writes the tree, so nothing the
 * model does not name (the many optional notes, per-item deltas of a disagreement act, …) is lost, and the bytes a
 * party signed can be rebuilt. A note the portal makes starts from the typed model (`buildNoteElement`), which
 * writes every field of the v3 field table it holds, in the table's order.
 */
import {
  childElements,
  el,
  parseXml,
  serializeXml,
  textOf,
  type XmlElement,
  type XmlError,
  type XmlNode,
} from './xml.ts';

export const NS = {
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:103',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:27',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:103',
  uas: 'urn:ua:signatures:SignaturesExtensions:1',
} as const;

export const ETTN_BUSINESS_PROCESS = 'urn:ua:e-transport.gov.ua:ettn:01';
export const ETTN_GENERIC_GUIDELINE = 'urn:ua:e-transport.gov.ua:ettn:01:generic:001';
export const ACT_BUSINESS_PROCESS = 'urn:ua:e-transport.gov.ua:act:01';

/** The nine acts of the description (section 3), with the URN subtype of each (CODES.md; some are guessed there). */
export const ACT_TYPES = [
  'DisagreementAct',
  'ReloadAct',
  'AdjustmentAct',
  'ConsigneeChangeAct',
  'RejectAct',
  'ResealingAct',
  'StopAct',
  'StorageDeliveryAct',
  'StoragePickUpAct',
] as const;
export type ActType = (typeof ACT_TYPES)[number];

export const ACT_SUBTYPES: Record<ActType, string> = {
  DisagreementAct: 'disagreement',
  ReloadAct: 'reload',
  AdjustmentAct: 'adjustment',
  ConsigneeChangeAct: 'consignee_change',
  RejectAct: 'reject',
  ResealingAct: 'resealing',
  StopAct: 'stop',
  StorageDeliveryAct: 'storage_delivery',
  StoragePickUpAct: 'storage_pickup',
};

/** The guideline URN of an act: `urn:ua:e-transport.gov.ua:act:01:<subtype>:001`. */
export const actGuideline = (type: ActType): string => `${ACT_BUSINESS_PROCESS}:${ACT_SUBTYPES[type]}:001`;

/** The act type of a guideline URN, or undefined for an unknown one. */
export const actTypeOfGuideline = (urn: string | undefined): ActType | undefined =>
  ACT_TYPES.find((type) => urn === actGuideline(type));

export type Registration = { id: string; typeCode?: string };
export type Address = {
  postcode?: string;
  street?: string;
  city?: string;
  countryId?: string;
  subdivision?: string;
};
export type TradeParty = {
  roleCode?: string;
  id?: string;
  /** ЄДРПОУ, РНОКПП or ПАСПОРТ. */
  idScheme?: string;
  name?: string;
  personName?: string;
  phone?: string;
  mobile?: string;
  email?: string;
  address?: Address;
  /** RNOKPP of the responsible person (the driver's for the carrier). */
  taxId?: string;
  registrations: Registration[];
};
export type LogisticsLocation = {
  id?: string;
  /** КАТОТТГ. */
  idScheme?: string;
  name?: string;
  /** 10 loading, 5 unloading. */
  typeCode?: string;
  description?: string;
  latitude?: string;
  longitude?: string;
  gln?: string;
};
export type BinaryFile = { id?: string; uri?: string; mimeCode?: string; size?: string };
export type ReferencedDocument = {
  typeCode?: string;
  id?: string;
  remarks?: string;
  issueDateTime?: string;
  file?: BinaryFile;
};
export type ConsignmentItem = {
  sequence?: string;
  invoiceAmount?: string;
  currency?: string;
  grossWeight?: string;
  weightUnit?: string;
  /** УКТЗЕД code. */
  uktzed?: string;
  name?: string;
  packageQuantity?: string;
  packageType?: string;
};
export type TransportEquipment = {
  id?: string;
  /** Absent for the truck; TE trailer, CN container. */
  categoryCode?: string;
  characteristicCode?: string;
  seals: string[];
  /** SettingTransportSettingTemperature: minimum and maximum, with their unit (CEL). */
  temperature?: { min?: string; max?: string; unit?: string };
  notes: { code: string; content: string }[];
};
export type Note = { code?: string; agency?: string; content?: string };
export type TransportEvent = { certifyingParties: TradeParty[]; notes: Note[] };
export type PartySignature = {
  roleCode: string;
  /** base64 of a CMS (CAdES) signature. */
  signature: string;
  name?: string;
  position?: string;
  taxId?: string;
};

export type DocumentHeader = {
  transactionId: string;
  businessProcess?: string;
  guideline?: string;
  number?: string;
  issueDateTime?: string;
  remarks?: string;
  issuePlaceName?: string;
  issuePlaceAddress?: string;
  notes: Note[];
};

export type Consignment = {
  grossWeight?: string;
  grossWeightUnit?: string;
  amount?: string;
  currency?: string;
  itemQuantity?: string;
  consignor?: TradeParty;
  consignee?: TradeParty;
  carrier?: TradeParty;
  notified: TradeParty[];
  loading?: LogisticsLocation;
  unloading?: LogisticsLocation;
  referencedDocuments: ReferencedDocument[];
  delivery?: TransportEvent;
  pickUp?: TransportEvent;
  items: ConsignmentItem[];
  equipment: TransportEquipment[];
  transportTypeDescription?: string;
  transportTypeCode?: string;
  previous?: ReferencedDocument;
};

export type EttnNote = { kind: 'ettn'; header: DocumentHeader; consignment: Consignment; signatures: PartySignature[] };

export type EttnAct = {
  kind: 'act';
  /** Undefined when the guideline URN is not one of the nine. */
  actType?: ActType;
  /** The payload element's name as written (`RejectActPayload`, `StoragePickupActPayload`, …). */
  payloadName?: string;
  header: DocumentHeader;
  /** Back references of the payload: 730 the note, 916 the act's previous transaction, 119 the storage act. */
  references: ReferencedDocument[];
  /** The trade parties named directly in the payload (`ConsignorTradeParty`, `CarrierTradeParty`, …). */
  parties: TradeParty[];
  certifyingParties: TradeParty[];
  signatures: PartySignature[];
};

export type EttnModel = EttnNote | EttnAct;
export type EttnDocument = { model: EttnModel; root: XmlElement };

export type ReadError = XmlError | { code: 'ettn.unknown_root'; message: string };
export type ReadResult = { ok: true; document: EttnDocument } | { ok: false; error: ReadError };

// --- reading ------------------------------------------------------------------------------------------------------

/** The local part of a qualified name: act payloads write their children without the `ram:` prefix. */
const local = (name: string): string => name.slice(name.indexOf(':') + 1);
const kids = (e: XmlElement | undefined, name: string): XmlElement[] =>
  e === undefined ? [] : childElements(e).filter((c) => local(c.name) === name);
const kid = (e: XmlElement | undefined, ...path: string[]): XmlElement | undefined =>
  path.reduce<XmlElement | undefined>((at, name) => kids(at, name)[0], e);
const txt = (e: XmlElement | undefined, ...path: string[]): string | undefined => textOf(kid(e, ...path))?.trim();
const attr = (e: XmlElement | undefined, name: string): string | undefined => e?.attributes[name];

/** Drops undefined properties, so a read model compares equal to one built by hand. */
const compact = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const readAddress = (e: XmlElement | undefined): Address | undefined =>
  e === undefined
    ? undefined
    : compact({
        postcode: txt(e, 'PostcodeCode'),
        street: txt(e, 'StreetName'),
        city: txt(e, 'CityName'),
        countryId: txt(e, 'CountryID'),
        subdivision: txt(e, 'CountrySubDivisionName'),
      });

export const readTradeParty = (e: XmlElement): TradeParty =>
  compact({
    roleCode: txt(e, 'RoleCode'),
    id: txt(e, 'ID'),
    idScheme: attr(kid(e, 'ID'), 'schemeAgencyID'),
    name: txt(e, 'Name'),
    personName: txt(e, 'DefinedTradeContact', 'PersonName'),
    phone: txt(e, 'DefinedTradeContact', 'TelephoneUniversalCommunication', 'CompleteNumber'),
    mobile: txt(e, 'DefinedTradeContact', 'MobileTelephoneUniversalCommunication', 'CompleteNumber'),
    email: txt(e, 'DefinedTradeContact', 'EmailURIUniversalCommunication', 'CompleteNumber'),
    address: readAddress(kid(e, 'PostalTradeAddress')),
    taxId: txt(e, 'SpecifiedTaxRegistration', 'ID'),
    registrations: kids(e, 'SpecifiedGovernmentRegistration').map((r) =>
      compact({ id: txt(r, 'ID') ?? '', typeCode: txt(r, 'TypeCode') }),
    ),
  });

const readLocation = (e: XmlElement | undefined): LogisticsLocation | undefined =>
  e === undefined
    ? undefined
    : compact({
        id: txt(e, 'ID'),
        idScheme: attr(kid(e, 'ID'), 'schemeAgencyID'),
        name: txt(e, 'Name'),
        typeCode: txt(e, 'TypeCode'),
        description: txt(e, 'Description'),
        latitude: txt(e, 'PhysicalGeographicalCoordinate', 'LatitudeMeasure'),
        longitude: txt(e, 'PhysicalGeographicalCoordinate', 'LongitudeMeasure'),
        gln: txt(e, 'PhysicalGeographicalCoordinate', 'SystemID'),
      });

export const readReferencedDocument = (e: XmlElement): ReferencedDocument => {
  const file = kid(e, 'AttachedSpecifiedBinaryFile');
  return compact({
    typeCode: txt(e, 'TypeCode'),
    id: txt(e, 'ID'),
    remarks: txt(e, 'Remarks'),
    issueDateTime: txt(e, 'FormattedIssueDateTime', 'DateTimeString'),
    file:
      file === undefined
        ? undefined
        : compact({
            id: txt(file, 'ID'),
            uri: txt(file, 'URIID'),
            mimeCode: txt(file, 'MIMECode'),
            size: txt(file, 'SizeMeasure'),
          }),
  });
};

const readNotes = (e: XmlElement | undefined, name: string): Note[] =>
  kids(e, name).map((n) =>
    compact({
      code: txt(n, 'ContentCode'),
      agency: attr(kid(n, 'ContentCode'), 'listAgencyID'),
      content: txt(n, 'Content'),
    }),
  );

const readEvent = (e: XmlElement | undefined): TransportEvent | undefined =>
  e === undefined
    ? undefined
    : { certifyingParties: kids(e, 'CertifyingTradeParty').map(readTradeParty), notes: readNotes(e, 'ApplicableNote') };

const readItem = (e: XmlElement): ConsignmentItem =>
  compact({
    sequence: txt(e, 'SequenceNumeric'),
    invoiceAmount: txt(e, 'InvoiceAmount'),
    currency: attr(kid(e, 'InvoiceAmount'), 'currencyID'),
    grossWeight: txt(e, 'GrossWeightMeasure'),
    weightUnit: attr(kid(e, 'GrossWeightMeasure'), 'unitCode'),
    uktzed: txt(e, 'GlobalID'),
    name: txt(e, 'NatureIdentificationTransportCargo', 'Identification'),
    packageQuantity: txt(e, 'TransportLogisticsPackage', 'ItemQuantity'),
    packageType: txt(e, 'TransportLogisticsPackage', 'Type'),
  });

const readEquipment = (e: XmlElement): TransportEquipment =>
  compact({
    id: txt(e, 'ID'),
    categoryCode: txt(e, 'CategoryCode'),
    characteristicCode: txt(e, 'CharacteristicCode'),
    seals: kids(e, 'AffixedLogisticsSeal').map((s) => txt(s, 'ID') ?? ''),
    temperature: mapDefined(kid(e, 'SettingTransportSettingTemperature'), (t) =>
      compact({
        min: txt(t, 'MinimumValueMeasure'),
        max: txt(t, 'MaximumValueMeasure'),
        unit: attr(kid(t, 'MinimumValueMeasure') ?? kid(t, 'MaximumValueMeasure'), 'unitCode'),
      }),
    ),
    notes: kids(e, 'ApplicableNote').map((n) => ({
      code: txt(n, 'ContentCode') ?? '',
      content: txt(n, 'Content') ?? '',
    })),
  });

const readHeader = (content: XmlElement): DocumentHeader => {
  const context = kid(content, 'ExchangedDocumentContext');
  const doc = kid(content, 'ExchangedDocument');
  return compact({
    transactionId: txt(context, 'SpecifiedTransactionID') ?? '',
    businessProcess: txt(context, 'BusinessProcessSpecifiedDocumentContextParameter', 'ID'),
    guideline: txt(context, 'GuidelineSpecifiedDocumentContextParameter', 'ID'),
    number: txt(doc, 'ID'),
    issueDateTime: txt(doc, 'IssueDateTime', 'DateTime'),
    remarks: txt(doc, 'Remarks'),
    issuePlaceName: txt(doc, 'IssueLogisticsLocation', 'Name'),
    issuePlaceAddress: txt(doc, 'IssueLogisticsLocation', 'Description'),
    notes: readNotes(doc, 'IncludedNote'),
  });
};

export const readSignatures = (root: XmlElement): PartySignature[] =>
  kids(kid(root, 'UaSignatureStorage'), 'Signature').map((s) =>
    compact({
      roleCode: txt(s, 'SigningPartyRoleCode') ?? '',
      signature: (txt(s, 'PartySignature') ?? '').replace(/\s+/g, ''),
      name: txt(s, 'Name'),
      position: txt(s, 'Position'),
      taxId: txt(s, 'SpecifiedTaxRegistration', 'ID'),
    }),
  );

const readNoteModel = (root: XmlElement, content: XmlElement): EttnNote => {
  const c = kid(content, 'SpecifiedSupplyChainConsignment');
  const one = (name: string) => kid(c, name);
  return {
    kind: 'ettn',
    header: readHeader(content),
    consignment: compact({
      grossWeight: txt(c, 'GrossWeightMeasure'),
      grossWeightUnit: attr(one('GrossWeightMeasure'), 'unitCode'),
      amount: txt(c, 'AssociatedInvoiceAmount'),
      currency: attr(one('AssociatedInvoiceAmount'), 'currencyID'),
      itemQuantity: txt(c, 'ConsignmentItemQuantity'),
      consignor: mapDefined(one('ConsignorTradeParty'), readTradeParty),
      consignee: mapDefined(one('ConsigneeTradeParty'), readTradeParty),
      carrier: mapDefined(one('CarrierTradeParty'), readTradeParty),
      notified: kids(c, 'NotifiedTradeParty').map(readTradeParty),
      loading: readLocation(one('CarrierAcceptanceLogisticsLocation')),
      unloading: readLocation(one('ConsigneeReceiptLogisticsLocation')),
      referencedDocuments: kids(c, 'AssociatedReferencedDocument').map(readReferencedDocument),
      delivery: readEvent(one('DeliveryTransportEvent')),
      pickUp: readEvent(one('PickUpTransportEvent')),
      items: kids(c, 'IncludedSupplyChainConsignmentItem').map(readItem),
      equipment: kids(c, 'UtilizedLogisticsTransportEquipment').map(readEquipment),
      transportTypeDescription: txt(c, 'DeliveryInstructions', 'Description'),
      transportTypeCode: txt(c, 'DeliveryInstructions', 'DescriptionCode'),
      previous: mapDefined(one('PreviousAdministrativeReferencedDocument'), readReferencedDocument),
    }),
    signatures: readSignatures(root),
  };
};

const readActModel = (root: XmlElement, content: XmlElement): EttnAct => {
  const header = readHeader(content);
  const payload = childElements(content).find((c) => c.name.endsWith('Payload') && c.name !== 'CertifyingPartyPayload');
  return compact({
    kind: 'act' as const,
    actType: actTypeOfGuideline(header.guideline),
    payloadName: payload?.name,
    header,
    references: kids(payload, 'PreviousAdministrativeReferencedDocument').map(readReferencedDocument),
    parties: (payload === undefined ? [] : childElements(payload))
      .filter((c) => local(c.name).endsWith('TradeParty'))
      .map(readTradeParty),
    certifyingParties: kids(kid(content, 'CertifyingPartyPayload'), 'CertifyingTradeParty').map(readTradeParty),
    signatures: readSignatures(root),
  });
};

const mapDefined = <A, B>(value: A | undefined, f: (a: A) => B): B | undefined =>
  value === undefined ? undefined : f(value);

/** The element a party signs: `eCMR` of a note, `ACT` of an act. */
export const contentElement = (root: XmlElement): XmlElement | undefined =>
  root.name === 'UAECMR' ? kid(root, 'eCMR') : root.name === 'UAECMR_ACT' ? kid(root, 'ACT') : undefined;

/** The typed view of a document's tree. */
export const modelOf = (root: XmlElement): EttnModel | undefined => {
  const content = contentElement(root);
  if (content === undefined) return undefined;
  return root.name === 'UAECMR' ? readNoteModel(root, content) : readActModel(root, content);
};

/**
 * Reads an e-TTN v3 note or act. Never throws on bad input; a text that is not XML, or XML of another root (an EDIN
 * transportation order, say), gives an error with a stable code.
 */
export const readEttn = (input: string | Uint8Array, maxBytes?: number): ReadResult => {
  const parsed = parseXml(input, maxBytes);
  if (!parsed.ok) return parsed;
  const model = modelOf(parsed.root);
  if (model === undefined) {
    return {
      ok: false,
      error: {
        code: 'ettn.unknown_root',
        message: `root ${parsed.root.name} is neither UAECMR/eCMR nor UAECMR_ACT/ACT`,
      },
    };
  }
  return { ok: true, document: { model, root: parsed.root } };
};

/** Writes a document back (its tree, with whatever the model does not name). */
export const writeEttn = (document: EttnDocument): string => serializeXml(document.root);

// --- writing a note from the model -------------------------------------------------------------------------------

const ram: typeof el = (name, attributesOrChildren, maybeChildren) =>
  el(`ram:${name}`, attributesOrChildren, maybeChildren);
const opt = (name: string, value: string | undefined, attributes?: Record<string, string>): XmlElement | undefined =>
  value === undefined ? undefined : attributes === undefined ? ram(name, value) : ram(name, attributes, value);
const withAttr = (key: string, value: string | undefined): Record<string, string> | undefined =>
  value === undefined ? undefined : { [key]: value };

const writeTradeParty = (name: string, p: TradeParty): XmlElement =>
  ram(name, [
    opt('ID', p.id, withAttr('schemeAgencyID', p.idScheme) ?? {}),
    opt('Name', p.name),
    opt('RoleCode', p.roleCode),
    p.personName === undefined && p.phone === undefined && p.mobile === undefined && p.email === undefined
      ? undefined
      : ram('DefinedTradeContact', [
          opt('PersonName', p.personName),
          p.phone === undefined ? undefined : ram('TelephoneUniversalCommunication', [ram('CompleteNumber', p.phone)]),
          p.mobile === undefined
            ? undefined
            : ram('MobileTelephoneUniversalCommunication', [ram('CompleteNumber', p.mobile)]),
          p.email === undefined ? undefined : ram('EmailURIUniversalCommunication', [ram('CompleteNumber', p.email)]),
        ]),
    p.address === undefined
      ? undefined
      : ram('PostalTradeAddress', [
          opt('PostcodeCode', p.address.postcode),
          opt('StreetName', p.address.street),
          opt('CityName', p.address.city),
          opt('CountryID', p.address.countryId),
          opt('CountrySubDivisionName', p.address.subdivision),
        ]),
    p.taxId === undefined ? undefined : ram('SpecifiedTaxRegistration', [ram('ID', p.taxId)]),
    ...p.registrations.map((r) =>
      ram('SpecifiedGovernmentRegistration', [ram('ID', r.id), opt('TypeCode', r.typeCode)]),
    ),
  ]);

const writeLocation = (name: string, l: LogisticsLocation): XmlElement =>
  ram(name, [
    opt('ID', l.id, withAttr('schemeAgencyID', l.idScheme) ?? {}),
    opt('Name', l.name),
    opt('TypeCode', l.typeCode),
    opt('Description', l.description),
    l.latitude === undefined && l.longitude === undefined && l.gln === undefined
      ? undefined
      : ram('PhysicalGeographicalCoordinate', [
          opt('LatitudeMeasure', l.latitude),
          opt('LongitudeMeasure', l.longitude),
          opt('SystemID', l.gln, { schemeAgencyID: 'GLN' }),
        ]),
  ]);

const writeReferencedDocument = (name: string, d: ReferencedDocument): XmlElement =>
  el(name.includes(':') ? name : `ram:${name}`, [
    opt('TypeCode', d.typeCode),
    opt('ID', d.id),
    opt('Remarks', d.remarks),
    d.issueDateTime === undefined
      ? undefined
      : ram('FormattedIssueDateTime', [el('qdt:DateTimeString', d.issueDateTime)]),
    d.file === undefined
      ? undefined
      : ram('AttachedSpecifiedBinaryFile', [
          opt('ID', d.file.id),
          opt('URIID', d.file.uri),
          opt('MIMECode', d.file.mimeCode),
          opt('SizeMeasure', d.file.size),
        ]),
  ]);

const writeNotes = (name: string, notes: Note[]): XmlElement[] =>
  notes.map((n) =>
    ram(name, [
      n.code === undefined ? undefined : ram('ContentCode', withAttr('listAgencyID', n.agency) ?? {}, n.code),
      opt('Content', n.content),
    ]),
  );

const writeEvent = (name: string, e: TransportEvent): XmlElement =>
  ram(name, [
    ...e.certifyingParties.map((p) => writeTradeParty('CertifyingTradeParty', p)),
    ...writeNotes('ApplicableNote', e.notes),
  ]);

const writeItem = (i: ConsignmentItem): XmlElement =>
  ram('IncludedSupplyChainConsignmentItem', [
    opt('SequenceNumeric', i.sequence),
    opt('InvoiceAmount', i.invoiceAmount, withAttr('currencyID', i.currency)),
    opt('GrossWeightMeasure', i.grossWeight, withAttr('unitCode', i.weightUnit)),
    opt('GlobalID', i.uktzed, { schemeAgencyID: 'УКТЗЕД' }),
    i.name === undefined ? undefined : ram('NatureIdentificationTransportCargo', [ram('Identification', i.name)]),
    i.packageQuantity === undefined && i.packageType === undefined
      ? undefined
      : ram('TransportLogisticsPackage', [opt('ItemQuantity', i.packageQuantity), opt('Type', i.packageType)]),
  ]);

const writeEquipment = (e: TransportEquipment): XmlElement =>
  ram('UtilizedLogisticsTransportEquipment', [
    opt('ID', e.id),
    opt('CategoryCode', e.categoryCode),
    opt('CharacteristicCode', e.characteristicCode),
    ...e.seals.map((s) => ram('AffixedLogisticsSeal', [ram('ID', s)])),
    mapDefined(e.temperature, (t) =>
      ram('SettingTransportSettingTemperature', [
        opt('MinimumValueMeasure', t.min, withAttr('unitCode', t.unit)),
        opt('MaximumValueMeasure', t.max, withAttr('unitCode', t.unit)),
      ]),
    ),
    ...e.notes.map((n) => ram('ApplicableNote', [ram('ContentCode', n.code), ram('Content', n.content)])),
  ]);

const writeHeader = (h: DocumentHeader): XmlNode[] => [
  el('ExchangedDocumentContext', [
    ram('SpecifiedTransactionID', h.transactionId),
    h.businessProcess === undefined
      ? undefined
      : ram('BusinessProcessSpecifiedDocumentContextParameter', [ram('ID', h.businessProcess)]),
    h.guideline === undefined ? undefined : ram('GuidelineSpecifiedDocumentContextParameter', [ram('ID', h.guideline)]),
  ]),
  el('ExchangedDocument', [
    opt('ID', h.number),
    h.issueDateTime === undefined ? undefined : ram('IssueDateTime', [el('udt:DateTime', h.issueDateTime)]),
    opt('Remarks', h.remarks),
    ...writeNotes('IncludedNote', h.notes),
    h.issuePlaceName === undefined && h.issuePlaceAddress === undefined
      ? undefined
      : ram('IssueLogisticsLocation', [opt('Name', h.issuePlaceName), opt('Description', h.issuePlaceAddress)]),
  ]),
];

export const writeSignatureStorage = (signatures: PartySignature[]): XmlElement =>
  el(
    'UaSignatureStorage',
    signatures.map((s) =>
      el('Signature', [
        el('SigningPartyRoleCode', s.roleCode),
        el('PartySignature', s.signature),
        s.name === undefined ? undefined : el('Name', s.name),
        s.position === undefined ? undefined : el('Position', s.position),
        s.taxId === undefined ? undefined : el('SpecifiedTaxRegistration', [ram('ID', s.taxId)]),
      ]),
    ),
  );

/** The `eCMR` element of a note, in the order of the v3 field table. */
export const buildNoteContent = (note: EttnNote): XmlElement => {
  const c = note.consignment;
  return el('eCMR', [
    ...writeHeader(note.header),
    el('SpecifiedSupplyChainConsignment', [
      opt('GrossWeightMeasure', c.grossWeight, withAttr('unitCode', c.grossWeightUnit)),
      opt('AssociatedInvoiceAmount', c.amount, withAttr('currencyID', c.currency)),
      opt('ConsignmentItemQuantity', c.itemQuantity),
      mapDefined(c.consignor, (p) => writeTradeParty('ConsignorTradeParty', p)),
      mapDefined(c.consignee, (p) => writeTradeParty('ConsigneeTradeParty', p)),
      mapDefined(c.carrier, (p) => writeTradeParty('CarrierTradeParty', p)),
      ...c.notified.map((p) => writeTradeParty('NotifiedTradeParty', p)),
      mapDefined(c.loading, (l) => writeLocation('CarrierAcceptanceLogisticsLocation', l)),
      mapDefined(c.unloading, (l) => writeLocation('ConsigneeReceiptLogisticsLocation', l)),
      ...c.referencedDocuments.map((d) => writeReferencedDocument('AssociatedReferencedDocument', d)),
      mapDefined(c.delivery, (e) => writeEvent('DeliveryTransportEvent', e)),
      mapDefined(c.pickUp, (e) => writeEvent('PickUpTransportEvent', e)),
      ...c.items.map(writeItem),
      ...c.equipment.map(writeEquipment),
      c.transportTypeCode === undefined && c.transportTypeDescription === undefined
        ? undefined
        : ram('DeliveryInstructions', [
            opt('Description', c.transportTypeDescription),
            opt('DescriptionCode', c.transportTypeCode),
          ]),
      mapDefined(c.previous, (d) => writeReferencedDocument('PreviousAdministrativeReferencedDocument', d)),
    ]),
  ]);
};

const namespaceAttributes = (): Record<string, string> => ({
  'xmlns:qdt': NS.qdt,
  'xmlns:ram': NS.ram,
  'xmlns:uas': NS.uas,
  'xmlns:udt': NS.udt,
});

/** The whole `UAECMR` element of a note built by the portal (the signature storage only when it holds any). */
export const buildNoteElement = (note: EttnNote): XmlElement =>
  el('UAECMR', namespaceAttributes(), [
    buildNoteContent(note),
    note.signatures.length === 0 ? undefined : writeSignatureStorage(note.signatures),
  ]);

/** A note of the model as a document (tree and model), ready to write, sign or validate. */
export const noteDocument = (note: EttnNote): EttnDocument => {
  const root = buildNoteElement(note);
  return { root, model: modelOf(root) as EttnNote };
};

/** Replaces the signature storage of a document with the given signatures (the content stays as it is). */
export const withSignatures = (document: EttnDocument, signatures: PartySignature[]): EttnDocument => {
  const others = document.root.children.filter((c) => typeof c === 'string' || local(c.name) !== 'UaSignatureStorage');
  const storage = kid(document.root, 'UaSignatureStorage');
  // Keep what the storage holds besides signatures (the visual reference of acts).
  const keep = storage === undefined ? [] : childElements(storage).filter((c) => c.name !== 'Signature');
  const next = writeSignatureStorage(signatures);
  const root: XmlElement = {
    ...document.root,
    children: [...others, { ...next, children: [...keep, ...next.children] }],
  };
  const model = modelOf(root);
  return { root, model: model ?? document.model };
};
