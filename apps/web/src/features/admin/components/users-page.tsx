import type { ReactElement } from 'react';
import { Anchor, Badge, Button, Group, SimpleGrid, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import type { UsersSearch } from '../admin-search.ts';
import { usersQuery } from '../api/admin-queries.ts';
import { useSearchParam } from '../use-search-param.ts';
import { AdminPage, ListState, LoadMore } from './admin-page.tsx';
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
  const field = useSearchParam(search.search, (value) => setSearch({ ...search, search: value }));
  const query = useInfiniteQuery({ ...usersQuery(api, search), placeholderData: keepPreviousData });
  const users = query.data?.pages.flatMap((page) => page.items) ?? [];

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
        <TextInput
          label={t('users.search')}
          placeholder={t('users.searchPlaceholder')}
          leftSection={<IconSearch size={18} aria-hidden />}
          type="search"
          value={field.value}
          onChange={(event) => field.onChange(event.currentTarget.value)}
        />
        <CompanyPicker
          label={t('users.company')}
          placeholder={t('users.allCompanies')}
          value={search.companyId ?? null}
          onChange={(companyId) => setSearch({ ...search, companyId: companyId ?? undefined })}
          clearable
        />
      </SimpleGrid>
      <Table.ScrollContainer minWidth={820}>
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="users-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('users.columns.user')}</Table.Th>
              <Table.Th>{t('users.columns.company')}</Table.Th>
              <Table.Th>{t('users.columns.roles')}</Table.Th>
              <Table.Th>{t('users.columns.state')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('users.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((user) => (
              <Table.Tr key={user.id} data-testid="user-row" data-email={user.email}>
                <Table.Td>
                  <Stack gap={0}>
                    <Text fw={600} size="sm">
                      {[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {user.email}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  {user.companyId ? (
                    <Anchor
                      size="sm"
                      renderRoot={(props) => (
                        <Link
                          to="/admin/companies/$companyId"
                          params={{ companyId: user.companyId ?? '' }}
                          {...props}
                        />
                      )}
                    >
                      {user.companyName}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('users.noCompany')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {user.roles.map((role) => (
                      <Badge key={role} variant="outline" color="gray" c="gray.9">
                        {role}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <UserState user={user} />
                </Table.Td>
                <Table.Td>
                  <UserActions user={user} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListState
        isLoading={query.isLoading}
        isError={query.isError}
        isEmpty={users.length === 0}
        onRetry={() => void query.refetch()}
      />
      <LoadMore
        shown={users.length}
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoadMore={() => void query.fetchNextPage()}
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
