import i18next, { type TFunction } from 'i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { ErrorDetail } from '@portal/contracts';

/**
 * The text of a field error whose message is a key of the `validation` namespace (zod issues of the shared schemas
 * and the server's details carry them); a message the catalog does not know reads as a generic "invalid".
 */
export function validationText(
  t: TFunction,
  message: string | undefined,
  params?: Record<string, unknown>,
): string | undefined {
  if (message === undefined) return undefined;
  const key = /^[A-Za-z_]+$/.test(message) && i18next.exists(`validation:${message}`) ? message : 'invalid';
  // `pattern` names the expected shape when the caller knows it; without it the sentence still reads.
  return t(`validation:${key}`, { pattern: '', ...params });
}

/** Puts the server's 400 details on the matching fields; returns whether any detail matched a field. */
export function applyServerDetails<T extends FieldValues>(
  details: readonly ErrorDetail[],
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean {
  let matched = false;
  for (const detail of details) {
    const field = fields.find((f) => f === detail.field);
    if (!field) continue;
    setError(field, { type: 'server', message: detail.code }, { shouldFocus: !matched });
    matched = true;
  }
  return matched;
}
