import i18next from 'i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { IMPERSONATION_REFUSALS, isErrorCode, type ErrorCode, type ErrorDetail } from '@portal/contracts';
import { findText } from '../i18n/dynamic-text.ts';
import { NETWORK_ERROR_STATUS, ApiError } from './api-error.ts';
import { TOAST_STATUSES } from './api-client.ts';
import { showError } from './notify.ts';

/**
 * The one place that words errors: API error codes, field error codes, and the toasts of failed calls.
 *
 * A code's text is `errors:<code>`; a field code's is `validation:<code>`. Some screens word a few of them their own
 * way, in their own catalog (older, more specific texts): that screen is an `ErrorArea`, passed by its call sites.
 */
export type ErrorArea =
  'admin' | 'user-management' | 'profile' | 'address-book' | 'partners' | 'documents' | 'ksef' | 'ettn';

type AreaWording = {
  /** Where the area words field codes: `<fields>.<code>`, before the shared `validation` texts. */
  fields:
    | 'admin:validation'
    | 'user-management:fieldErrors'
    | 'profile:fieldErrors'
    | 'address-book:fieldErrors'
    | 'partners:fieldErrors'
    | 'documents:fieldErrors'
    | 'ksef:fieldErrors'
    | 'ettn:fieldErrors';
  /** The area's own text for some API codes, before the shared `errors` texts. */
  codes: Partial<Record<ErrorCode, (error: ApiError) => string | undefined>>;
  /** A 400 whose details no form field took. */
  invalid?: () => string;
  /** A failure no text fits. */
  generic: () => string;
};

function isRefusal(value: unknown): value is (typeof IMPERSONATION_REFUSALS)[number] {
  return typeof value === 'string' && (IMPERSONATION_REFUSALS as readonly string[]).includes(value);
}

const companyBlocked = () => i18next.t('admin:users.impersonate.companyBlocked');

const AREAS: Record<ErrorArea, AreaWording> = {
  admin: {
    fields: 'admin:validation',
    codes: {
      'admin.impersonation_refused': (error) => {
        const reason = error.data['reason'];
        return isRefusal(reason) ? i18next.t(`admin:users.impersonate.refused.${reason}`) : undefined;
      },
      // In the admin area these come only from starting an impersonation in a blocked company.
      'auth.account_blocked': companyBlocked,
      'auth.system_disabled': companyBlocked,
      'admin.cannot_change_self': () => i18next.t('admin:errors.cannotChangeSelf'),
    },
    invalid: () => i18next.t('admin:errors.invalid'),
    generic: () => i18next.t('admin:errors.generic'),
  },
  'user-management': {
    fields: 'user-management:fieldErrors',
    codes: {
      'user_management.would_lock_out': () => i18next.t('user-management:errors.would_lock_out'),
      'user_management.cannot_deactivate_self': () => i18next.t('user-management:errors.cannot_deactivate_self'),
      'user_management.not_invited': () => i18next.t('user-management:errors.not_invited'),
    },
    generic: () => i18next.t('user-management:errors.generic'),
  },
  profile: {
    fields: 'profile:fieldErrors',
    codes: {},
    generic: () => i18next.t('profile:messages.unknownError'),
  },
  'address-book': {
    fields: 'address-book:fieldErrors',
    codes: {},
    generic: () => i18next.t('address-book:errors.generic'),
  },
  partners: {
    fields: 'partners:fieldErrors',
    codes: {},
    generic: () => i18next.t('partners:errors.generic'),
  },
  documents: {
    fields: 'documents:fieldErrors',
    codes: {},
    invalid: () => i18next.t('documents:errors.invalid'),
    generic: () => i18next.t('documents:errors.generic'),
  },
  ksef: {
    fields: 'ksef:fieldErrors',
    codes: {},
    generic: () => i18next.t('ksef:errors.generic'),
  },
  ettn: {
    fields: 'ettn:fieldErrors',
    codes: {},
    generic: () => i18next.t('ettn:errors.generic'),
  },
};

