import { isStorableText } from '@portal/contracts';
import { AppError } from './app-error.ts';

/**
 * Keyset pagination, as every list of the API does it: a page is the rows after the sort key of the previous page's
 * last row; the cursor is that key as opaque base64url JSON (an array of strings), and the response is
 * `{ items, nextCursor }` (`null` on the last page).
 */

/** Checks one part of a cursor's key: a forged or stale cursor must fail here, not in the SQL. */
export type KeyPart = (part: string) => boolean;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** PostgreSQL's text form of a timestamptz (`created_at::text`), which keeps the microseconds a Date would lose. */
const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:[+-](\d{2})(?::?(\d{2}))?|Z)?$/;

/** Whether the year, month and day name a day of the calendar (not 2026-02-30, not year 0, which PostgreSQL refuses). */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years below 100 as 19xx.
  date.setUTCFullYear(year, month - 1, day);
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const anyText: KeyPart = () => true;
/** Text of at most 300 characters (sort keys of names and e-mail addresses). */
export const shortText: KeyPart = (part) => part.length <= 300;
export const uuid: KeyPart = (part) => UUID.test(part);
/** A timestamp of that form that PostgreSQL can read: a shape alone lets `2026-99-99 99:99:99` through to the SQL. */
export const timestampText: KeyPart = (part) => {
  const match = TIMESTAMP_TEXT.exec(part);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((field) => (field === undefined ? undefined : Number(field)));
  return (
    isCalendarDay(year!, month!, day!) &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60 &&
    offsetHours <= 15 &&
    offsetMinutes < 60
  );
};
/** A bigserial id. */
export const serialId: KeyPart = (part) => /^[1-9][0-9]{0,15}$/.test(part);

export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The key in a cursor, one string per part; a cursor that is not one of ours is a 400 on the field `cursor`. Every part
 * is text the database can take (no NUL, no lone surrogate: `anyText` included), whatever its own check says.
 */
export function decodeCursor(cursor: string | undefined, parts: readonly KeyPart[]): string[] | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const ok =
    Array.isArray(key) &&
    key.length === parts.length &&
    key.every((part: unknown, i) => typeof part === 'string' && isStorableText(part) && parts[i]!(part));
  if (!ok) throw new AppError('validation.failed', { details: [{ field: 'cursor', code: 'cursor' }] });
  return key as string[];
}

/**
 * The page in rows fetched with `limit + 1` (the extra row only says that another page follows), and the cursor of
 * its last row.
 */
export function takePage<R>(
  rows: readonly R[],
  limit: number,
  keyOf: (row: R) => readonly string[],
): { rows: R[]; nextCursor: string | null } {
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  return { rows: kept, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}

/** {@link takePage} with each row mapped to its API form. */
export function toPage<R, T>(
  rows: readonly R[],
  limit: number,
  map: (row: R) => T,
  keyOf: (row: R) => readonly string[],
): { items: T[]; nextCursor: string | null } {
  const page = takePage(rows, limit, keyOf);
  return { items: page.rows.map(map), nextCursor: page.nextCursor };
}
