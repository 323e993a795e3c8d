import { Button, Group, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown, IconMail, IconMailOpened } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_ADDITIONAL_STATUSES,
  type DocumentAdditionalStatus,
  type DocumentDetail,
  type DocumentDirection,
  type DocumentStatusChange,
} from '@portal/contracts';
import { showFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useChangeStatus } from '../api/document-actions.ts';
import { BusinessStatusBadge } from './document-status-badge.tsx';

/** Whether the user may change the statuses of a direction's documents (inbox modify, outbox modify). */
export function useCanModify(direction: DocumentDirection): boolean {
  const { can } = usePermissions();
  return can(direction === 'in' ? 'INBOX_MODIFY' : 'OUTBOX_MODIFY');
}

/** Sends a status change and says what it did (a change to the same value changes nothing, and says so). */
export function useStatusChange() {
  const { t } = useTranslation('documents');
  const change = useChangeStatus();
  const run = (request: DocumentStatusChange, onDone?: () => void) =>
    change.mutate(request, {
      onSuccess: (answer) => {
        showSuccess({
          message: answer.changed.length
            ? t('actions.changed', { count: answer.changed.length })
            : t('actions.unchanged'),
        });
        onDone?.();
      },
      onError: (error) => showFailure(error, 'documents'),
    });
  return { run, pending: change.isPending };
}

/** The additional status as a menu: each status (the current one checked) and "none" to clear it. */
export function AdditionalStatusMenu(props: {
  current?: DocumentAdditionalStatus | null;
  disabled?: boolean;
  loading?: boolean;
  onChoose: (status: DocumentAdditionalStatus | null) => void;
}) {
  const { t } = useTranslation('documents');
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="light"
          rightSection={<IconChevronDown size={16} aria-hidden />}
          disabled={props.disabled}
          loading={props.loading}
          data-testid="additional-status-menu"
        >
          {t('actions.additionalStatus')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {DOCUMENT_ADDITIONAL_STATUSES.map((status) => (
          <Menu.Item
            key={status}
            onClick={() => props.onChoose(status)}
            rightSection={props.current === status ? <IconCheck size={16} aria-hidden /> : null}
            aria-current={props.current === status ? 'true' : undefined}
          >
            {t(`additionalStatus.${status}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item onClick={() => props.onChoose(null)}>{t('actions.clearAdditional')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * The document view's status actions: the business status, and for a user who may change the document, read or
 * unread (inbox) and the additional status. A user who may only read sees the badge alone.
 */
export function DocumentStatusActions({ doc }: { doc: DocumentDetail }) {
  const { t } = useTranslation('documents');
  const canModify = useCanModify(doc.direction);
  const { run, pending } = useStatusChange();
  const readable = doc.direction === 'in' && (doc.status === 'received' || doc.status === 'read');
  if (!canModify && !doc.businessStatus) return null;
  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={t('actions.title')} data-testid="document-status-actions">
      {doc.businessStatus ? <BusinessStatusBadge status={doc.businessStatus} /> : null}
      {canModify && readable ? (
        <Button
          variant="default"
          leftSection={
            doc.status === 'read' ? <IconMail size={18} aria-hidden /> : <IconMailOpened size={18} aria-hidden />
          }
          loading={pending}
          onClick={() => run({ ids: [doc.id], read: doc.status !== 'read' })}
        >
          {doc.status === 'read' ? t('actions.markUnread') : t('actions.markRead')}
        </Button>
      ) : null}
      {canModify ? (
        <AdditionalStatusMenu
          current={doc.additionalStatus}
          loading={pending}
          onChoose={(additionalStatus) => run({ ids: [doc.id], additionalStatus })}
        />
      ) : null}
    </Group>
  );
}
