import i18next from 'i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { findText } from '../../i18n/dynamic-text.ts';
import { ApiError } from '../../lib/api-error.ts';
import { TOAST_STATUSES } from '../../lib/api-client.ts';
import { applyErrorDetails, findErrorText, validationText } from '../../lib/error-text.ts';
import { showError } from '../../lib/notify.ts';

/**
 * The products screen's wording of errors: its own field codes (`products:fieldErrors`: GTIN, unit, price, VAT…) before
 * the shared validation texts, API codes from `errors`, and its own generic failure.
 */
export function productFieldText(code: string | undefined, params?: Record<string, unknown>): string | undefined {
  if (code === undefined) return undefined;
  const own = /^[A-Za-z_]+$/.test(code) ? findText(`products:fieldErrors.${code}`, params) : undefined;
  return own ?? validationText(code, params);
}

export function productsErrorText(error: unknown): string {
  const known = error instanceof ApiError ? findErrorText(error.code) : undefined;
  return known ?? i18next.t('products:errors.generic');
}

/** A toast for a failure no form field took; the API client already toasts 401, 403 and 5xx. */
export function showProductsFailure(error: unknown): void {
  if (error instanceof ApiError && TOAST_STATUSES.has(error.status)) return;
  showError({ message: productsErrorText(error) });
}

/** A refused save: the server's field errors (400, 409) onto the form's fields, anything else to a toast. */
export function showProductSaveFailure<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): void {
  const isFieldError = error instanceof ApiError && (error.status === 400 || error.status === 409);
  if (isFieldError && applyErrorDetails(error, fields, setError)) return;
  showProductsFailure(error);
}
