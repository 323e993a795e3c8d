/**
 * The canonical body to one EANCOM message: ORDERS, ORDRSP, DESADV, INVOIC (invoice and credit note) and RECADV, in
 * EANCOM 97 (D96A) or EANCOM 2002 syntax 3 (D01B), the guide versions the engine ships and validates against
 * (`packages/edifact/guides`). The inverse of `map-message.ts`: what the mapper reads back is what was written.
 *
 * Segments come in the guide's order: the header (BGM, DTM, FTX, the RFF, NAD, TAX, CUX, PAT and ALC groups), the
 * lines (for DESADV and RECADV inside their CPS packages), then UNS and the summary (MOA, CNT, the VAT breakdown).
 * What a message type has no place for in its guide (prices in a despatch advice, payment terms in a receiving
 * advice…) is not written and is listed in `omitted`, so a form can say so before sending.
 */
import type { Message, Segment } from '@portal/edifact';
import type { CanonicalDocument, DocumentKind, Line, Package } from '../canonical.ts';
import {
  allowanceGroup,
  dtm,
  ftx,
  moa,
  partyGroup,
  paymentGroup,
  pri,
  qty,
  referenceGroup,
  seg,
  splitText,
  taxGroup,
} from './write-segments.ts';

/** The directories an EANCOM message is written in: EANCOM 97 (D96A) and EANCOM 2002 (D01B). */
export type EancomDirectory = 'D96A' | 'D01B';

/** The message types written. */
export type EancomMessageType = 'ORDERS' | 'ORDRSP' | 'DESADV' | 'INVOIC' | 'RECADV' | 'APERAK';

/**
 * UNH 0057: the EANCOM message version of each type, the first association of the guide the engine ships (APERAK:
 * EAN002 of EANCOM 97; EAN004 of EANCOM 2002 syntax 3, whose guide also lists EAN003 and the syntax 4 EAN005).
 */
export const EANCOM_ASSOCIATIONS: Readonly<Record<EancomDirectory, Readonly<Record<EancomMessageType, string>>>> = {
  D96A: { ORDERS: 'EAN008', ORDRSP: 'EAN005', DESADV: 'EAN005', INVOIC: 'EAN008', RECADV: 'EAN003', APERAK: 'EAN002' },
  D01B: { ORDERS: 'EAN010', ORDRSP: 'EAN009', DESADV: 'EAN007', INVOIC: 'EAN011', RECADV: 'EAN007', APERAK: 'EAN004' },
};

/** The message type a kind of document is written as. */
export const EANCOM_MESSAGE_TYPES: Readonly<Partial<Record<DocumentKind, EancomMessageType>>> = {
  order: 'ORDERS',
  order_response: 'ORDRSP',
  despatch_advice: 'DESADV',
  invoice: 'INVOIC',
  credit_note: 'INVOIC',
  receiving_advice: 'RECADV',
  application_error: 'APERAK',
};

/**
 * The RFF qualifier (UNCL 1153, as EANCOM's APERAK restricts it) an application error uses for the document it
 * answers: ON order, POR order response, AAK despatch advice, IV invoice (and credit note), ACE related document
 * (the receiving advice, which the list has no code of its own for).
 */
export const APERAK_REFERENCE_QUALIFIERS: Readonly<Partial<Record<DocumentKind, string>>> = {
  order: 'ON',
  order_response: 'POR',
  despatch_advice: 'AAK',
  invoice: 'IV',
  credit_note: 'IV',
  receiving_advice: 'ACE',
};

/**
 * The Polish invoice types of the forms (the message types INV, SB, ZAL, ROZ, UPR of the portal) as BGM C002: the
 * UNCL 1001 code, and for the kinds UNCL 1001 has no code for, the type in 1000 (document name), which the mapper
 * keeps as `documentName`.
 */
export const POLISH_INVOICE_TYPES = {
  /** Faktura VAT: commercial invoice. */
  INV: { documentNameCode: '380' },
  /** Samofakturowanie: self-billed invoice. */
  SB: { documentNameCode: '389' },
  /** Faktura zaliczkowa: prepayment invoice. */
  ZAL: { documentNameCode: '386' },
  /** Faktura rozliczeniowa: the invoice settling prepayments; a commercial invoice named ROZ. */
  ROZ: { documentNameCode: '380', documentName: 'ROZ' },
  /** Faktura uproszczona: simplified invoice; a commercial invoice named UPR. */
  UPR: { documentNameCode: '380', documentName: 'UPR' },
} as const satisfies Record<string, { documentNameCode: string; documentName?: string }>;
export type PolishInvoiceType = keyof typeof POLISH_INVOICE_TYPES;

