import { ActionIcon, Alert, Badge, Button, Group, Menu, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDots, IconMail, IconPencil, IconPlayerPlay, IconPlayerStop, IconUserPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { USER_STATUSES, type CompanyUser, type UserStatus } from '@portal/contracts';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../permissions/use-permissions.ts';
import { useResendInvitationMutation, useSetUserActiveMutation } from '../api/user-management-mutations.ts';
import { companyUsersQuery } from '../api/user-management-queries.ts';
import { errorText, showFailure } from '../user-management-errors.ts';
import { EditUserModal } from './edit-user-modal.tsx';
import { InviteUserModal } from './invite-user-modal.tsx';
import { ListToolbar } from './list-toolbar.tsx';
import { LoadMore } from './load-more.tsx';
import { UserStatusBadge } from './user-status-badge.tsx';

const fullName = (user: Pick<CompanyUser, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`.trim();

/** /users: the company's users with search, status filter and keyset "load more"; changes with USERS_MODIFY. */
export function UsersPage() {
  const { t, i18n } = useTranslation('user-management');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('USERS_MODIFY');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<UserStatus | undefined>();
  const onSearch = useCallback((value: string) => setSearch(value), []);
  const query = useInfiniteQuery(companyUsersQuery(api, { search, status }));
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<CompanyUser | undefined>();
  const resend = useResendInvitationMutation();
  const setActive = useSetUserActiveMutation();

  const users = query.data?.pages.flatMap((page) => page.items) ?? [];
  const total = query.data?.pages[0]?.total;

  function confirmActive(user: CompanyUser, active: boolean) {
    const name = fullName(user);
    modals.openConfirmModal({
      title: t(active ? 'users.activate.title' : 'users.deactivate.title'),
      children: <Text size="sm">{t(active ? 'users.activate.text' : 'users.deactivate.text', { name, email: user.email })}</Text>,
      labels: { confirm: t(active ? 'users.actions.activate' : 'users.actions.deactivate'), cancel: t('actions.cancel') },
      closeButtonProps: { 'aria-label': t('common:close') },
      confirmProps: { color: active ? 'green' : 'red' },
      onConfirm: () =>
        setActive.mutate(
          { userId: user.id, active },
          {
            onSuccess: () => showSuccess({ message: t(active ? 'users.activate.done' : 'users.deactivate.done', { name }) }),
            onError: showFailure,
          },
        ),
    });
  }

  function resendInvitation(user: CompanyUser) {
    resend.mutate(user.id, {
      onSuccess: () => showSuccess({ message: t('users.invite.resent', { email: user.email }) }),
      onError: (error) => {
        // The server sends at most one invitation a minute per user.
        if (error instanceof ApiError && error.status === 429) {
          const seconds = typeof error.data['retryAfter'] === 'number' ? error.data['retryAfter'] : 60;
          showError({ message: t('users.invite.resendTooSoon', { seconds }) });
        } else showFailure(error);
      },
    });
  }

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('users.title')}</Title>
        {canModify ? (
          <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={() => setInviting(true)}>
            {t('users.actions.invite')}
          </Button>
        ) : null}
      </Group>
      <ListToolbar searchLabel={t('users.search')} onSearch={onSearch}>
        <Select
          label={t('users.statusFilter')}
          data={[
            { value: 'all', label: t('users.status.all') },
            ...USER_STATUSES.map((s) => ({ value: s, label: t(`users.status.${s}`) })),
          ]}
          value={status ?? 'all'}
          allowDeselect={false}
          onChange={(value) => setStatus(USER_STATUSES.find((s) => s === value))}
          w={180}
        />
      </ListToolbar>
      {query.isError ? (
        <Alert color="red" role="alert">
          {errorText(query.error)}
        </Alert>
      ) : null}
      {query.isPending ? (
        <PageLoader />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="users-table" aria-label={t('users.caption')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('users.columns.name')}</Table.Th>
                <Table.Th scope="col">{t('users.columns.email')}</Table.Th>
                <Table.Th scope="col">{t('users.columns.status')}</Table.Th>
                <Table.Th scope="col">{t('users.columns.groups')}</Table.Th>
                <Table.Th scope="col">{t('users.columns.lastLogin')}</Table.Th>
                {canModify ? (
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('users.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                ) : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={canModify ? 6 : 5}>
                    <Text c="dimmed" ta="center" py="md">
                      {search || status ? t('list.noMatches') : t('users.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {users.map((user) => (
                <Table.Tr key={user.id} data-testid={`user-row-${user.email}`}>
                  <Table.Td fw={600}>{fullName(user)}</Table.Td>
                  <Table.Td>
                    <Text span size="sm" dir="ltr">
                      {user.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <UserStatusBadge status={user.status} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {user.groups.map((group) => (
                        <Badge key={group.id} variant="outline" color="gray.8" tt="none">
                          {group.name}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{user.lastLoginAt ? formatDateTime(i18n.language, user.lastLoginAt) : t('users.never')}</Text>
                  </Table.Td>
                  {canModify ? (
                    <Table.Td ta="end">
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <ActionIcon variant="subtle" color="gray" aria-label={t('users.actions.menu', { name: fullName(user) })}>
                            <IconDots size={18} aria-hidden />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(user)}>
                            {t('users.actions.edit')}
                          </Menu.Item>
                          {user.status === 'invited' ? (
                            <Menu.Item leftSection={<IconMail size={16} aria-hidden />} onClick={() => resendInvitation(user)}>
                              {t('users.actions.resend')}
                            </Menu.Item>
                          ) : null}
                          {user.status === 'disabled' ? (
                            <Menu.Item leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={() => confirmActive(user, true)}>
                              {t('users.actions.activate')}
                            </Menu.Item>
                          ) : (
                            <Menu.Item
                              color="red"
                              leftSection={<IconPlayerStop size={16} aria-hidden />}
                              onClick={() => confirmActive(user, false)}
                            >
                              {t('users.actions.deactivate')}
                            </Menu.Item>
                          )}
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <LoadMore
        shown={users.length}
        total={total}
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoadMore={() => void query.fetchNextPage()}
      />
      {inviting ? <InviteUserModal onClose={() => setInviting(false)} /> : null}
      {editing ? <EditUserModal user={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
