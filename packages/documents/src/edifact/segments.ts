/**
 * Reading one EDIFACT segment into a piece of the canonical body. Element positions are those of the UN/EDIFACT
 * segment directory, the same in D96A and D01B for every segment read here (where D01B made a simple element a
 * composite, e.g. BGM 1004 in C106 or NAD 3229 in C819, the value is still the element's first component).
 * A reader returns undefined, with a note, when the segment lacks what gives it meaning; it never throws.
 */
import type { Segment } from '@portal/edifact';
import type {
  AllowanceCharge,
  Amount,
  Contact,
  DateValue,
  Decimal,
  Identifier,
  Packaging,
  Party,
  PaymentTerm,
  Price,
  Quantity,
  Reference,
  Tax,
  Text,
} from '../canonical.ts';
import type { MappingNoteCode } from '../notes.ts';
import { DATE_FORMATS, toDateValue } from './dates.ts';

/** Where a reader reports what it skipped. */
export type Notes = { add(code: MappingNoteCode, segment: Segment, value?: string): void };

/** Component `c` of element `e` ('' when absent). */
export const value = (segment: Segment, e: number, c = 0): string => segment.elements[e]?.components[c] ?? '';

/** The non-empty components `from`..`to` of element `e`, joined by a space. */
export const joined = (segment: Segment, e: number, from: number, to: number): string => {
  const parts: string[] = [];
  const components = segment.elements[e]?.components;
  if (!components) return '';
  for (let c = from; c <= to && c < components.length; c++) {
    const part = (components[c] as string).trim();
    if (part) parts.push(part);
  }
  return parts.join(' ');
};

/** Sets `key` on `target` only when the value is not empty, so the body carries no empty strings. */
export const put = <T extends object, K extends keyof T>(target: T, key: K, v: T[K] | '' | undefined): void => {
  if (v !== '' && v !== undefined) target[key] = v as T[K];
};

const DECIMAL = /^-?(\d*)(?:[.,](\d*))?$/;

/**
 * A numeric value as a decimal string with its digits as sent. ISO 9735 lets either `.` or `,` be the decimal mark;
 * the canonical body always uses `.`. A mark with no digit on one side gets the zero it implies (`.5` is `0.5`).
 */
export const toDecimal = (raw: string): Decimal | undefined => {
  const match = DECIMAL.exec(raw);
  if (!match) return undefined;
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (!whole && !fraction) return undefined;
  return `${raw.startsWith('-') ? '-' : ''}${whole || '0'}${fraction ? `.${fraction}` : ''}`;
};

/** A decimal read from a segment; a value that is not one is noted and skipped. */
const decimal = (notes: Notes, segment: Segment, raw: string): Decimal | undefined => {
  if (!raw) return undefined;
  const d = toDecimal(raw);
  if (d === undefined) notes.add('value_not_decimal', segment, raw);
  return d;
};

/** DTM C507: 2005 qualifier, 2380 value, 2379 format. */
export const readDate = (notes: Notes, s: Segment): DateValue | undefined => {
  const qualifier = value(s, 0, 0);
  const raw = value(s, 0, 1);
  if (!qualifier || !raw) return void notes.add('value_missing', s);
  const format = value(s, 0, 2) || undefined;
  const date = toDateValue(qualifier, raw, format);
  if (date.type === 'raw' && format && DATE_FORMATS.has(format)) notes.add('date_not_valid', s, raw);
  return date;
};

/** RFF C506: 1153 qualifier, 1154 value, 1156 line number (a line's reference may give only the line, e.g. `ON::1`). */
export const readReference = (notes: Notes, s: Segment): Reference | undefined => {
  const qualifier = value(s, 0, 0);
  const reference: Reference = { qualifier };
  put(reference, 'value', value(s, 0, 1));
  put(reference, 'lineNumber', value(s, 0, 2));
  if (!qualifier || (!reference.value && !reference.lineNumber)) return void notes.add('value_missing', s);
  return reference;
};

/** FTX: 4451 subject, C108 text lines. */
export const readText = (notes: Notes, s: Segment): Text | undefined => {
  const text = joined(s, 3, 0, 4);
  if (!text) return void notes.add('value_missing', s);
  return { qualifier: value(s, 0), text };
};

