/**
 * The validator of e-TTN v3 documents, driven by the v3 field table (`fields.generated.ts`, from
 * ettn_v3_fields.csv): mandatory fields, types and lengths, code lists, and the check digits of EDRPOU, RNOKPP and
 * GLN. It returns findings and never throws; each finding names the table's field number and the element path, so a
 * screen can point at the field and the API can answer code 29 (document does not match the scheme) with them.
 *
 * What the table leaves open is written down where it is decided: the delivery event's parties are mandatory only
 * once the consignee signs, and the signature storage is not required of an unsigned draft (the registry counts the
 * signatures a step needs: code 26).
 */
import { isValidEdrpou, isValidGln, isValidRnokpp } from './checksums.ts';
import { ETTN_V3_FIELDS, type FieldNo } from './fields.generated.ts';
import {
  ACT_BUSINESS_PROCESS,
  ETTN_BUSINESS_PROCESS,
  ETTN_GENERIC_GUIDELINE,
  type EttnAct,
  type EttnModel,
  type EttnNote,
  type LogisticsLocation,
  type PartySignature,
  type ReferencedDocument,
  type TradeParty,
} from './model.ts';
import { PARTY_ROLE_CODES } from './roles.ts';

export type FindingCode =
  'required' | 'type' | 'length' | 'format' | 'code_list' | 'edrpou_checksum' | 'rnokpp_checksum' | 'gln_check_digit';

export type Finding = {
  /** Element path from the root's child: `eCMR/SpecifiedSupplyChainConsignment/ram:CarrierTradeParty/ram:ID`. */
  path: string;
  /** The v3 table's field number (`3.6`), or `TradeParty` for the common party rules. */
  field: FieldNo | 'TradeParty';
  code: FindingCode;
  /** Parameters of the message (value, allowed codes, lengths): the display text is the UI's. */
  params: Record<string, string | number>;
  /** English, for logs. */
  message: string;
};

/** Code lists of CODES.md used by the rules. */
export const CODE_LISTS = {
  partyIdScheme: ['ЄДРПОУ', 'РНОКПП', 'ПАСПОРТ'],
  locationTypeCode: ['10', '5'],
  equipmentCategory: ['TE', 'CN'],
  trailerCharacteristic: ['14', '17'],
  containerCharacteristic: ['21', '23'],
  registrationTypeCode: ['TRADEPARTY_GLN', 'TRADEPARTY_UNZR', 'DRIVER_GLN', 'DRIVER_UNZR'],
  referencedDocumentTypeCode: ['730', '916', '723', '290', '119', '3', '105'],
  weightUnit: ['KGM'],
  currency: ['UAH'],
  transportType: ['TRANSPORTATION_TYPE'],
  notifiedRole: ['OB', 'FW', 'WD', 'COP', 'AF', 'AB'],
} as const;

const FIELD_MEANING = new Map<string, string>(ETTN_V3_FIELDS.map((f) => [f.no, f.meaning]));

const DECIMAL = /^-?\d+(\.\d+)?$/;
/** ISO 8601 date-time with an offset or Z (the table: 2021-12-13T14:19:23+02:00). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
/** Driver's licence: three capital letters (Latin or Ukrainian) and six digits. */
const DRIVER_LICENCE = /^[A-ZА-ЯІЇЄҐ]{3}\d{6}$/u;
const UKTZED = /^\d{4,10}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

class Findings {
  readonly list: Finding[] = [];

  add(field: Finding['field'], path: string, code: FindingCode, params: Finding['params'] = {}): void {
    const meaning = FIELD_MEANING.get(field) ?? 'trade party';
    const detail = Object.entries(params)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    this.list.push({
      path,
      field,
      code,
      params,
      message: `${code}: ${path} (${field}, ${meaning})${detail ? ': ' + detail : ''}`,
    });
  }

  required(field: Finding['field'], path: string, value: unknown): boolean {
    if (value === undefined || value === '') {
      this.add(field, path, 'required');
      return false;
    }
    return true;
  }

  decimal(field: Finding['field'], path: string, value: string | undefined, mandatory = true): void {
    if (mandatory ? !this.required(field, path, value) : value === undefined) return;
    if (!DECIMAL.test(value ?? '')) this.add(field, path, 'type', { value: value ?? '', type: 'decimal' });
  }

