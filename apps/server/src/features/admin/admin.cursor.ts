import { AppError } from '../../lib/app-error.ts';

/** An opaque page cursor: the sort key of the last row of a page, as base64url JSON. */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key in a cursor, with `size` string parts; anything else is a 400 on `cursor`. */
export function decodeCursor(
  cursor: string | undefined,
  size: number,
  isValid: (key: string[]) => boolean = () => true,
): string[] | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const ok =
    Array.isArray(key) &&
    key.length === size &&
    key.every((part): part is string => typeof part === 'string' && part.length <= 300) &&
    isValid(key);
  if (!ok) throw new AppError('validation.failed', 400, { details: [{ field: 'cursor', code: 'cursor' }] });
  return key as string[];
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page of `limit` rows from a query that fetched `limit + 1`, with the cursor of its last row. */
export function toPage<R, T>(rows: R[], limit: number, map: (row: R) => T, keyOf: (row: R) => string[]) {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map(map), nextCursor: more && last ? encodeCursor(keyOf(last)) : null };
}

/** `%text%` for ILIKE with the pattern characters of the text escaped. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