/** The text of an API error code, typed: every code has its text in `errors` (the typecheck holds them together). */
export function errorCodeText(code: ErrorCode): string {
  return i18next.t(`errors:${code}`);
}

/** The text of a code read from an answer, or undefined for a code that is not ours (an old or foreign server). */
export function findErrorText(code: string): string | undefined {
  return isErrorCode(code) ? errorCodeText(code) : undefined;
}

/** What to tell the user about a failed call: the area's own text, the code's text, or the area's generic failure. */
export function errorText(error: unknown, area: ErrorArea): string {
  const wording = AREAS[area];
  if (error instanceof ApiError) {
    const own = isErrorCode(error.code) ? wording.codes[error.code]?.(error) : undefined;
    if (own) return own;
    if (wording.invalid && error.status === 400 && error.details.length > 0) return wording.invalid();
    const known = findErrorText(error.code);
    if (known) return known;
  }
  return wording.generic();
}

/**
 * The text of a field error whose message is a key of the `validation` namespace (zod issues of the shared schemas
 * and the server's details carry them); a message the catalog does not know reads as a generic "invalid".
 */
export function validationText(message: string | undefined, params?: Record<string, unknown>): string | undefined {
  if (message === undefined) return undefined;
  // `pattern` names the expected shape when the caller knows it; without it the sentence still reads.
  const known = /^[A-Za-z_]+$/.test(message)
    ? findText(`validation:${message}`, { pattern: '', ...params })
    : undefined;
  return known ?? i18next.t('validation:invalid');
}

/** The text of a field error code (from zod or the server's details): the area's own wording first. */
export function fieldErrorText(message: string | undefined, area?: ErrorArea): string | undefined {
  if (message === undefined) return undefined;
  const own = area && /^[A-Za-z_]+$/.test(message) ? findText(`${AREAS[area].fields}.${message}`) : undefined;
  return own ?? validationText(message);
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

/** `applyServerDetails` for any failure: only an API error carries details. */
export function applyErrorDetails<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): boolean {
  return error instanceof ApiError && applyServerDetails(error.details, fields, setError);
}

export function isLockOut(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'user_management.would_lock_out';
}

/** A toast for a failure no form field took; the API client already toasts 401, 403 and 5xx ('Error <code>'). */
export function showFailure(error: unknown, area: ErrorArea): void {
  if (error instanceof ApiError && TOAST_STATUSES.has(error.status)) return;
  showError({ message: errorText(error, area), autoClose: isLockOut(error) ? false : undefined });
}

/**
 * A refused save: field errors (400, 409) go onto the form's fields, a lock-out to `onLockOut` when the form shows
 * one, anything else to a toast. `field` maps a server path onto a form field (list items onto their list).
 */
export function showSaveFailure<T extends FieldValues>(
  error: unknown,
  area: ErrorArea,
  form: {
    fields: readonly Path<T>[];
    setError: UseFormSetError<T>;
    onLockOut?: (text: string) => void;
    field?: (path: string) => string;
  },
): void {
  if (form.onLockOut && isLockOut(error)) {
    form.onLockOut(errorText(error, area));
    return;
  }
  if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
    const map = form.field;
    const details = map ? error.details.map((d) => ({ ...d, field: map(d.field) })) : error.details;
    if (applyServerDetails(details, form.fields, form.setError)) return;
  }
  showFailure(error, area);
}

/** The `Error <code>` toast of a failed request (description, section 8). */
export function showApiErrorToast(error: ApiError): void {
  // Only the statuses of TOAST_STATUSES reach this point, and each has its own `errors:http.<status>` text.
  const title =
    error.status === NETWORK_ERROR_STATUS ? i18next.t('errors:http.network') : findText(`errors:http.${error.status}`);
  showError({
    id: `api-error-${error.status}`,
    title,
    message: findErrorText(error.code) ?? i18next.t('errors:http.generic'),
  });
}
