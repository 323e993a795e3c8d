import { ActionIcon, Alert, Badge, Button, Group, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPencil, IconPlus, IconTrash, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Restriction } from '@portal/contracts';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { showSuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../permissions/use-permissions.ts';
import { useDeleteRestrictionMutation } from '../api/user-management-mutations.ts';
import { restrictionsQuery } from '../api/user-management-queries.ts';
import { errorText, showFailure } from '../user-management-errors.ts';
import { ListToolbar } from './list-toolbar.tsx';
import { LoadMore } from './load-more.tsx';
import { RestrictionFormModal } from './restriction-form-modal.tsx';

/** /restrictions: named rules narrowing what users and groups see; changes with RESTRICTIONS_MODIFY. */
export function RestrictionsPage() {
  const { t } = useTranslation('user-management');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('RESTRICTIONS_MODIFY');
  const [search, setSearch] = useState('');
  const onSearch = useCallback((value: string) => setSearch(value), []);
  const query = useInfiniteQuery(restrictionsQuery(api, search));
  const [editing, setEditing] = useState<Restriction | 'new' | undefined>();
  const remove = useDeleteRestrictionMutation();
  const restrictions = query.data?.pages.flatMap((page) => page.items) ?? [];
  const all = t('restrictions.all');

  function confirmDelete(restriction: Restriction) {
    modals.openConfirmModal({
      title: t('restrictions.delete.title'),
      children: <Text size="sm">{t('restrictions.delete.text', { name: restriction.name })}</Text>,
      labels: { confirm: t('actions.delete'), cancel: t('actions.cancel') },
      closeButtonProps: { 'aria-label': t('common:close') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(restriction.id, {
          onSuccess: () => showSuccess({ message: t('restrictions.delete.done', { name: restriction.name }) }),
          onError: showFailure,
        }),
    });
  }

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
      <ListToolbar searchLabel={t('restrictions.search')} onSearch={onSearch} />
      {query.isError ? (
        <Alert color="red" role="alert">
          {errorText(query.error)}
        </Alert>
      ) : null}
      {query.isPending ? (
        <PageLoader />
      ) : (
        <Table.ScrollContainer minWidth={860}>
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="restrictions-table" aria-label={t('restrictions.caption')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('restrictions.columns.name')}</Table.Th>
                <Table.Th scope="col">{t('restrictions.columns.documentTypes')}</Table.Th>
                <Table.Th scope="col">{t('restrictions.columns.directions')}</Table.Th>
                <Table.Th scope="col">{t('restrictions.columns.partnersAndGlns')}</Table.Th>
                <Table.Th scope="col">{t('restrictions.columns.assignees')}</Table.Th>
                {canModify ? (
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('restrictions.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {restrictions.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={canModify ? 6 : 5}>
                    <Text c="dimmed" ta="center" py="md">
                      {search ? t('list.noMatches') : t('restrictions.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {restrictions.map((r) => (
                <Table.Tr key={r.id} data-testid={`restriction-row-${r.name}`}>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {r.name}
                    </Text>
                    {r.description ? (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {r.description}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{r.documentTypes.length ? r.documentTypes.join(', ') : all}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{r.directions.length ? r.directions.map((d) => t(`directions.${d}`)).join(', ') : all}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{t('restrictions.partnerSummary', { partners: r.partners.length, glns: r.deliveryPointGlns.length })}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {r.assignees.users.map((u) => (
                        <Badge key={u.id} variant="light" color="gray" c="gray.9" tt="none" leftSection={<IconUser size={12} aria-hidden />}>
                          {`${u.firstName} ${u.lastName}`}
                        </Badge>
                      ))}
                      {r.assignees.groups.map((g) => (
                        <Badge key={g.id} variant="light" color="blue" c="blue.9" tt="none" leftSection={<IconUsersGroup size={12} aria-hidden />}>
                          {g.name}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  {canModify ? (
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label={t('actions.edit')}>
                          <ActionIcon variant="subtle" onClick={() => setEditing(r)} aria-label={t('restrictions.actions.edit', { name: r.name })}>
                            <IconPencil size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('actions.delete')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            onClick={() => confirmDelete(r)}
                            aria-label={t('restrictions.actions.delete', { name: r.name })}
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
        shown={restrictions.length}
        total={query.data?.pages[0]?.total}
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoadMore={() => void query.fetchNextPage()}
      />
      {editing ? (
        <RestrictionFormModal restriction={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      ) : null}
    </Stack>
  );
}