/** The Polish invoice type of a body's header, if it is one. */
export const polishInvoiceTypeOf = (header: CanonicalDocument['header']): PolishInvoiceType | undefined => {
  const name = header.documentName;
  if (name === 'ROZ' || name === 'UPR') return header.documentNameCode === '380' ? name : undefined;
  if (name) return undefined;
  const code = header.documentNameCode;
  return code === '380' ? 'INV' : code === '389' ? 'SB' : code === '386' ? 'ZAL' : undefined;
};

/** The line segments of a type in the guide's order (after LIN); the groups in it (PRI, RFF, TAX, NAD, ALC) last. */
type LineTag = 'PIA' | 'IMD' | 'QTY' | 'DTM' | 'MOA' | 'GIN' | 'FTX' | 'PRI' | 'RFF' | 'TAX' | 'NAD' | 'ALC';

type Profile = {
  /** Header groups the guide has (besides BGM, DTM, RFF, NAD). */
  header: ReadonlySet<'PAI' | 'FTX' | 'MOA' | 'TAX' | 'CUX' | 'PAT' | 'ALC'>;
  line: readonly LineTag[];
  /** Lines are inside CPS packages (DESADV, RECADV). */
  packages: boolean;
  /** UNS, then the summary: MOA totals and CNT, or CNT, totals and the VAT breakdown (INVOIC). */
  summary: 'orders' | 'invoice' | 'count';
  /** LIN 1229 (action) is used (ORDRSP only). */
  lineAction: boolean;
  /** CUX 6343: 9 order currency, 4 invoicing currency. */
  currencyQualifier?: string;
  /** BGM C002 3055 (9 = GS1), required by EANCOM 97's RECADV. */
  agency?: string;
};

const ORDER_LINE: readonly LineTag[] = [
  'PIA',
  'IMD',
  'QTY',
  'DTM',
  'MOA',
  'GIN',
  'FTX',
  'PRI',
  'RFF',
  'TAX',
  'NAD',
  'ALC',
];

const PROFILES: Readonly<Record<Exclude<EancomMessageType, 'APERAK'>, (directory: EancomDirectory) => Profile>> = {
  ORDERS: () => ({
    header: new Set(['FTX', 'TAX', 'CUX', 'PAT', 'ALC']),
    line: ORDER_LINE,
    packages: false,
    summary: 'orders',
    lineAction: false,
    currencyQualifier: '9',
  }),
  ORDRSP: () => ({
    header: new Set(['FTX', 'TAX', 'CUX', 'PAT', 'ALC']),
    line: ORDER_LINE,
    packages: false,
    summary: 'orders',
    lineAction: true,
    currencyQualifier: '9',
  }),
  INVOIC: (directory) => ({
    header: new Set(['PAI', 'FTX', 'CUX', 'PAT', 'ALC']),
    // EANCOM 97's INVOIC line has no GIN of its own (only under PAC/PCI); EANCOM 2002's has.
    line: [
      'PIA',
      'IMD',
      'QTY',
      'DTM',
      ...(directory === 'D01B' ? (['GIN'] as const) : []),
      'FTX',
      'MOA',
      'PRI',
      'RFF',
      'TAX',
      'NAD',
      'ALC',
    ],
    packages: false,
    summary: 'invoice',
    lineAction: false,
    currencyQualifier: '4',
  }),
  DESADV: (directory) => ({
    header: new Set(['MOA']),
    line:
      directory === 'D96A'
        ? ['PIA', 'IMD', 'QTY', 'GIN', 'DTM', 'FTX', 'MOA', 'RFF']
        : ['PIA', 'IMD', 'QTY', 'DTM', 'FTX', 'MOA', 'RFF'],
    packages: true,
    summary: 'count',
    lineAction: false,
  }),
  RECADV: (directory) => ({
    header: new Set(directory === 'D01B' ? ['FTX'] : []),
    line: directory === 'D01B' ? ['PIA', 'IMD', 'QTY', 'DTM', 'FTX', 'RFF'] : ['PIA', 'IMD', 'QTY', 'DTM', 'RFF'],
    packages: true,
    summary: 'count',
    lineAction: false,
    agency: '9',
  }),
};

