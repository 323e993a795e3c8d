import { ActionIcon, Alert, Badge, Button, Group, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEATURE_PERMISSIONS, type Group as GroupData } from '@portal/contracts';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { intlLocale } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../permissions/use-permissions.ts';
import { useDeleteGroupMutation } from '../api/user-management-mutations.ts';
import { groupsQuery } from '../api/user-management-queries.ts';
import { errorText, showFailure } from '../user-management-errors.ts';
import { GroupFormModal } from './group-form-modal.tsx';
import { ListToolbar } from './list-toolbar.tsx';
import { LoadMore } from './load-more.tsx';

/** /groups: the company's groups with member counts; create, edit and delete with GROUPS_MODIFY. */
export function GroupsPage() {
  const { t, i18n } = useTranslation('user-management');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('GROUPS_MODIFY');
  const [search, setSearch] = useState('');
  const onSearch = useCallback((value: string) => setSearch(value), []);
  const query = useInfiniteQuery(groupsQuery(api, search));
  const [editing, setEditing] = useState<GroupData | 'new' | undefined>();
  const remove = useDeleteGroupMutation();
  const groups = query.data?.pages.flatMap((page) => page.items) ?? [];

  function confirmDelete(group: GroupData) {
    modals.openConfirmModal({
      title: t('groups.delete.title'),
      children: <Text size="sm">{t('groups.delete.text', { name: group.name })}</Text>,
      labels: { confirm: t('actions.delete'), cancel: t('actions.cancel') },
      closeButtonProps: { 'aria-label': t('common:close') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(group.id, {
          onSuccess: () => showSuccess({ message: t('groups.delete.done', { name: group.name }) }),
          onError: showFailure,
        }),
    });
  }

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
      <ListToolbar searchLabel={t('groups.search')} onSearch={onSearch} />
      {query.isError ? (
        <Alert color="red" role="alert">
          {errorText(query.error)}
        </Alert>
      ) : null}
      {query.isPending ? (
        <PageLoader />
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="groups-table" aria-label={t('groups.caption')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('groups.columns.name')}</Table.Th>
                <Table.Th scope="col">{t('groups.columns.members')}</Table.Th>
                <Table.Th scope="col">{t('groups.columns.permissions')}</Table.Th>
                {canModify ? (
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('groups.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={canModify ? 4 : 3}>
                    <Text c="dimmed" ta="center" py="md">
                      {search ? t('list.noMatches') : t('groups.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {groups.map((group) => (
                <Table.Tr key={group.id} data-testid={`group-row-${group.name}`}>
                  <Table.Td fw={600}>{group.name}</Table.Td>
                  <Table.Td>{group.memberCount.toLocaleString(intlLocale(i18n.language))}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="blue" c="blue.9" tt="none">
                      {t('groups.permissionCount', { selected: group.permissions.length, total: FEATURE_PERMISSIONS.length })}
                    </Badge>
                  </Table.Td>
                  {canModify ? (
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label={t('actions.edit')}>
                          <ActionIcon variant="subtle" onClick={() => setEditing(group)} aria-label={t('groups.actions.edit', { name: group.name })}>
                            <IconPencil size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('actions.delete')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            onClick={() => confirmDelete(group)}
                            aria-label={t('groups.actions.delete', { name: group.name })}
                          >
                            <IconTrash size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore
        shown={groups.length}
        total={query.data?.pages[0]?.total}
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoadMore={() => void query.fetchNextPage()}
      />
      {editing ? <GroupFormModal group={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
