/**
 * EDIFACT date/time values (DTM C507: 2005 qualifier, 2380 value, 2379 format) to ISO 8601, for the formats whose
 * meaning is a calendar date, a date-time or a period of them. Everything else stays as sent.
 */
import type { DateValue } from '../canonical.ts';

const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** `CCYYMMDD` as `CCYY-MM-DD` when it is a real calendar day. */
const isoDate = (digits: string): string | undefined => {
  if (!/^\d{8}$/.test(digits)) return undefined;
  const year = Number(digits.slice(0, 4));
  const month = Number(digits.slice(4, 6));
  const day = Number(digits.slice(6, 8));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
};

/** `HHMM` or `HHMMSS` as `HH:MM(:SS)`. */
const isoTime = (digits: string): string | undefined => {
  if (!/^\d{4}(\d{2})?$/.test(digits)) return undefined;
  if (Number(digits.slice(0, 2)) > 23 || Number(digits.slice(2, 4)) > 59) return undefined;
  if (digits.length === 6 && Number(digits.slice(4, 6)) > 59) return undefined;
  return digits.length === 6
    ? `${digits.slice(0, 2)}:${digits.slice(2, 4)}:${digits.slice(4, 6)}`
    : `${digits.slice(0, 2)}:${digits.slice(2, 4)}`;
};

/** A two-digit year (formats 101, 201): 00-49 are 20xx and 50-99 are 19xx, the window EANCOM's UNB dates use. */
const century = (yy: string): string => (Number(yy) < 50 ? '20' : '19') + yy;

const dateTime = (digits: string): string | undefined => {
  const date = isoDate(digits.slice(0, 8));
  const time = isoTime(digits.slice(8));
  return date && time ? `${date}T${time}` : undefined;
};

/** A period written as two halves of `half` characters, with or without the hyphen between them. */
const period = (value: string, half: number, convert: (s: string) => string | undefined): string | undefined => {
  const parts =
    value.length === half * 2 + 1 && value[half] === '-'
      ? [value.slice(0, half), value.slice(half + 1)]
      : value.length === half * 2
        ? [value.slice(0, half), value.slice(half)]
        : undefined;
  if (!parts) return undefined;
  const from = convert(parts[0] as string);
  const to = convert(parts[1] as string);
  return from && to ? `${from}/${to}` : undefined;
};

/** The ISO form of a value of a format code (UNCL 2379), or undefined when the format is not a date or the value does not fit it. */
const convert = (format: string, value: string): Pick<DateValue, 'type' | 'value'> | undefined => {
  let iso: string | undefined;
  switch (format) {
    case '102':
      iso = isoDate(value);
      return iso ? { type: 'date', value: iso } : undefined;
    case '101':
      iso = /^\d{6}$/.test(value) ? isoDate(century(value.slice(0, 2)) + value.slice(2)) : undefined;
      return iso ? { type: 'date', value: iso } : undefined;
    case '203':
      iso = value.length === 12 ? dateTime(value) : undefined;
      return iso ? { type: 'dateTime', value: iso } : undefined;
    case '204':
      iso = value.length === 14 ? dateTime(value) : undefined;
      return iso ? { type: 'dateTime', value: iso } : undefined;
    case '201':
      iso = /^\d{10}$/.test(value) ? dateTime(century(value.slice(0, 2)) + value.slice(2)) : undefined;
      return iso ? { type: 'dateTime', value: iso } : undefined;
    case '205': {
      // CCYYMMDDHHMMZHHMM: Z is the sign of the offset from UTC.
      const match = /^(\d{12})([+-])(\d{2})(\d{2})$/.exec(value);
      iso = match ? dateTime(match[1] as string) : undefined;
      return iso && match ? { type: 'dateTime', value: `${iso}${match[2]}${match[3]}:${match[4]}` } : undefined;
    }
    case '718':
      iso = period(value, 8, isoDate);
      return iso ? { type: 'period', value: iso } : undefined;
    case '719':
      iso = period(value, 12, dateTime);
      return iso ? { type: 'period', value: iso } : undefined;
    default:
      return undefined;
  }
};

/** The formats whose values this reads; a value of another format is kept raw without remark. */
export const DATE_FORMATS: ReadonlySet<string> = new Set(['101', '102', '201', '203', '204', '205', '718', '719']);

/** Without a format code, the format a value's length implies (EANCOM always sends one; other senders may not). */
const implied = (value: string): string | undefined =>
  value.length === 8 ? '102' : value.length === 12 ? '203' : value.length === 14 ? '204' : undefined;

/**
 * A DTM value as a {@link DateValue}: ISO when its format (given or implied by its length) is a date, date-time or
 * period and the value is a real one; raw otherwise, with `format` kept so nothing is lost.
 */
export const toDateValue = (qualifier: string, value: string, format: string | undefined): DateValue => {
  const used = format || implied(value);
  const iso = used ? convert(used, value) : undefined;
  if (iso) return format ? { qualifier, ...iso, format } : { qualifier, ...iso };
  return format ? { qualifier, type: 'raw', value, format } : { qualifier, type: 'raw', value };
};
