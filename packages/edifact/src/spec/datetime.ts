/**
 * Date/time/period values (C507 2380) against their format qualifier (2379, UNTDID code list). Each code whose
 * description defines a fixed shape is checked field by field (a real calendar date, hours 00-23, minutes 00-59, a
 * week 01-53, ...); the quantity codes 801-814 must be a whole number. Codes whose text is not a fixed shape (the
 * time zone `ZZZ` of 301-304, 404 and 503, whose content UNTDID does not define) are checked for their other fields
 * only; 205 and 406 (`ZHHMM`, an offset whose sign UNTDID does not give) are not checked. Unknown codes are left alone (the code list check reports them). Reads text ranges: nothing is built for a
 * valid value.
 */

/** One field of a shape: its width in digits and its check, or a literal hyphen. */
type Field = { width: number; kind: FieldKind };
type FieldKind = 'CC' | 'CCYY' | 'YY' | 'MM' | 'DD' | 'HH' | 'mm' | 'SS' | 'WW' | 'DDD' | 'D' | 'S' | 'Q' | 'P' | 'A';
type Shape = { text: string; fields: (Field | '-' | 'ZZZ')[] };

const WIDTH: Record<FieldKind, number> = {
  CC: 2,
  CCYY: 4,
  YY: 2,
  MM: 2,
  DD: 2,
  HH: 2,
  mm: 2,
  SS: 2,
  WW: 2,
  DDD: 3,
  D: 1,
  S: 1,
  Q: 1,
  P: 1,
  A: 1,
};

/** Inclusive bounds of a field's number (days are checked against their month separately). */
const BOUNDS: Record<FieldKind, [number, number]> = {
  CC: [0, 99],
  CCYY: [0, 9999],
  YY: [0, 99],
  MM: [1, 12],
  DD: [1, 31],
  HH: [0, 24],
  mm: [0, 59],
  SS: [0, 59],
  WW: [1, 53],
  DDD: [1, 366],
  D: [1, 7],
  S: [1, 2],
  Q: [1, 4],
  P: [1, 3],
  A: [1, 3],
};

/**
 * The shapes, written as UNTDID 2379 (D.96A) describes them; `mm` is minutes, `MM` months. Tokens are separated by
 * spaces so month and minute cannot be confused.
 */
const SHAPES: Record<string, string> = {
  '2': 'DD MM YY',
  '3': 'MM DD YY',
  '4': 'DD MM CCYY', // D.01B
  '5': 'DD MM CCYY HH mm', // D.01B
  '101': 'YY MM DD',
  '102': 'CCYY MM DD',
  '103': 'YY WW D',
  '105': 'YY DDD',
  '106': 'MM DD',
  '107': 'DDD',
  '108': 'WW',
  '109': 'MM',
  '110': 'DD',
  '201': 'YY MM DD HH mm',
  '202': 'YY MM DD HH mm SS',
  '203': 'CCYY MM DD HH mm',
  '204': 'CCYY MM DD HH mm SS',
  '301': 'YY MM DD HH mm ZZZ',
  '302': 'YY MM DD HH mm SS ZZZ',
  '303': 'CCYY MM DD HH mm ZZZ',
  '304': 'CCYY MM DD HH mm SS ZZZ',
  '305': 'MM DD HH mm',
  '306': 'DD HH mm',
  '401': 'HH mm',
  '402': 'HH mm SS',
  '404': 'HH mm SS ZZZ',
  '405': 'mm mm SS', // MMMMSS: minutes as four digits, seconds
  '501': 'HH mm HH mm',
  '502': 'HH mm SS - HH mm SS',
  '503': 'HH mm SS ZZZ - HH mm SS ZZZ',
  '600': 'CC',
  '601': 'YY',
  '602': 'CCYY',
  '603': 'YY S',
  '604': 'CCYY S',
  '608': 'CCYY Q',
  '609': 'YY MM',
  '610': 'CCYY MM',
  '613': 'YY MM A',
  '614': 'CCYY MM A',
  '615': 'YY WW',
  '616': 'CCYY WW',
  '701': 'YY - YY',
  '702': 'CCYY - CCYY',
  '703': 'YY S - YY S',
  '704': 'CCYY S - CCYY S',
  '705': 'YY P YY P', // YYPYYP: "to be given without hyphen"
  '706': 'CCYY P - CCYY P',
  '707': 'YY Q - YY Q',
  '708': 'CCYY Q - CCYY Q',
  '709': 'YY MM - YY MM',
  '710': 'CCYY MM - CCYY MM',
  '711': 'CCYY MM DD - CCYY MM DD',
  '713': 'YY MM DD HH mm - YY MM DD HH mm',
  '715': 'YY WW - YY WW',
  '716': 'CCYY WW - CCYY WW',
  '717': 'YY MM DD - YY MM DD',
  '718': 'CCYY MM DD - CCYY MM DD',
  '719': 'CCYY MM DD HH mm - CCYY MM DD HH mm', // D.01B
  '720': 'D HH mm - D HH mm', // D.01B DHHMM-DHHMM
};

/** The quantity codes ("to indicate a quantity of months" ...): a whole number of units. */
const QUANTITIES = new Set(['801', '802', '803', '804', '805', '806', '807', '808', '809', '810', '811', '812', '814']);

