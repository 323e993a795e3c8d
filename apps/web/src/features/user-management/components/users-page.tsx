import { ActionIcon, Badge, Button, Group, Menu, Select, Stack, Text, Title } from '@mantine/core';
import { IconDots, IconMail, IconPencil, IconPlayerPlay, IconPlayerStop, IconUserPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { USER_STATUSES, type CompanyUser } from '@portal/contracts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { ListToolbar } from '../../../components/list-toolbar.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useResendInvitationMutation, useSetUserActiveMutation } from '../api/user-management-mutations.ts';
import { companyUsersQuery } from '../api/user-management-queries.ts';
import { errorText, showFailure } from '../../../lib/error-text.ts';
import { usersFilter, type UsersSearch } from '../user-management-search.ts';
import { EditUserModal } from './edit-user-modal.tsx';
import { InviteUserModal } from './invite-user-modal.tsx';
import { UserStatusBadge } from './user-status-badge.tsx';

const route = getRouteApi('/app/users');

const fullName = (user: Pick<CompanyUser, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`.trim();

/** /users: the company's users with search, status filter and keyset "load more"; changes with USERS_MODIFY. */
export function UsersPage() {
  const { t, i18n } = useTranslation('user-management');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('USERS_MODIFY');
  const search = route.useSearch();
  const navigate = useNavigate();
  const setSearch = (next: UsersSearch) =>
    navigate({
      to: '/users',
      search: Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as UsersSearch,
      replace: true,
    });
  const list = useKeysetList(useInfiniteQuery({ ...companyUsersQuery(api, usersFilter(search)), ...LOADED_BY_ROUTE }));
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<CompanyUser | undefined>();
  const resend = useResendInvitationMutation();
  const setActive = useSetUserActiveMutation();

  function confirmActive(user: CompanyUser, active: boolean) {
    const name = fullName(user);
    confirmAction({
      title: t(active ? 'users.activate.title' : 'users.deactivate.title'),
      text: t(active ? 'users.activate.text' : 'users.deactivate.text', { name, email: user.email }),
      confirmLabel: t(active ? 'users.actions.activate' : 'users.actions.deactivate'),
      color: active ? 'green' : 'red',
      onConfirm: () =>
        setActive.mutate(
          { userId: user.id, active },
          {
            onSuccess: () =>
              showSuccess({ message: t(active ? 'users.activate.done' : 'users.deactivate.done', { name }) }),
            onError: (error) => showFailure(error, 'user-management'),
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
        } else showFailure(error, 'user-management');
      },
    });
  }

  const columns: DataColumn<CompanyUser>[] = [
    { key: 'name', header: t('users.columns.name'), card: 'title', cellProps: { fw: 600 }, cell: fullName },
    {
      key: 'email',
      header: t('users.columns.email'),
      cell: (user) => (
        <Text span size="sm" dir="ltr">
          {user.email}
        </Text>
      ),
    },
    { key: 'status', header: t('users.columns.status'), cell: (user) => <UserStatusBadge status={user.status} /> },
    {
      key: 'groups',
      header: t('users.columns.groups'),
      cell: (user) => (
        <Group gap={4}>
          {user.groups.map((group) => (
            <Badge key={group.id} variant="outline" color="gray.8" tt="none">
              {group.name}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'lastLogin',
      header: t('users.columns.lastLogin'),
      cell: (user) => (
        <Text size="sm">{user.lastLoginAt ? formatDateTime(i18n.language, user.lastLoginAt) : t('users.never')}</Text>
      ),
    },
  ];
  if (canModify)
    columns.push({
      key: 'actions',
      header: t('users.columns.actions'),
      hideHeader: true,
      card: 'actions',
      cellProps: { ta: 'end' },
      cell: (user) => (
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
              <Menu.Item
                leftSection={<IconPlayerPlay size={16} aria-hidden />}
                onClick={() => confirmActive(user, true)}
              >
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
      ),
    });

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
      <ListToolbar
        searchLabel={t('users.search')}
        search={search.search}
        onSearch={(value) => setSearch({ ...search, search: value })}
      >
        <Select
          label={t('users.statusFilter')}
          data={[
            { value: 'all', label: t('users.status.all') },
            ...USER_STATUSES.map((s) => ({ value: s, label: t(`users.status.${s}`) })),
          ]}
          value={search.status ?? 'all'}
          allowDeselect={false}
          onChange={(value) => setSearch({ ...search, status: USER_STATUSES.find((s) => s === value) })}
          w={180}
        />
      </ListToolbar>
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(user) => user.id}
        rowAttributes={(user) => ({ 'data-testid': `user-row-${user.email}` })}
        minWidth={760}
        aria-label={t('users.caption')}
        data-testid="users-table"
        emptyText={search.search || search.status ? t('list.noMatches') : t('users.empty')}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'user-management') }}
      />
      {inviting ? <InviteUserModal onClose={() => setInviting(false)} /> : null}
      {editing ? <EditUserModal user={editing} onClose={() => setEditing(undefined)} /> : null}
    </Stack>
  );
}
