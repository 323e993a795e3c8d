import i18next, { type TFunction } from 'i18next';
import { IMPERSONATION_REFUSALS, type ErrorDetail, type ImpersonationRefusal } from '@portal/contracts';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../lib/api-error.ts';
import { applyServerDetails, validationText } from '../../lib/form-errors.ts';

/** Field codes of the admin API the shared `validation` catalog does not word; the admin catalog does. */
const ADMIN_FIELD_CODES: ReadonlySet<string> = new Set([
  'positive',
  'integer',
  'min',
  'max',
  'telephone',
  'country',
  'dateTime',
  'emailTaken',
  'notFound',
  'oneOf',
  'zipRequired',
  'directoryUnreadable',
  'directoryIncomplete',
  'zipTooLarge',
  'directoryName',
]);

/** The text of a field error code (from zod or the server's details). */
export function fieldErrorText(t: TFunction, code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  return ADMIN_FIELD_CODES.has(code) ? t(`admin:validation.${code}`) : validationText(t, code);
}

function isRefusal(value: unknown): value is ImpersonationRefusal {
  return typeof value === 'string' && (IMPERSONATION_REFUSALS as readonly string[]).includes(value);
}

/** What to tell the admin about a failed call; the specific admin texts first, then the shared error catalog. */
export function adminErrorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'admin.impersonation_refused') {
      const reason = error.data['reason'];
      if (isRefusal(reason)) return t(`admin:users.impersonate.refused.${reason}`);
    }
    if (error.code === 'auth.account_blocked' || error.code === 'auth.system_disabled')
      return t('admin:users.impersonate.companyBlocked');
    if (error.code === 'admin.cannot_change_self') return t('admin:errors.cannotChangeSelf');
    if (error.code === 'resource.conflict') return t('admin:errors.conflict');
    if (error.status === 400 && error.details.length > 0) return t('admin:errors.invalid');
    if (i18next.exists(`errors:${error.code}`)) return t(`errors:${error.code}`);
  }
  return t('admin:errors.generic');
}

/** Puts a 400's details on the form's fields; true when any matched. */
export function applyAdminDetails<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean {
  if (!(error instanceof ApiError)) return false;
  const details: readonly ErrorDetail[] = error.details;
  return applyServerDetails(details, fields, setError);
}