  dateTime(field: Finding['field'], path: string, value: string | undefined, mandatory = true): void {
    if (mandatory ? !this.required(field, path, value) : value === undefined) return;
    if (!DATE_TIME.test(value ?? '') || Number.isNaN(Date.parse(value ?? ''))) {
      this.add(field, path, 'type', { value: value ?? '', type: 'datetime' });
    }
  }

  oneOf(field: Finding['field'], path: string, value: string | undefined, allowed: readonly string[]): void {
    if (value !== undefined && !allowed.includes(value)) {
      this.add(field, path, 'code_list', { value, allowed: allowed.join(' ') });
    }
  }

  edrpou(field: Finding['field'], path: string, value: string): void {
    if (!isValidEdrpou(value)) this.add(field, path, 'edrpou_checksum', { value });
  }

  rnokpp(field: Finding['field'], path: string, value: string): void {
    if (!isValidRnokpp(value)) this.add(field, path, 'rnokpp_checksum', { value });
  }

  gln(field: Finding['field'], path: string, value: string): void {
    if (!isValidGln(value)) this.add(field, path, 'gln_check_digit', { value });
  }
}

const C = 'eCMR/SpecifiedSupplyChainConsignment';

/**
 * The common TradeParty row: ID with its scheme (and the EDRPOU or RNOKPP checksum), Name, RoleCode, the address
 * (street, city, country mandatory when given), the responsible person's RNOKPP and the GLN registrations.
 */
const checkParty = (
  f: Findings,
  field: Finding['field'],
  path: string,
  party: TradeParty,
  expectedRoles: readonly string[] | undefined,
  options: { requireGln?: boolean } = {},
): void => {
  if (f.required(field, `${path}/ram:ID`, party.id) && party.id !== undefined) {
    f.oneOf(field, `${path}/ram:ID/@schemeAgencyID`, party.idScheme, CODE_LISTS.partyIdScheme);
    if (party.idScheme === 'ЄДРПОУ') f.edrpou(field, `${path}/ram:ID`, party.id);
    if (party.idScheme === 'РНОКПП') f.rnokpp(field, `${path}/ram:ID`, party.id);
  }
  f.required(field, `${path}/ram:Name`, party.name);
  if (f.required(field, `${path}/ram:RoleCode`, party.roleCode) && expectedRoles !== undefined) {
    f.oneOf(field, `${path}/ram:RoleCode`, party.roleCode, expectedRoles);
  }
  if (party.address !== undefined) {
    const a = `${path}/ram:PostalTradeAddress`;
    f.required('TradeParty', `${a}/ram:StreetName`, party.address.street);
    f.required('TradeParty', `${a}/ram:CityName`, party.address.city);
    f.required('TradeParty', `${a}/ram:CountryID`, party.address.countryId);
  }
  if (party.taxId !== undefined) f.rnokpp(field, `${path}/ram:SpecifiedTaxRegistration/ram:ID`, party.taxId);
  party.registrations.forEach((r, i) => {
    const at = `${path}/ram:SpecifiedGovernmentRegistration[${i + 1}]`;
    if (r.typeCode === undefined) return; // the driver's licence (checked with the carrier)
    f.oneOf(field, `${at}/ram:TypeCode`, r.typeCode, CODE_LISTS.registrationTypeCode);
    if (r.typeCode.endsWith('_GLN')) f.gln(field, `${at}/ram:ID`, r.id);
  });
  if (options.requireGln === true && !party.registrations.some((r) => r.typeCode === 'TRADEPARTY_GLN')) {
    f.add(field, `${path}/ram:SpecifiedGovernmentRegistration[ram:TypeCode=TRADEPARTY_GLN]`, 'required');
  }
};

const checkLocation = (f: Findings, field: FieldNo, path: string, l: LogisticsLocation | undefined): void => {
  if (!f.required(field, path, l) || l === undefined) return;
  if (f.required(field, `${path}/ram:ID`, l.id))
    f.oneOf(field, `${path}/ram:ID/@schemeAgencyID`, l.idScheme, ['КАТОТТГ']);
  f.required(field, `${path}/ram:Name`, l.name);
  if (f.required(field, `${path}/ram:TypeCode`, l.typeCode)) {
    f.oneOf(field, `${path}/ram:TypeCode`, l.typeCode, CODE_LISTS.locationTypeCode);
  }
  f.required(field, `${path}/ram:Description`, l.description);
  f.decimal(field, `${path}/ram:PhysicalGeographicalCoordinate/ram:LatitudeMeasure`, l.latitude, false);
  f.decimal(field, `${path}/ram:PhysicalGeographicalCoordinate/ram:LongitudeMeasure`, l.longitude, false);
  const gln = `${path}/ram:PhysicalGeographicalCoordinate/ram:SystemID`;
  if (f.required(field, gln, l.gln) && l.gln !== undefined) f.gln(field, gln, l.gln);
};

