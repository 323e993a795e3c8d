import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { ERROR_CODES, TOAST_DURATION_MS } from '@portal/contracts';
import { NETWORK_ERROR_STATUS, type ApiError } from './api-error.ts';

type Toast = { title?: ReactNode; message: ReactNode; autoClose?: number | false; id?: string };

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** The translated text of an API error code, or undefined for a code the catalogs do not know. */
export function findErrorText(code: string): string | undefined {
  return KNOWN_CODES.has(code) ? i18next.t(`errors:${code}`) : undefined;
}

/** The close button of a toast needs a name for screen readers (axe: button-name); spread into every toast. */
export const closeLabel = () => ({ closeButtonProps: { 'aria-label': i18next.t('common:close') } });

export function showSuccess(toast: Toast): void {
  notifications.show({ color: 'green', autoClose: TOAST_DURATION_MS, ...closeLabel(), ...toast });
}

export function showError(toast: Toast): void {
  notifications.show({ color: 'red', autoClose: TOAST_DURATION_MS, ...closeLabel(), ...toast });
}

export function showWarning(toast: Toast): void {
  notifications.show({ color: 'yellow', autoClose: TOAST_DURATION_MS, ...closeLabel(), ...toast });
}

/** The `Error <code>` toast of a failed request (description, section 8). */
export function showApiErrorToast(error: ApiError): void {
  // Only the statuses of TOAST_STATUSES reach this point, and each has its own `errors:http.<status>` text.
  const title = i18next.t(
    error.status === NETWORK_ERROR_STATUS ? 'errors:http.network' : `errors:http.${error.status}`,
  );
  showError({
    id: `api-error-${error.status}`,
    title,
    message: findErrorText(error.code) ?? i18next.t('errors:http.generic'),
  });
}