const compile = (code: string, tokens: string): Shape => {
  const fields: Shape['fields'] = [];
  let text = '';
  for (const token of tokens.split(' ')) {
    if (token === '-' || token === 'ZZZ') {
      fields.push(token);
      text += token;
      continue;
    }
    const kind = token as FieldKind;
    // 405 MMMMSS: the first `mm mm` is one four-digit count of minutes.
    const last = fields[fields.length - 1];
    if (code === '405' && kind === 'mm' && typeof last === 'object' && last.kind === 'mm') {
      last.width = 4;
      text += 'MM';
      continue;
    }
    fields.push({ width: WIDTH[kind], kind });
    text += kind === 'mm' ? 'MM' : kind;
  }
  return { text, fields };
};

/** A field flattened for checkDateTime: width (or HYPHEN, ZONE), bounds, and what it counts for. */
type Step = { width: number; low: number; high: number; role: number };
const HYPHEN = -1;
const ZONE = -2;
const [NONE, YEAR, SHORT_YEAR, MONTH, DAY, HOUR, REST] = [0, 1, 2, 3, 4, 5, 6];
const ROLE: Partial<Record<FieldKind, number>> = { CCYY: YEAR, YY: SHORT_YEAR, MM: MONTH, DD: DAY, HH: HOUR };

const stepsOf = (shape: Shape): Step[] =>
  shape.fields.map((field): Step => {
    if (field === '-') return { width: HYPHEN, low: 0, high: 0, role: NONE };
    if (field === 'ZZZ') return { width: ZONE, low: 0, high: 0, role: NONE };
    const [low, high] = field.width <= 3 ? BOUNDS[field.kind] : [0, Infinity];
    const role = field.kind === 'mm' || field.kind === 'SS' ? REST : (ROLE[field.kind] ?? NONE);
    return { width: field.width, low, high, role };
  });

/** By code (0 to 999): an array read, not a Map look-up, as it runs for every DTM. */
const shapes: ((Shape & { steps: Step[] }) | undefined)[] = new Array<undefined>(1000).fill(undefined);
const addShape = (key: number, shape: Shape): void => {
  shapes[key] = { ...shape, steps: stepsOf(shape) };
};
for (const [code, tokens] of Object.entries(SHAPES)) addShape(Number(code), compile(code, tokens));
// 813 "Day of the week": Monday = 1.
addShape(813, { text: 'D', fields: [{ width: 1, kind: 'D' }] });

/** The 2379 codes checked, for documentation and tests. */
export const CHECKED_DATE_TIME_FORMATS: readonly string[] = [
  ...shapes.flatMap((shape, key) => (shape ? [String(key)] : [])),
  ...QUANTITIES,
].sort((a, b) => Number(a) - Number(b));

/** The shape text of a format code (`CCYYMMDD` for 102), or undefined when not checked. */
export const dateTimeShape = (format: string): string | undefined => {
  const key = formatKey(format, 0, format.length);
  if (key < 0) return undefined;
  if (QUANTITIES.has(format)) return 'n (a whole number)';
  return shapes[key]?.text;
};

/** 2379 codes are 1 to 3 digits: their number, or -1. */
const formatKey = (text: string, start: number, end: number): number => {
  if (end - start < 1 || end - start > 3) return -1;
  let key = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    key = key * 10 + c;
  }
  return key;
};

const daysIn = (month: number, year: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** Why a date/time value does not match its format. */
export type DateTimeProblem = 'shape' | 'calendar';

/**
 * Checks text[vs, ve) against the format code at formatText[fs, fe): undefined when it matches or the format is not
 * one checked here, else what is wrong.
 */
export const checkDateTime = (
  text: string,
  vs: number,
  ve: number,
  formatText: string,
  fs: number,
  fe: number,
): DateTimeProblem | undefined => {
  const key = formatKey(formatText, fs, fe);
  if (key < 0) return undefined;
  const shape = shapes[key];
  if (shape === undefined) {
    if (key < 801 || key > 814 || key === 813) return undefined;
    for (let i = vs; i < ve; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) return 'shape';
    }
    return undefined;
  }
  const steps = shape.steps;
  let p = vs;
  // Per date: year (with century when known), month and day, checked together at a hyphen or the end.
  let year = 2000;
  let month = -1;
  let day = -1;
  let hour = -1;
  let rest = 0;
  let calendar = false;
  for (let f = 0; f <= steps.length; f++) {
    const step = f < steps.length ? (steps[f] as Step) : undefined;
    if (step === undefined || step.width === HYPHEN) {
      // The hyphen of a range may be left out, as real traffic does (`2002080120020831` with 718): the
      // fields are of fixed width, so the value reads the same either way.
      if (step !== undefined && text.charCodeAt(p) === 45) p++;
      if (day > 0 && month > 0 && month <= 12 && day > daysIn(month, year)) calendar = true;
      if (hour === 24 && rest !== 0) calendar = true;
      year = 2000;
      month = day = hour = -1;
      rest = 0;
      continue;
    }
    if (step.width === ZONE) {
      // The time zone: three characters whose content UNTDID 2379 does not define.
      if (ve - p < 3) return 'shape';
      for (let i = p; i < p + 3; i++) if (text.charCodeAt(i) === 45) return 'shape';
      p += 3;
      continue;
    }
    const width = step.width;
    if (p + width > ve) return 'shape';
    let n = 0;
    for (let i = p; i < p + width; i++) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return 'shape';
      n = n * 10 + c;
    }
    p += width;
    if (n < step.low || n > step.high) calendar = true;
    const role = step.role;
    if (role === YEAR) year = n;
    else if (role === SHORT_YEAR)
      year = 2000 + n; // leap years repeat every 4 within a century: enough for 00..99
    else if (role === MONTH) month = n;
    else if (role === DAY) day = n;
    else if (role === HOUR) hour = n;
    else if (role === REST) rest += n;
  }
  if (p !== ve) return 'shape';
  return calendar ? 'calendar' : undefined;
};