const checkReference = (f: Findings, field: FieldNo, path: string, d: ReferencedDocument): void => {
  f.required(field, `${path}/ram:ID`, d.id);
  f.oneOf(field, `${path}/ram:TypeCode`, d.typeCode, CODE_LISTS.referencedDocumentTypeCode);
  f.dateTime(field, `${path}/ram:FormattedIssueDateTime/qdt:DateTimeString`, d.issueDateTime, false);
};

const checkSignatures = (f: Findings, signatures: PartySignature[]): void => {
  signatures.forEach((s, i) => {
    const at = `UaSignatureStorage/Signature[${i + 1}]`;
    if (f.required('II', `${at}/SigningPartyRoleCode`, s.roleCode)) {
      f.oneOf('II', `${at}/SigningPartyRoleCode`, s.roleCode, PARTY_ROLE_CODES);
    }
    if (f.required('II', `${at}/PartySignature`, s.signature) && !BASE64.test(s.signature)) {
      f.add('II', `${at}/PartySignature`, 'format', { format: 'base64' });
    }
    if (s.taxId !== undefined) f.rnokpp('II', `${at}/SpecifiedTaxRegistration/ram:ID`, s.taxId);
  });
};

const validateNote = (note: EttnNote): Finding[] => {
  const f = new Findings();
  const h = note.header;
  const ctx = 'eCMR/ExchangedDocumentContext';
  if (f.required('1.1', `${ctx}/ram:SpecifiedTransactionID`, h.transactionId) && !/^\d+$/.test(h.transactionId)) {
    f.add('1.1', `${ctx}/ram:SpecifiedTransactionID`, 'type', { value: h.transactionId, type: 'integer' });
  }
  const bp = `${ctx}/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID`;
  if (f.required('1.2.1', bp, h.businessProcess)) f.oneOf('1.2.1', bp, h.businessProcess, [ETTN_BUSINESS_PROCESS]);
  const gl = `${ctx}/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID`;
  if (f.required('1.3.1', gl, h.guideline)) f.oneOf('1.3.1', gl, h.guideline, [ETTN_GENERIC_GUIDELINE]);
  f.required('2.1', 'eCMR/ExchangedDocument/ram:ID', h.number);
  f.dateTime('2.2.1', 'eCMR/ExchangedDocument/ram:IssueDateTime/udt:DateTime', h.issueDateTime);
  f.required('2.5.1', 'eCMR/ExchangedDocument/ram:IssueLogisticsLocation/ram:Name', h.issuePlaceName);
  f.required('2.5.2', 'eCMR/ExchangedDocument/ram:IssueLogisticsLocation/ram:Description', h.issuePlaceAddress);

  const c = note.consignment;
  f.decimal('3.1', `${C}/ram:GrossWeightMeasure`, c.grossWeight);
  f.oneOf('3.1', `${C}/ram:GrossWeightMeasure/@unitCode`, c.grossWeightUnit, CODE_LISTS.weightUnit);
  f.decimal('3.2', `${C}/ram:AssociatedInvoiceAmount`, c.amount);
  f.oneOf('3.2', `${C}/ram:AssociatedInvoiceAmount/@currencyID`, c.currency, CODE_LISTS.currency);
  f.decimal('3.3', `${C}/ram:ConsignmentItemQuantity`, c.itemQuantity);

  // The party that sends transaction 0 is the consignor: its GLN is mandatory then (TradeParty row).
  const first = h.transactionId === '0';
  const party = (no: FieldNo, name: string, p: TradeParty | undefined, role: string, requireGln: boolean) => {
    if (f.required(no, `${C}/ram:${name}`, p) && p !== undefined)
      checkParty(f, no, `${C}/ram:${name}`, p, [role], { requireGln });
  };
  party('3.4', 'ConsignorTradeParty', c.consignor, 'CZ', first);
  party('3.5', 'ConsigneeTradeParty', c.consignee, 'CN', false);
  party('3.6', 'CarrierTradeParty', c.carrier, 'CA', false);
  if (c.carrier !== undefined) {
    const ca = `${C}/ram:CarrierTradeParty`;
    f.required('3.6', `${ca}/ram:DefinedTradeContact/ram:PersonName`, c.carrier.personName);
    f.required('3.6', `${ca}/ram:SpecifiedTaxRegistration/ram:ID`, c.carrier.taxId);
    const licence = c.carrier.registrations.find((r) => r.typeCode === undefined);
    const at = `${ca}/ram:SpecifiedGovernmentRegistration[not(ram:TypeCode)]/ram:ID`;
    if (f.required('3.6', at, licence?.id) && licence !== undefined && !DRIVER_LICENCE.test(licence.id)) {
      f.add('3.6', at, 'format', { value: licence.id, format: 'AAA999999' });
    }
  }
  const notifiedNo = (role: string | undefined): FieldNo =>
    role === 'FW' ? '3.7' : role === 'WD' ? '3.9' : role === 'COP' ? '3.10' : '3.8';
  c.notified.forEach((p, i) => {
    checkParty(f, notifiedNo(p.roleCode), `${C}/ram:NotifiedTradeParty[${i + 1}]`, p, CODE_LISTS.notifiedRole);
  });
  if (!c.notified.some((p) => p.roleCode === 'OB'))
    f.add('3.8', `${C}/ram:NotifiedTradeParty[ram:RoleCode=OB]`, 'required');

  checkLocation(f, '3.11', `${C}/ram:CarrierAcceptanceLogisticsLocation`, c.loading);
  checkLocation(f, '3.12', `${C}/ram:ConsigneeReceiptLogisticsLocation`, c.unloading);
  c.referencedDocuments.forEach((d, i) => {
    const no: FieldNo =
      d.typeCode === '723' ? '3.13' : d.typeCode === '290' ? '3.14' : d.typeCode === '916' ? '3.15' : '3.16';
    checkReference(f, no, `${C}/ram:AssociatedReferencedDocument[${i + 1}]`, d);
  });
  f.required('3.17', `${C}/ram:DeliveryTransportEvent`, c.delivery);
  [c.delivery, c.pickUp].forEach((event, e) => {
    event?.certifyingParties.forEach((p, i) => {
      const no: FieldNo = e === 0 ? '3.17' : '3.18';
      const at = `${C}/ram:${e === 0 ? 'Delivery' : 'PickUp'}TransportEvent/ram:CertifyingTradeParty[${i + 1}]`;
      checkParty(f, no, at, p, PARTY_ROLE_CODES);
    });
  });

  if (c.items.length === 0) f.add('3.19', `${C}/ram:IncludedSupplyChainConsignmentItem`, 'required');
  c.items.forEach((item, i) => {
    const at = `${C}/ram:IncludedSupplyChainConsignmentItem[${i + 1}]`;
    f.required('3.19', `${at}/ram:SequenceNumeric`, item.sequence);
    f.decimal('3.19', `${at}/ram:InvoiceAmount`, item.invoiceAmount);
    f.required('3.19', `${at}/ram:InvoiceAmount/@currencyID`, item.currency);
    f.decimal('3.19', `${at}/ram:GrossWeightMeasure`, item.grossWeight);
    f.required('3.19', `${at}/ram:GrossWeightMeasure/@unitCode`, item.weightUnit);
    f.required('3.19', `${at}/ram:NatureIdentificationTransportCargo/ram:Identification`, item.name);
    if (item.uktzed !== undefined && !UKTZED.test(item.uktzed)) {
      f.add('3.19', `${at}/ram:GlobalID`, 'length', { value: item.uktzed, min: 4, max: 10 });
    }
  });

  const trucks = c.equipment.filter((e) => e.categoryCode === undefined);
  if (trucks.length === 0) f.add('3.20', `${C}/ram:UtilizedLogisticsTransportEquipment`, 'required');
  c.equipment.forEach((e, i) => {
    const at = `${C}/ram:UtilizedLogisticsTransportEquipment[${i + 1}]`;
    const no: FieldNo = e.categoryCode === undefined ? '3.20' : e.categoryCode === 'CN' ? '3.22' : '3.21';
    f.required(no, `${at}/ram:ID`, e.id);
    f.oneOf(no, `${at}/ram:CategoryCode`, e.categoryCode, CODE_LISTS.equipmentCategory);
    if (e.categoryCode === 'TE')
      f.oneOf(no, `${at}/ram:CharacteristicCode`, e.characteristicCode, CODE_LISTS.trailerCharacteristic);
    if (e.categoryCode === 'CN')
      f.oneOf(no, `${at}/ram:CharacteristicCode`, e.characteristicCode, CODE_LISTS.containerCharacteristic);
    if (e.categoryCode !== 'CN') {
      for (const code of ['BRAND', 'MODEL']) {
        if (!e.notes.some((n) => n.code === code && n.content !== '')) {
          f.add(no, `${at}/ram:ApplicableNote[ram:ContentCode=${code}]`, 'required');
        }
      }
    }
  });

  const di = `${C}/ram:DeliveryInstructions/ram:DescriptionCode`;
  if (f.required('3.24', di, c.transportTypeCode)) f.oneOf('3.24', di, c.transportTypeCode, CODE_LISTS.transportType);

  // 3.25 is "-/M": absent in transaction 0, mandatory in every later one.
  const prev = `${C}/ram:PreviousAdministrativeReferencedDocument`;
  if (!first && f.required('3.25', prev, c.previous) && c.previous !== undefined) {
    f.required('3.25', `${prev}/ram:ID`, c.previous.id);
    f.required('3.25', `${prev}/ram:AttachedSpecifiedBinaryFile/ram:ID`, c.previous.file?.id);
    f.required('3.25', `${prev}/ram:AttachedSpecifiedBinaryFile/ram:URIID`, c.previous.file?.uri);
    f.required('3.25', `${prev}/ram:AttachedSpecifiedBinaryFile/ram:SizeMeasure`, c.previous.file?.size);
  }
  checkSignatures(f, note.signatures);
  return f.list;
};

