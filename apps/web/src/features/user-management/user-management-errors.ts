import type { TFunction } from 'i18next';
import i18next from 'i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { TOAST_STATUSES } from '../../lib/api-client.ts';
import { ApiError } from '../../lib/api-error.ts';
import { applyServerDetails, validationText } from '../../lib/form-errors.ts';
import { findErrorText, showError } from '../../lib/notify.ts';

/** Field error codes of these forms that the shared `validation` catalog does not word (yet). */
const FIELD_CODES = new Set(['telephone', 'gln', 'oneOf', 'emailTaken', 'nameTaken', 'notFound', 'tooBig', 'uuid']);

export function fieldErrorText(t: TFunction, message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  if (FIELD_CODES.has(message)) return i18next.t(`user-management:fieldErrors.${message}`);
  return validationText(t, message);
}

/** Codes of this area whose text lives in this namespace (the shared `errors` catalog may not have them yet). */
const OWN_CODES = new Set([
  'user_management.would_lock_out',
  'user_management.cannot_deactivate_self',
  'user_management.not_invited',
]);

/** The text of a failed call: this area's own codes, the shared `errors` texts, or a generic failure. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (OWN_CODES.has(error.code))
      return i18next.t(`user-management:errors.${error.code.replace('user_management.', '')}`);
    const known = findErrorText(error.code);
    if (known) return known;
  }
  return i18next.t('user-management:errors.generic');
}

export function isLockOut(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'user_management.would_lock_out';
}

/** A toast for a failure no form field took; the API client already toasts 401, 403 and 5xx. */
export function showFailure(error: unknown): void {
  if (error instanceof ApiError && TOAST_STATUSES.has(error.status)) return;
  showError({ message: errorText(error), autoClose: isLockOut(error) ? false : undefined });
}

/**
 * A refused save: field errors (400, 409) go onto the form's fields, a lock-out to `onLockOut` when the form shows
 * one, anything else to a toast. `field` maps a server path onto a form field (list items onto their list).
 */
export function showSaveFailure<T extends FieldValues>(
  error: unknown,
  form: {
    fields: readonly Path<T>[];
    setError: UseFormSetError<T>;
    onLockOut?: (text: string) => void;
    field?: (path: string) => string;
  },
): void {
  if (form.onLockOut && isLockOut(error)) {
    form.onLockOut(errorText(error));
    return;
  }
  if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
    const map = form.field;
    const details = map ? error.details.map((d) => ({ ...d, field: map(d.field) })) : error.details;
    if (applyServerDetails(details, form.fields, form.setError)) return;
  }
  showFailure(error);
}
