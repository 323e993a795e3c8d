import i18next from 'i18next';
import type { Partner } from '@portal/contracts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { showFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';

/** Asks before deleting a partner, then deletes it with the given mutation. */
export function confirmDeletePartner(
  partner: Pick<Partner, 'id' | 'name'>,
  remove: (id: string, handlers: { onSuccess: () => void; onError: (error: unknown) => void }) => void,
  onDeleted?: () => void,
) {
  confirmAction({
    title: i18next.t('partners:delete.title'),
    text: i18next.t('partners:delete.text', { name: partner.name }),
    confirmLabel: i18next.t('partners:actions.delete'),
    color: 'red',
    onConfirm: () =>
      remove(partner.id, {
        onSuccess: () => {
          showSuccess({ message: i18next.t('partners:delete.done', { name: partner.name }) });
          onDeleted?.();
        },
        onError: (error) => showFailure(error, 'partners'),
      }),
  });
}
