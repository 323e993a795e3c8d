import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Restriction } from '@portal/contracts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { ListToolbar } from '../../../components/list-toolbar.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { showSuccess } from '../../../lib/notify.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useDeleteRestrictionMutation } from '../api/user-management-mutations.ts';
import { restrictionsQuery } from '../api/user-management-queries.ts';
import { errorText, showFailure } from '../../../lib/error-text.ts';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { RestrictionFormModal } from './restriction-form-modal.tsx';

const route = getRouteApi('/app/restrictions');

/** /restrictions: named rules narrowing what users and groups see; changes with RESTRICTIONS_MODIFY. */
export function RestrictionsPage() {
  const { t } = useTranslation('user-management');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('RESTRICTIONS_MODIFY');
  const search = route.useSearch();
  const navigate = useNavigate();
  const list = useKeysetList(useInfiniteQuery({ ...restrictionsQuery(api, search.search ?? ''), ...LOADED_BY_ROUTE }));
  const [editing, setEditing] = useState<Restriction | 'new' | undefined>();
  const remove = useDeleteRestrictionMutation();
  const all = t('restrictions.all');

  function confirmDelete(restriction: Restriction) {
    confirmAction({
      title: t('restrictions.delete.title'),
      text: t('restrictions.delete.text', { name: restriction.name }),
      confirmLabel: t('actions.delete'),
      color: 'red',
      onConfirm: () =>
        remove.mutate(restriction.id, {
          onSuccess: () => showSuccess({ message: t('restrictions.delete.done', { name: restriction.name }) }),
          onError: (error) => showFailure(error, 'user-management'),
        }),
    });
  }

  const columns: DataColumn<Restriction>[] = [
    {
      key: 'name',
      header: t('restrictions.columns.name'),
      card: 'title',
      cell: (r) => (
        <>
          <Text fw={600} size="sm">
            {r.name}
          </Text>
          {r.description ? (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {r.description}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      key: 'documentTypes',
      header: t('restrictions.columns.documentTypes'),
      cell: (r) => <Text size="sm">{r.documentTypes.length ? r.documentTypes.join(', ') : all}</Text>,
    },
    {
      key: 'directions',
      header: t('restrictions.columns.directions'),
      cell: (r) => (
        <Text size="sm">{r.directions.length ? r.directions.map((d) => t(`directions.${d}`)).join(', ') : all}</Text>
      ),
    },
    {
      key: 'partners',
      header: t('restrictions.columns.partnersAndGlns'),
      cell: (r) => (
        <Text size="sm">
          {t('restrictions.partnerSummary', { partners: r.partners.length, glns: r.deliveryPointGlns.length })}
        </Text>
      ),
    },
    {
      key: 'assignees',
      header: t('restrictions.columns.assignees'),
      cell: (r) => (
        <Group gap={4}>
          {r.assignees.users.map((u) => (
            <Badge
              key={u.id}
              variant="light"
              color="gray"
              c="gray.9"
              tt="none"
              leftSection={<IconUser size={12} aria-hidden />}
            >
              {`${u.firstName} ${u.lastName}`}
            </Badge>
          ))}
          {r.assignees.groups.map((g) => (
            <Badge
              key={g.id}
              variant="light"
              color="blue"
              c="blue.9"
              tt="none"
              leftSection={<IconUsersGroup size={12} aria-hidden />}
            >
              {g.name}
            </Badge>
          ))}
        </Group>
      ),
    },
  ];
  if (canModify)
    columns.push({
      key: 'actions',
      header: t('restrictions.columns.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (r) => (
        <EditDeleteActions
          editLabel={t('restrictions.actions.edit', { name: r.name })}
          deleteLabel={t('restrictions.actions.delete', { name: r.name })}
          onEdit={() => setEditing(r)}
          onDelete={() => confirmDelete(r)}
        />
      ),
    });

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('restrictions.title')}</Title>
        {canModify ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
            {t('restrictions.create.button')}
          </Button>
        ) : null}
      </Group>
      <Text c="dimmed" size="sm" maw={760}>
        {t('restrictions.intro')}
      </Text>
      <ListToolbar
        searchLabel={t('restrictions.search')}
        search={search.search}
        onSearch={(value) => navigate({ to: '/restrictions', search: value ? { search: value } : {}, replace: true })}
      />
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(r) => r.id}
        rowAttributes={(r) => ({ 'data-testid': `restriction-row-${r.name}` })}
        minWidth={860}
        aria-label={t('restrictions.caption')}
        data-testid="restrictions-table"
        emptyText={search.search ? t('list.noMatches') : t('restrictions.empty')}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'user-management') }}
      />
      {editing ? (
        <RestrictionFormModal
          restriction={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </Stack>
  );
}
