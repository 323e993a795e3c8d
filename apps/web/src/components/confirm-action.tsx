import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import i18next from 'i18next';

/** A yes/cancel dialog before a change that is hard to undo (delete, deactivate); the theme names its close button. */
export function confirmAction(options: {
  title: string;
  text: string;
  confirmLabel: string;
  color: 'red' | 'green';
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title: options.title,
    children: <Text size="sm">{options.text}</Text>,
    labels: { confirm: options.confirmLabel, cancel: i18next.t('common:cancel') },
    confirmProps: { color: options.color },
    onConfirm: options.onConfirm,
  });
}
