/**
 * Building EDIFACT segments from pieces of the canonical body: the inverse of `segments.ts`, element positions of
 * the UN/EDIFACT segment directory (the same in D96A and D01B for what is written here). Values are written
 * unescaped; the engine's serializer adds release characters (ISO 9735 part 1 clause 9.3).
 */
import type { Element, Segment } from '@portal/edifact';
import type {
  AllowanceCharge,
  Amount,
  Contact,
  DateValue,
  FinancialAccount,
  Party,
  PaymentTerm,
  Price,
  Quantity,
  Reference,
  Tax,
  Text,
} from '../canonical.ts';

/** An element as written: a simple value, or the components of a composite ('' or undefined when empty). */
export type Part = string | undefined | readonly (string | undefined)[];

const POSITION = { line: 0, column: 0, offset: 0 };

/**
 * A segment from its elements. Trailing empty components and elements are left out (ISO 9735 part 1 clause 7.1:
 * "truncation"), inner empty ones kept, so `NAD+BY+5401234000012::9` comes out as EANCOM writes it.
 */
export const seg = (tag: string, ...parts: Part[]): Segment => {
  const elements: Element[] = parts.map((part) => {
    const components = (typeof part === 'string' || part === undefined ? [part] : [...part]).map((c) => c ?? '');
    while (components.length > 1 && components[components.length - 1] === '') components.pop();
    return { components };
  });
  while (elements.length > 0 && elements[elements.length - 1]!.components.every((c) => c === '')) elements.pop();
  return { tag, elements, position: POSITION, length: 0, index: 0 };
};

/**
 * Text cut into at most `count` pieces of at most `size` characters, at spaces where it can (the space is dropped:
 * the mapper joins pieces with one), and the rest of the text, for a further segment.
 */
export const splitText = (text: string, size: number, count: number): { pieces: string[]; rest: string } => {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest && pieces.length < count) {
    if (rest.length <= size) {
      pieces.push(rest);
      rest = '';
      break;
    }
    const space = rest.lastIndexOf(' ', size);
    const cut = space > 0 ? space : size;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  return { pieces, rest };
};

const digits = (iso: string): string => iso.replace(/[-:T]/g, '');

/** A date of the body as DTM C507 value and format (UNCL 2379): the inverse of `toDateValue`. */
export const dateParts = (date: DateValue): [string, string] => {
  const { value } = date;
  switch (date.type) {
    case 'date':
      return [digits(value), '102'];
    case 'dateTime': {
      const offset = /([+-])(\d\d):(\d\d)$/.exec(value);
      if (offset) return [digits(value.slice(0, 16)) + offset[1] + offset[2] + offset[3], '205'];
      return value.length > 16 ? [digits(value), '204'] : [digits(value), '203'];
    }
    case 'period': {
      const [from = '', to = ''] = value.split('/');
      return from.includes('T') ? [digits(from) + digits(to), '719'] : [digits(from) + digits(to), '718'];
    }
    default:
      return [value, date.format ?? ''];
  }
};

/** DTM C507: 2005 qualifier, 2380 value, 2379 format. */
export const dtm = (date: DateValue): Segment => seg('DTM', [date.qualifier, ...dateParts(date)]);

/** RFF C506: 1153 qualifier, 1154 value, 1156 line number. */
export const rff = (reference: Reference): Segment =>
  seg('RFF', [reference.qualifier, reference.value, reference.lineNumber]);

/** An RFF group: the reference and its dates. */
export const referenceGroup = (reference: Reference): Segment[] => [
  rff(reference),
  ...(reference.dates ?? []).map(dtm),
];

/** FTX: 4451 subject, C108 up to five lines of `lineSize` (an..70 in D96A, an..512 in D01B); more text, more FTX. */
export const ftx = (text: Text, lineSize: number): Segment[] => {
  const out: Segment[] = [];
  let rest = text.text;
  do {
    const split = splitText(rest, lineSize, 5);
    out.push(seg('FTX', text.qualifier, undefined, undefined, split.pieces));
    rest = split.rest;
  } while (rest);
  return out;
};

/** MOA C516: 5025 qualifier, 5004 amount, 6345 currency. */
export const moa = (amount: Amount): Segment => seg('MOA', [amount.qualifier, amount.value, amount.currency]);

/** QTY C186: 6063 qualifier, 6060 quantity, 6411 unit. */
export const qty = (quantity: Quantity): Segment => seg('QTY', [quantity.qualifier, quantity.value, quantity.unit]);

