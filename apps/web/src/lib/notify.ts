import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { TOAST_DURATION_MS } from '@portal/contracts';

type Toast = { title?: ReactNode; message: ReactNode; autoClose?: number | false; id?: string };

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