/**
 * Acts: the field table is the note's, so an act is held to what it shares with the note (the header of rows 1 and
 * 2, the TradeParty row with its checksums, the referenced-document codes, the signatures), and its guideline must be
 * one of the nine acts'.
 */
const validateAct = (act: EttnAct): Finding[] => {
  const f = new Findings();
  const h = act.header;
  const ctx = 'ACT/ExchangedDocumentContext';
  if (f.required('1.1', `${ctx}/ram:SpecifiedTransactionID`, h.transactionId) && !/^\d+$/.test(h.transactionId)) {
    f.add('1.1', `${ctx}/ram:SpecifiedTransactionID`, 'type', { value: h.transactionId, type: 'integer' });
  }
  const bp = `${ctx}/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID`;
  if (f.required('1.2.1', bp, h.businessProcess)) f.oneOf('1.2.1', bp, h.businessProcess, [ACT_BUSINESS_PROCESS]);
  const gl = `${ctx}/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID`;
  if (f.required('1.3.1', gl, h.guideline) && act.actType === undefined) {
    f.add('1.3.1', gl, 'code_list', {
      value: h.guideline ?? '',
      allowed: 'urn:ua:e-transport.gov.ua:act:01:<act>:001',
    });
  }
  f.required('2.1', 'ACT/ExchangedDocument/ram:ID', h.number);
  f.dateTime('2.2.1', 'ACT/ExchangedDocument/ram:IssueDateTime/udt:DateTime', h.issueDateTime);
  const payload = `ACT/${act.payloadName ?? 'Payload'}`;
  act.references.forEach((d, i) =>
    checkReference(f, '3.16', `${payload}/PreviousAdministrativeReferencedDocument[${i + 1}]`, d),
  );
  act.parties.forEach((p, i) => checkParty(f, 'TradeParty', `${payload}/TradeParty[${i + 1}]`, p, undefined));
  act.certifyingParties.forEach((p, i) =>
    checkParty(f, 'TradeParty', `ACT/CertifyingPartyPayload/CertifyingTradeParty[${i + 1}]`, p, undefined),
  );
  checkSignatures(f, act.signatures);
  return f.list;
};

/** Every finding of a note or act; an empty list means the document matches the v3 table. */
export const validateEttn = (model: EttnModel): Finding[] =>
  model.kind === 'ettn' ? validateNote(model) : validateAct(model);