export type WriteMessageOptions = {
  directory: EancomDirectory;
  /** UNH 0062, unique in the interchange. */
  reference: string;
  /** The message type; by default the one of the body's kind ({@link EANCOM_MESSAGE_TYPES}). */
  type?: EancomMessageType;
};

export type WrittenMessage = {
  /** The message as the engine's model (UNH to UNT), for `writeInterchange` or `serializeMessage`. */
  message: Message;
  /** Paths of the body's values the message type has no place for, not written (e.g. `lines[0].prices`). */
  omitted: string[];
};

const has = <T>(list: readonly T[] | undefined): list is readonly T[] => list !== undefined && list.length > 0;

/** The width of a free text line (FTX C108 4440, ALC 7160): an..70 in D96A, an..512 in D01B. */
const textSize = (directory: EancomDirectory): number => (directory === 'D96A' ? 70 : 512);

const writeLine = (
  line: Line,
  index: number,
  profile: Profile,
  directory: EancomDirectory,
  omitted: string[],
): Segment[] => {
  const at = `lines[${index}]`;
  const gtinType = directory === 'D96A' ? 'EN' : 'SRV';
  const out: Segment[] = [
    seg(
      'LIN',
      line.lineNumber,
      profile.lineAction ? line.action : undefined,
      line.gtin ? [line.gtin, gtinType] : undefined,
      line.parentLineNumber ? ['1', line.parentLineNumber] : undefined,
    ),
  ];
  if (line.action && !profile.lineAction) omitted.push(`${at}.action`);
  const pieces: Record<LineTag, () => Segment[]> = {
    PIA: () => {
      const ids: [string, string][] = [];
      if (line.supplierArticleNumber) ids.push([line.supplierArticleNumber, 'SA']);
      if (line.buyerArticleNumber) ids.push([line.buyerArticleNumber, 'IN']);
      for (const id of line.itemIds ?? []) ids.push([id.value, id.qualifier]);
      const out: Segment[] = [];
      // PIA 4347 1 (additional identification): up to five C212 each.
      for (let i = 0; i < ids.length; i += 5) out.push(seg('PIA', '1', ...ids.slice(i, i + 5)));
      return out;
    },
    IMD: () => {
      // IMD 7077 F (free form), C273 7008 twice (an..35 each); longer text in further IMDs, which the mapper notes.
      const out: Segment[] = [];
      let rest = line.description ?? '';
      while (rest) {
        const split = splitText(rest, 35, 2);
        out.push(seg('IMD', 'F', undefined, ['', '', '', ...split.pieces]));
        rest = split.rest;
      }
      return out;
    },
    QTY: () => line.quantities.map(qty),
    DTM: () => (line.dates ?? []).map(dtm),
    MOA: () => line.amounts.map(moa),
    GIN: () => (line.identifiers ?? []).map((id) => seg('GIN', id.qualifier, id.value.split('..'))),
    FTX: () => (line.texts ?? []).flatMap((text) => ftx(text, textSize(directory))),
    PRI: () => line.prices.map(pri),
    RFF: () => (line.references ?? []).flatMap(referenceGroup),
    TAX: () => (line.taxes ?? []).flatMap(taxGroup),
    NAD: () => (line.parties ?? []).flatMap((party) => partyGroup(party, true)),
    ALC: () => (line.allowances ?? []).flatMap((a) => allowanceGroup(a, 35)),
  };
  const present: Record<LineTag, boolean> = {
    PIA: !!(line.supplierArticleNumber || line.buyerArticleNumber || has(line.itemIds)),
    IMD: !!line.description,
    QTY: has(line.quantities),
    DTM: has(line.dates),
    MOA: has(line.amounts),
    GIN: has(line.identifiers),
    FTX: has(line.texts),
    PRI: has(line.prices),
    RFF: has(line.references),
    TAX: has(line.taxes),
    NAD: has(line.parties),
    ALC: has(line.allowances),
  };
  const names: Record<LineTag, string> = {
    PIA: 'articleNumbers',
    IMD: 'description',
    QTY: 'quantities',
    DTM: 'dates',
    MOA: 'amounts',
    GIN: 'identifiers',
    FTX: 'texts',
    PRI: 'prices',
    RFF: 'references',
    TAX: 'taxes',
    NAD: 'parties',
    ALC: 'allowances',
  };
  for (const tag of Object.keys(pieces) as LineTag[]) {
    if (present[tag] && !profile.line.includes(tag)) omitted.push(`${at}.${names[tag]}`);
  }
  for (const tag of profile.line) if (present[tag]) out.push(...pieces[tag]());
  return out;
};

