import i18next from 'i18next';
import { ApiError } from '../../lib/api-error.ts';
import { TOAST_STATUSES } from '../../lib/api-client.ts';
import { findErrorText, showError } from '../../lib/notify.ts';

/**
 * Shows a failed save that no field took: the API client already toasts 401, 403 and 5xx ('Error <code>'), so only
 * the others get a toast here, with the code's text or 'Unknown error'.
 */
export function showMutationError(error: unknown): void {
  if (error instanceof ApiError && TOAST_STATUSES.has(error.status)) return;
  const text = error instanceof ApiError ? findErrorText(error.code) : undefined;
  showError({ message: text ?? i18next.t('profile:messages.unknownError') });
}
