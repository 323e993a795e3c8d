import { ActionIcon, Badge, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyLocation } from '@portal/contracts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { errorText, showFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useKeysetList } from '../../../lib/use-keyset-list.ts';
import { useDeleteLocationMutation } from '../api/company-locations-mutations.ts';
import { companyLocationsQuery, type LocationsPath } from '../api/company-locations-queries.ts';
import { LocationFormModal } from './location-form-modal.tsx';

function addressOf(location: CompanyLocation): string {
  const town = [location.postalCode, location.city].filter(Boolean).join(' ');
  return [location.street, town, location.country].filter(Boolean).join(', ');
}

/**
 * A company's GLNs and delivery points (issue 10): the list (cards on a phone), add, edit and delete with a
 * confirmation. `path` is the API's list of the company; without `canEdit` the list is read-only.
 */
export function CompanyLocationsSection({ path, canEdit }: { path: LocationsPath; canEdit: boolean }) {
  const { t } = useTranslation(['profile', 'validation']);
  const api = useApi();
  const list = useKeysetList(useInfiniteQuery(companyLocationsQuery(api, path)));
  const remove = useDeleteLocationMutation(path);
  const [editing, setEditing] = useState<{ location?: CompanyLocation } | null>(null);

  function confirmDelete(location: CompanyLocation) {
    confirmAction({
      title: t('profile:locations.deleteTitle', { gln: location.gln }),
      text: t('profile:locations.deleteText', { gln: location.gln, name: location.name }),
      confirmLabel: t('profile:locations.delete'),
      color: 'red',
      onConfirm: () =>
        remove.mutate(location.gln, {
          onSuccess: () => showSuccess({ message: t('profile:locations.deleted', { gln: location.gln }) }),
          onError: (error) => showFailure(error, 'profile'),
        }),
    });
  }

  const columns: DataColumn<CompanyLocation>[] = [
    {
      key: 'gln',
      header: t('profile:locations.fields.gln'),
      card: 'title',
      cell: (l) => (
        <Text span dir="ltr" ff="monospace" fw={600}>
          {l.gln}
        </Text>
      ),
    },
    {
      key: 'kind',
      header: t('profile:locations.fields.kind'),
      cell: (l) => (
        <Badge variant="dot" color={l.kind === 'company' ? 'blue' : 'teal'}>
          {t(`profile:locations.kinds.${l.kind}`)}
        </Badge>
      ),
    },
    { key: 'name', header: t('profile:locations.fields.name'), cell: (l) => l.name },
    { key: 'address', header: t('profile:locations.address'), cell: addressOf },
    { key: 'code', header: t('profile:locations.fields.code'), cell: (l) => l.code ?? '' },
  ];
  if (canEdit) {
    columns.push({
      key: 'actions',
      header: t('profile:locations.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (l) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label={t('profile:locations.edit')}>
            <ActionIcon
              variant="subtle"
              onClick={() => setEditing({ location: l })}
              aria-label={t('profile:locations.editLabel', { gln: l.gln })}
            >
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('profile:locations.delete')}>
            <ActionIcon
              variant="subtle"
              color="red"
              onClick={() => confirmDelete(l)}
              aria-label={t('profile:locations.deleteLabel', { gln: l.gln })}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    });
  }

  return (
    <Stack gap="md" component="section" aria-labelledby="company-locations-title" data-testid="company-locations">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={3} size="h4" id="company-locations-title">
            {t('profile:locations.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('profile:locations.description')}
          </Text>
        </div>
        {canEdit ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing({})}>
            {t('profile:locations.add')}
          </Button>
        ) : null}
      </Group>
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(l) => l.gln}
        rowAttributes={(l) => ({ 'data-gln': l.gln })}
        minWidth={720}
        aria-label={t('profile:locations.title')}
        emptyText={t('profile:locations.empty')}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'profile') }}
      />
      {editing ? <LocationFormModal path={path} location={editing.location} onClose={() => setEditing(null)} /> : null}
    </Stack>
  );
}