/** CPS (7164 id, 7166 parent), its PAC (7224 count, C531 7075 level, C202 7065 type), QTY, and PCI 33E + GIN BJ per SSCC. */
const packageSegments = (pkg: Package): Segment[] => [
  seg('CPS', pkg.id, pkg.parentId),
  ...pkg.packaging.flatMap((packaging) => [
    seg('PAC', packaging.count, [packaging.level], [packaging.type, '', '', packaging.description]),
    ...(packaging.quantities ?? []).map(qty),
    // PCI 4233 33E (GS1: marked with an SSCC), then the SSCC in GIN BJ; one PCI group per package mark.
    ...packaging.sscc.flatMap((sscc) => [seg('PCI', '33E'), seg('GIN', 'BJ', sscc)]),
    ...(packaging.identifiers ?? []).flatMap((id) => [
      seg('PCI', '17'),
      seg('GIN', id.qualifier, id.value.split('..')),
    ]),
  ]),
];

/**
 * One EANCOM message of the body. Pure; never throws: what the message type cannot carry is listed in `omitted`.
 * The body is written as it is: totals, taxes and dates are the caller's (see `computeTotals`, `canonicalTotals`).
 */
export const writeEancomMessage = (document: CanonicalDocument, options: WriteMessageOptions): WrittenMessage => {
  const { directory, reference } = options;
  const type = options.type ?? EANCOM_MESSAGE_TYPES[document.kind] ?? 'ORDERS';
  const omitted: string[] = [];
  const body =
    type === 'APERAK' ? applicationErrorBody(document, directory, omitted) : bodyOf(document, type, directory, omitted);
  const header = document.header;
  const association = EANCOM_ASSOCIATIONS[directory][type];
  const unh = seg('UNH', reference, [type, 'D', directory.slice(1), 'UN', association]);
  const unt = seg('UNT', String(body.length + 2), reference);
  const segments = [unh, ...body, unt];
  return {
    message: {
      reference,
      type,
      version: 'D',
      release: directory.slice(1),
      agency: 'UN',
      association,
      directory,
      documentNumber: header.number ?? reference,
      segments,
      header: unh,
      trailer: unt,
    },
    omitted,
  };
};

/**
 * An APERAK (EANCOM 97 APERAK EAN002, EANCOM 2002 EAN004): BGM (1001 305 application error and acknowledgement,
 * 1004 its number, 1225 its function: 29 accepted without amendment, 27 not accepted…), DTM 137, the RFF group of
 * the document answered (with its DTM 171), the NAD group (MS the sender of the report, MR its recipient), then one
 * ERC group per error: ERC C901 9321 the code and one FTX AAO (the guide allows one) with its text in up to five
 * lines. Nothing else of the body has a place: it is listed in `omitted`.
 */
const applicationErrorBody = (
  document: CanonicalDocument,
  directory: EancomDirectory,
  omitted: string[],
): Segment[] => {
  const header = document.header;
  const body: Segment[] = [
    seg('BGM', [header.documentNameCode, '', '', header.documentName], header.number, header.functionCode),
    ...header.dates.map(dtm),
    ...document.references.flatMap(referenceGroup),
    ...document.parties.flatMap((party) => partyGroup(party, true)),
  ];
  if (header.responseType) omitted.push('header.responseType');
  if (header.texts.length) omitted.push('header.texts');
  document.errors.forEach((error, i) => {
    body.push(seg('ERC', [error.code]));
    if (error.text) {
      // One FTX only (the guide's maximum): a text that does not fit in five lines cut at spaces is cut hard (it
      // reads back with a space at each cut), and what five lines cannot hold at all is omitted.
      const size = textSize(directory);
      let { pieces, rest } = splitText(error.text, size, 5);
      if (rest) {
        const text = error.text.trim();
        pieces = Array.from({ length: Math.min(5, Math.ceil(text.length / size)) }, (_, n) =>
          text.slice(n * size, (n + 1) * size),
        );
        rest = text.slice(5 * size);
      }
      body.push(seg('FTX', 'AAO', undefined, undefined, pieces));
      if (rest) omitted.push(`errors[${i}].text`);
    }
    if (error.reference) omitted.push(`errors[${i}].reference`);
    if (error.position) omitted.push(`errors[${i}].position`);
  });
  const rest: [string, unknown[]][] = [
    ['lines', document.lines],
    ['paymentTerms', document.paymentTerms],
    ['allowances', document.allowances],
    ['taxes', document.taxes],
    ['totals', document.totals],
    ['packages', document.packages],
  ];
  for (const [name, list] of rest) if (list.length) omitted.push(name);
  if (document.currency) omitted.push('currency');
  if (document.paymentMeans) omitted.push('paymentMeans');
  return body;
};