/** QTY C186: 6063 qualifier, 6060 quantity, 6411 unit. */
export const readQuantity = (notes: Notes, s: Segment): Quantity | undefined => {
  const qualifier = value(s, 0, 0);
  const raw = value(s, 0, 1);
  if (!qualifier || !raw) return void notes.add('value_missing', s);
  const v = decimal(notes, s, raw);
  if (v === undefined) return undefined;
  const quantity: Quantity = { qualifier, value: v };
  put(quantity, 'unit', value(s, 0, 2));
  return quantity;
};

/** MOA C516: 5025 qualifier, 5004 amount, 6345 currency. */
export const readAmount = (notes: Notes, s: Segment): Amount | undefined => {
  const qualifier = value(s, 0, 0);
  const raw = value(s, 0, 1);
  if (!qualifier || !raw) return void notes.add('value_missing', s);
  const v = decimal(notes, s, raw);
  if (v === undefined) return undefined;
  const amount: Amount = { qualifier, value: v };
  put(amount, 'currency', value(s, 0, 2));
  return amount;
};

/** PRI C509: 5125 qualifier, 5118 price, 5375 type, 5387 type qualifier, 5284 unit price basis, 6411 unit. */
export const readPrice = (notes: Notes, s: Segment): Price | undefined => {
  const qualifier = value(s, 0, 0);
  const raw = value(s, 0, 1);
  if (!qualifier || !raw) return void notes.add('value_missing', s);
  const v = decimal(notes, s, raw);
  if (v === undefined) return undefined;
  const price: Price = { qualifier, value: v };
  put(price, 'type', value(s, 0, 2));
  put(price, 'basis', decimal(notes, s, value(s, 0, 4)));
  put(price, 'unit', value(s, 0, 5));
  return price;
};

/** PCD C501: 5245 qualifier, 5482 percentage. */
export const readPercentage = (notes: Notes, s: Segment): Decimal | undefined => {
  const raw = value(s, 0, 1);
  if (!raw) return void notes.add('value_missing', s);
  return decimal(notes, s, raw);
};

/** TAX: 5283 function, C241 5153 type, C243 5278 rate, 5305 category. */
export const readTax = (notes: Notes, s: Segment): Tax | undefined => {
  const qualifier = value(s, 0);
  if (!qualifier) return void notes.add('value_missing', s);
  const tax: Tax = { qualifier, amounts: [] };
  put(tax, 'type', value(s, 1, 0));
  put(tax, 'rate', decimal(notes, s, value(s, 4, 3)));
  put(tax, 'category', value(s, 5));
  return tax;
};

/**
 * ALC: 5463 A (allowance) or C (charge), C552 1230 its identifier and 5189 reason code, 1227 calculation sequence,
 * C214 7161 special service code and 7160 text. EANCOM puts the reason in 7161, EN 16931 in 5189 (allowances) or
 * 7161 (charges) with its text in 1230.
 */
export const readAllowance = (notes: Notes, s: Segment): AllowanceCharge | undefined => {
  const indicator = value(s, 0);
  const type = indicator === 'A' ? 'allowance' : indicator === 'C' ? 'charge' : undefined;
  if (!type) return void notes.add(indicator ? 'segment_not_mapped' : 'value_missing', s, indicator || undefined);
  const allowance: AllowanceCharge = { type, amounts: [] };
  put(allowance, 'sequence', value(s, 3));
  put(allowance, 'reasonCode', value(s, 4, 0) || value(s, 1, 1));
  put(allowance, 'description', joined(s, 4, 3, 4) || value(s, 1, 0).trim());
  return allowance;
};

/** PAT: 4279 type, C110 4277 terms code and 4276 text, C112 2475 reference, 2009 relation, 2151 period unit, 2152 count. */
export const readPaymentTerm = (_notes: Notes, s: Segment): PaymentTerm => {
  const term: PaymentTerm = {};
  put(term, 'type', value(s, 0));
  put(term, 'code', value(s, 1, 0));
  put(term, 'description', joined(s, 1, 3, 4));
  put(term, 'timeReference', value(s, 2, 0));
  put(term, 'timeRelation', value(s, 2, 1));
  put(term, 'periodUnit', value(s, 2, 2));
  put(term, 'periodCount', value(s, 2, 3));
  return term;
};