/** PRI C509: 5125 qualifier, 5118 price, 5375 type, 5387 type qualifier, 5284 basis, 6411 unit. */
export const pri = (price: Price): Segment =>
  seg('PRI', [price.qualifier, price.value, price.type, undefined, price.basis, price.unit]);

/** TAX: 5283 function, C241 5153 type, C533, 5286, C243 5278 rate (its fourth component), 5305 category. */
export const taxGroup = (tax: Tax): Segment[] => [
  seg('TAX', tax.qualifier, [tax.type], undefined, undefined, ['', '', '', tax.rate], tax.category),
  ...tax.amounts.map(moa),
];

/** PCD C501: 5245 qualifier (1 allowance, 2 charge percentage), 5482 percentage. */
const pcd = (qualifier: string, percentage: string): Segment => seg('PCD', [qualifier, percentage]);

/**
 * ALC: 5463 A or C, C552 (1230 id, 5189 reason), 4471, 1227 sequence, C214 (7161 reason code, 1131, 3055, 7160
 * text twice) as EANCOM puts the reason; then its QTY, PCD, MOA and TAX groups.
 */
export const allowanceGroup = (allowance: AllowanceCharge, descriptionSize: number): Segment[] => {
  const text = splitText(allowance.description ?? '', descriptionSize, 2).pieces;
  return [
    seg('ALC', allowance.type === 'allowance' ? 'A' : 'C', undefined, undefined, allowance.sequence, [
      allowance.reasonCode,
      '',
      '',
      ...text,
    ]),
    ...(allowance.quantities ?? []).map(qty),
    ...(allowance.percentage === undefined
      ? []
      : [pcd(allowance.type === 'allowance' ? '1' : '2', allowance.percentage)]),
    ...allowance.amounts.map(moa),
    ...(allowance.taxes ?? []).flatMap(taxGroup),
  ];
};

/** PAT: 4279 type, C110 4277 terms code, C112 2475 reference, 2009 relation, 2151 unit, 2152 count; its DTM, PCD, MOA. */
export const paymentGroup = (term: PaymentTerm): Segment[] => [
  seg('PAT', term.type, [term.code], [term.timeReference, term.timeRelation, term.periodUnit, term.periodCount]),
  ...(term.dates ?? []).map(dtm),
  ...(term.percentage === undefined ? [] : [pcd('12', term.percentage)]),
  ...(term.amounts ?? []).map(moa),
];

/** CTA (3139 function, C056 3413 department, 3412 name) and its COM (C076 3148 number, 3155 channel). */
const contactGroup = (contact: Contact): Segment[] => [
  seg('CTA', contact.function, [contact.department, contact.name]),
  ...(contact.communications ?? []).map((c) => seg('COM', [c.value, c.channel])),
];

/** FII: 3035 role (RB receiving bank), C078 3194 the account number, C088 3433 the institution's identifier. */
const fii = (account: FinancialAccount): Segment =>
  seg('FII', account.qualifier, [account.account], [account.institution]);

/**
 * A NAD group: NAD (3035 role, C082 GLN with agency 9 or another id, C080 name in up to five an..35 lines, C059
 * street in up to four, 3164 city, 3229 region, 3251 postal code, 3207 country), its bank accounts (FII), its RFF VA
 * (VAT number), FC (tax number) and other references, its contacts. C058 (unstructured name and address) is not used by EANCOM: a body's
 * `addressLines` are not written.
 */
export const partyGroup = (party: Party, withContacts: boolean): Segment[] => {
  const id = party.gln ? [party.gln, '', '9'] : party.id ? [party.id.value, party.id.codeList, party.id.agency] : [];
  return [
    seg(
      'NAD',
      party.role,
      id,
      undefined,
      splitText(party.name ?? '', 35, 5).pieces,
      splitText(party.street ?? '', 35, 4).pieces,
      party.city,
      [party.region],
      party.postalCode,
      party.country,
    ),
    ...(party.accounts ?? []).map(fii),
    ...(party.vatId ? [rff({ qualifier: 'VA', value: party.vatId })] : []),
    ...(party.taxId ? [rff({ qualifier: 'FC', value: party.taxId })] : []),
    ...(party.references ?? []).flatMap(referenceGroup),
    ...(withContacts ? (party.contacts ?? []).flatMap(contactGroup) : []),
  ];
};
