import { ActionIcon, Anchor, Collapse, Group, Stack, Table, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconCopy, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { showSuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { draftsQuery, useCopyDraftMutation, useDeleteDraftMutation } from '../api/drafts-queries.ts';

/** The outbox's drafts: the documents being written, the last saved first; edit, copy, delete. Hidden when none. */
export function DraftsSection() {
  const { t, ready, i18n } = useTranslation('drafts');
  const api = useApi();
  const navigate = useNavigate();
  const { can } = usePermissions();
  const drafts = useQuery(draftsQuery(api));
  const copy = useCopyDraftMutation();
  const remove = useDeleteDraftMutation();
  const [open, setOpen] = useState(true);
  const items = drafts.data?.items ?? [];
  if (!ready || items.length === 0) return null;
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <Stack gap="xs" data-testid="drafts-section">
      <Anchor component="button" type="button" fw={600} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        {t('list.count', { count: items.length })}
      </Anchor>
      <Collapse expanded={open}>
        <Table verticalSpacing="xs" aria-label={t('list.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('list.kind')}</Table.Th>
              <Table.Th>{t('list.number')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('list.partner')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('list.lines')}</Table.Th>
              <Table.Th visibleFrom="md">{t('list.updated')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('list.edit')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.id} data-testid="draft-row">
                <Table.Td>{t(`kinds.${d.kind}`)}</Table.Td>
                <Table.Td>
                  <Anchor renderRoot={(props) => <Link {...props} to="/drafts/$id" params={{ id: d.id }} />}>
                    {d.number || t('list.noNumber')}
                  </Anchor>
                </Table.Td>
                <Table.Td visibleFrom="sm">{d.partnerName ?? ''}</Table.Td>
                <Table.Td visibleFrom="sm">{d.lineCount}</Table.Td>
                <Table.Td visibleFrom="md">{when.format(new Date(d.updatedAt))}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <Tooltip label={t('list.edit')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={`${t('list.edit')}: ${d.number || t('list.noNumber')}`}
                        onClick={() => void navigate({ to: '/drafts/$id', params: { id: d.id } })}
                      >
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    {can('OUTBOX_CREATE') ? (
                      <Tooltip label={t('list.copy')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`${t('list.copy')}: ${d.number || t('list.noNumber')}`}
                          onClick={() =>
                            void copy.mutateAsync(d.id).then((created) => {
                              showSuccess({ message: t('list.copied') });
                              void navigate({ to: '/drafts/$id', params: { id: created.id } });
                            })
                          }
                        >
                          <IconCopy size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                    <Tooltip label={t('list.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`${t('list.delete')}: ${d.number || t('list.noNumber')}`}
                        onClick={() =>
                          void remove.mutateAsync(d.id).then(() => showSuccess({ message: t('list.deleted') }))
                        }
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Collapse>
    </Stack>
  );
}
