import type { ReactElement } from 'react';
import { Anchor, Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { SearchField } from '../../../components/list-toolbar.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import type { UsersSearch } from '../admin-search.ts';
import { usersQuery } from '../api/admin-queries.ts';
import { AdminPage, useAdminListStates } from './admin-page.tsx';
import { CompanyPicker } from './company-picker.tsx';
import { UserActions } from './user-actions.tsx';
import { UserCreateModal } from './user-create-modal.tsx';

const route = getRouteApi('/admin/users');

function UserState({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  return (
    <Group gap={4}>
      {user.disabledAt ? (
        <Badge variant="dot" color="red">
          {t('users.state.disabled')}
        </Badge>
      ) : null}
      {!user.hasPassword ? (
        <Badge variant="dot" color="blue">
          {t('users.state.invited')}
        </Badge>
      ) : user.emailVerifiedAt ? (
        <Badge variant="dot" color="green">
          {t('users.state.verified')}
        </Badge>
      ) : (
        <Badge variant="dot" color="yellow">
          {t('users.state.unverified')}
        </Badge>
      )}
    </Group>
  );
}

/** Users of every company: search, company filter, create, and the per-user actions including Impersonate. */
export function UsersPage(): ReactElement {
  const { t } = useTranslation('admin');
  const listStates = useAdminListStates();
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const setSearch = (next: UsersSearch) =>
    navigate({
      to: '/admin/users',
      search: Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as UsersSearch,
      replace: true,
    });
  const list = useKeysetList(useInfiniteQuery({ ...usersQuery(api, search), ...LOADED_BY_ROUTE }));
  const columns: DataColumn<AdminUser>[] = [
    {
      key: 'user',
      header: t('users.columns.user'),
      card: 'title',
      cell: (user) => (
        <Stack gap={0}>
          <Text fw={600} size="sm">
            {[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}
          </Text>
          <Text size="sm" c="dimmed">
            {user.email}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'company',
      header: t('users.columns.company'),
      cell: (user) =>
        user.companyId ? (
          <Anchor
            size="sm"
            renderRoot={(props) => (
              <Link to="/admin/companies/$companyId" params={{ companyId: user.companyId ?? '' }} {...props} />
            )}
          >
            {user.companyName}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {t('users.noCompany')}
          </Text>
        ),
    },
    {
      key: 'roles',
      header: t('users.columns.roles'),
      cell: (user) =>
        user.roles.length === 0 ? null : (
          <Group gap={4}>
            {user.roles.map((role) => (
              <Badge key={role} variant="outline" color="gray" c="gray.9">
                {role}
              </Badge>
            ))}
          </Group>
        ),
    },
    { key: 'state', header: t('users.columns.state'), cell: (user) => <UserState user={user} /> },
    {
      key: 'actions',
      header: t('users.columns.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (user) => <UserActions user={user} />,
    },
  ];

  return (
    <AdminPage
      title={t('users.title')}
      description={t('users.description')}
      actions={
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setCreating(true)}>
          {t('users.create')}
        </Button>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} maw={800}>
        <SearchField
          label={t('users.search')}
          placeholder={t('users.searchPlaceholder')}
          iconSize={18}
          value={search.search}
          onSearch={(value) => setSearch({ ...search, search: value })}
        />
        <CompanyPicker
          label={t('users.company')}
          placeholder={t('users.allCompanies')}
          value={search.companyId ?? null}
          onChange={(companyId) => setSearch({ ...search, companyId: companyId ?? undefined })}
          clearable
        />
      </SimpleGrid>
      <KeysetTable
        list={list}
        {...listStates}
        columns={columns}
        rowKey={(user) => user.id}
        rowAttributes={(user) => ({ 'data-testid': 'user-row', 'data-email': user.email })}
        minWidth={820}
        aria-label={t('users.title')}
        data-testid="users-table"
      />
      <UserCreateModal
        key={search.companyId ?? 'none'}
        opened={creating}
        onClose={() => setCreating(false)}
        defaultCompanyId={search.companyId ?? null}
      />
    </AdminPage>
  );
}