const bodyOf = (
  document: CanonicalDocument,
  type: Exclude<EancomMessageType, 'APERAK'>,
  directory: EancomDirectory,
  omitted: string[],
): Segment[] => {
  const profile = PROFILES[type](directory);
  const header = document.header;
  const body: Segment[] = [];

  body.push(
    seg(
      'BGM',
      [header.documentNameCode, '', profile.agency, header.documentName],
      header.number,
      header.functionCode,
      header.responseType,
    ),
    ...header.dates.map(dtm),
  );
  // PAI C534 4461: the payment means, after the dates (EANCOM INVOIC: BGM, DTM, PAI, ALI, FTX).
  if (document.paymentMeans) {
    if (profile.header.has('PAI')) body.push(seg('PAI', ['', '', document.paymentMeans]));
    else omitted.push('paymentMeans');
  }
  if (profile.header.has('MOA')) body.push(...document.totals.map(moa));
  if (profile.header.has('FTX')) body.push(...header.texts.flatMap((text) => ftx(text, textSize(directory))));
  else if (header.texts.length) omitted.push('header.texts');
  body.push(...document.references.flatMap(referenceGroup));
  body.push(...document.parties.flatMap((party) => partyGroup(party, true)));
  if (profile.header.has('TAX')) body.push(...document.taxes.flatMap(taxGroup));
  if (profile.header.has('CUX') && document.currency) {
    body.push(seg('CUX', ['2', document.currency, profile.currencyQualifier]));
  } else if (document.currency && !profile.header.has('CUX')) omitted.push('currency');
  if (profile.header.has('PAT')) body.push(...document.paymentTerms.flatMap(paymentGroup));
  else if (document.paymentTerms.length) omitted.push('paymentTerms');
  if (profile.header.has('ALC')) body.push(...document.allowances.flatMap((a) => allowanceGroup(a, 35)));
  else if (document.allowances.length) omitted.push('allowances');

  const lineSegments = (line: Line): Segment[] =>
    writeLine(line, document.lines.indexOf(line), profile, directory, omitted);
  if (profile.packages) {
    // Every line of a despatch or receiving advice is in a package (CPS); a line naming no package written here
    // goes into the last one, or into a package 1 written for them.
    const ids = new Set(document.packages.map((p) => p.id));
    const loose = document.lines.filter((line) => !line.packageId || !ids.has(line.packageId));
    const packages = document.packages.length || !loose.length ? document.packages : [{ id: '1', packaging: [] }];
    packages.forEach((pkg, index) => {
      body.push(...packageSegments(pkg));
      for (const line of document.lines) if (line.packageId === pkg.id) body.push(...lineSegments(line));
      if (index === packages.length - 1) for (const line of loose) body.push(...lineSegments(line));
    });
  } else {
    if (document.packages.length) omitted.push('packages');
    for (const line of document.lines) body.push(...lineSegments(line));
  }

  const count = seg('CNT', ['2', String(document.lines.length)]);
  switch (profile.summary) {
    case 'orders':
      body.push(seg('UNS', 'S'), ...document.totals.map(moa), count);
      break;
    case 'invoice':
      body.push(seg('UNS', 'S'), count, ...document.totals.map(moa), ...document.taxes.flatMap(taxGroup));
      break;
    case 'count':
      if (document.taxes.length) omitted.push('taxes');
      if (!profile.header.has('MOA') && document.totals.length) omitted.push('totals');
      body.push(count);
  }
  return body;
};
