import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEATURE_PERMISSIONS, type UserGroup } from '@portal/contracts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { ListToolbar } from '../../../components/list-toolbar.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { intlLocale } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useDeleteGroupMutation } from '../api/user-management-mutations.ts';
import { groupsQuery } from '../api/user-management-queries.ts';
import { errorText, showFailure } from '../../../lib/error-text.ts';
import { GroupFormModal } from './group-form-modal.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';

const route = getRouteApi('/app/groups');

/** /groups: the company's groups with member counts; create, edit and delete with GROUPS_MODIFY. */
export function GroupsPage() {
  const { t, i18n } = useTranslation('user-management');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('GROUPS_MODIFY');
  const search = route.useSearch();
  const navigate = useNavigate();
  const list = useKeysetList(useInfiniteQuery({ ...groupsQuery(api, search.search ?? ''), ...LOADED_BY_ROUTE }));
  const [editing, setEditing] = useState<UserGroup | 'new' | undefined>();
  const remove = useDeleteGroupMutation();

  function confirmDelete(group: UserGroup) {
    confirmAction({
      title: t('groups.delete.title'),
      text: t('groups.delete.text', { name: group.name }),
      confirmLabel: t('actions.delete'),
      color: 'red',
      onConfirm: () =>
        remove.mutate(group.id, {
          onSuccess: () => showSuccess({ message: t('groups.delete.done', { name: group.name }) }),
          onError: (error) => showFailure(error, 'user-management'),
        }),
    });
  }

  const columns: DataColumn<UserGroup>[] = [
    { key: 'name', header: t('groups.columns.name'), card: 'title', cellProps: { fw: 600 }, cell: (g) => g.name },
    {
      key: 'members',
      header: t('groups.columns.members'),
      cell: (group) => group.memberCount.toLocaleString(intlLocale(i18n.language)),
    },
    {
      key: 'permissions',
      header: t('groups.columns.permissions'),
      cell: (group) => (
        <Badge variant="light" color="blue" c="blue.9" tt="none">
          {t('groups.permissionCount', { selected: group.permissions.length, total: FEATURE_PERMISSIONS.length })}
        </Badge>
      ),
    },
  ];
  if (canModify)
    columns.push({
      key: 'actions',
      header: t('groups.columns.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (group) => (
        <EditDeleteActions
          editLabel={t('groups.actions.edit', { name: group.name })}
          deleteLabel={t('groups.actions.delete', { name: group.name })}
          onEdit={() => setEditing(group)}
          onDelete={() => confirmDelete(group)}
        />
      ),
    });

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('groups.title')}</Title>
        {canModify ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
            {t('groups.create.button')}
          </Button>
        ) : null}
      </Group>
      <ListToolbar
        searchLabel={t('groups.search')}
        search={search.search}
        onSearch={(value) => navigate({ to: '/groups', search: value ? { search: value } : {}, replace: true })}
      />
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(group) => group.id}
        rowAttributes={(group) => ({ 'data-testid': `group-row-${group.name}` })}
        minWidth={640}
        aria-label={t('groups.caption')}
        data-testid="groups-table"
        emptyText={search.search ? t('list.noMatches') : t('groups.empty')}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'user-management') }}
      />
      {editing ? (
        <GroupFormModal group={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      ) : null}
    </Stack>
  );
}
