import type { ReactElement } from 'react';
import { Anchor, Badge, Button, Table, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { companiesQuery } from '../api/admin-queries.ts';
import { useSearchParam } from '../use-search-param.ts';
import { StatusBadge, useCountryName } from './admin-bits.tsx';
import { AdminPage, ListState, LoadMore } from './admin-page.tsx';
import { CompanyCreateModal } from './company-create-modal.tsx';

const route = getRouteApi('/admin/');

/** Companies: search by name, VAT or tax id; keyset "Load more"; create. */
export function CompaniesPage(): ReactElement {
  const { t } = useTranslation('admin');
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const countryName = useCountryName();
  const field = useSearchParam(search.search, (value) =>
    navigate({ to: '/admin', search: value ? { search: value } : {}, replace: true }),
  );
  const query = useInfiniteQuery({ ...companiesQuery(api, search), placeholderData: keepPreviousData });
  const companies = query.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <AdminPage
      title={t('companies.title')}
      description={t('companies.description')}
      actions={
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setCreating(true)}>
          {t('companies.create')}
        </Button>
      }
    >
      <TextInput
        label={t('companies.search')}
        placeholder={t('companies.searchPlaceholder')}
        leftSection={<IconSearch size={18} aria-hidden />}
        type="search"
        value={field.value}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        maw={480}
      />
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="companies-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('companies.columns.name')}</Table.Th>
              <Table.Th>{t('companies.columns.vatId')}</Table.Th>
              <Table.Th>{t('companies.columns.country')}</Table.Th>
              <Table.Th>{t('companies.columns.status')}</Table.Th>
              <Table.Th ta="end">{t('companies.columns.users')}</Table.Th>
              <Table.Th>{t('companies.columns.payment')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {companies.map((company) => (
              <Table.Tr key={company.id}>
                <Table.Td>
                  <Anchor
                    fw={600}
                    renderRoot={(props) => (
                      <Link to="/admin/companies/$companyId" params={{ companyId: company.id }} {...props} />
                    )}
                  >
                    {company.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{company.vatId ?? company.taxId ?? '—'}</Table.Td>
                <Table.Td>{countryName(company.country)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={company.loginStatus} />
                </Table.Td>
                <Table.Td ta="end">{company.userCount}</Table.Td>
                <Table.Td>
                  {company.overduePayment ? (
                    <Badge variant="dot" color="red">
                      {t('companies.overdue')}
                    </Badge>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListState
        isLoading={query.isLoading}
        isError={query.isError}
        isEmpty={companies.length === 0}
        onRetry={() => void query.refetch()}
      />
      <LoadMore
        shown={companies.length}
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoadMore={() => void query.fetchNextPage()}
      />
      <CompanyCreateModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => navigate({ to: '/admin/companies/$companyId', params: { companyId: id } })}
      />
    </AdminPage>
  );
}