/**
 * NAD: 3035 role, C082 (3039 id, 1131 code list, 3055 agency), C058 name and address lines, C080 name, C059
 * street, 3164 city, 3229 region, 3251 postal code, 3207 country. A GLN is an identifier of agency 9 (GS1).
 */
export const readParty = (notes: Notes, s: Segment): Party | undefined => {
  const role = value(s, 0);
  if (!role) return void notes.add('value_missing', s);
  const party: Party = { role };
  const id = value(s, 1, 0);
  const agency = value(s, 1, 2);
  // A GLN is named by agency 9 (GS1), as EANCOM does, or by the ISO 6523 scheme 0088 (GS1 GLN), as EN 16931 does.
  const isGln = agency === '9' || value(s, 1, 1) === '0088';
  if (id && isGln && /^\d{13}$/.test(id)) party.gln = id;
  else if (id) {
    if (isGln) notes.add('value_not_gln', s, id);
    party.id = { value: id };
    put(party.id, 'codeList', value(s, 1, 1));
    put(party.id, 'agency', agency);
  }
  const lines = (s.elements[2]?.components ?? []).map((c) => c.trim()).filter(Boolean);
  if (lines.length) party.addressLines = lines;
  put(party, 'name', joined(s, 3, 0, 4));
  put(party, 'street', joined(s, 4, 0, 3));
  put(party, 'city', value(s, 5).trim());
  put(party, 'region', value(s, 6, 0));
  put(party, 'postalCode', value(s, 7).trim());
  put(party, 'country', value(s, 8));
  return party;
};

/** CTA: 3139 function, C056 3413 department or employee, 3412 name. */
export const readContact = (_notes: Notes, s: Segment): Contact => {
  const contact: Contact = {};
  put(contact, 'function', value(s, 0));
  put(contact, 'department', value(s, 1, 0));
  put(contact, 'name', value(s, 1, 1));
  return contact;
};

/** COM C076: 3148 number, 3155 channel. */
export const readCommunication = (notes: Notes, s: Segment): { channel: string; value: string } | undefined => {
  const number = value(s, 0, 0);
  const channel = value(s, 0, 1);
  if (!number || !channel) return void notes.add('value_missing', s);
  return { channel, value: number };
};

/**
 * GIN: 7405 qualifier (BJ = SSCC), then up to five C208, each one identifier or a range (first and last). A range is
 * kept as `first..last`, as sent, not expanded.
 */
export const readMarks = (notes: Notes, s: Segment): Identifier[] => {
  const qualifier = value(s, 0);
  const marks: Identifier[] = [];
  for (let e = 1; e < s.elements.length && e <= 5; e++) {
    const first = value(s, e, 0);
    const last = value(s, e, 1);
    if (first) marks.push({ qualifier, value: last ? `${first}..${last}` : first });
  }
  if (!qualifier || !marks.length) notes.add('value_missing', s);
  return qualifier ? marks : [];
};

/** Adds GIN marks to a package: plain SSCCs to `sscc`, the rest to `identifiers`. */
export const addPackageMarks = (packaging: Packaging, marks: Identifier[]): void => {
  for (const mark of marks) {
    if (mark.qualifier === 'BJ' && !mark.value.includes('..')) packaging.sscc.push(mark.value);
    else (packaging.identifiers ??= []).push(mark);
  }
};

/** PAC: 7224 count, C531 7075 level, C202 7065 type and 7064 description. */
export const readPackaging = (notes: Notes, s: Segment): Packaging => {
  const packaging: Packaging = { sscc: [] };
  put(packaging, 'count', decimal(notes, s, value(s, 0)));
  put(packaging, 'level', value(s, 1, 0));
  put(packaging, 'type', value(s, 2, 0));
  put(packaging, 'description', value(s, 2, 3));
  return packaging;
};
