import { AppError } from '../../lib/app-error.ts';

/** An opaque cursor: the sort key of the last row of a page, as base64url JSON. */
export function encodeCursor(key: readonly string[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key in a cursor, with `size` string parts; a cursor that is not one of ours is a 400 on `cursor`. */
export function decodeCursor(cursor: string | undefined, size: number): string[] | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const isKey =
    Array.isArray(key) &&
    key.length === size &&
    key.every((part): part is string => typeof part === 'string') &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(key[size - 1]));
  if (!isKey) throw new AppError('validation.failed', 400, { details: [{ field: 'cursor', code: 'cursor' }] });
  return key as string[];
}
