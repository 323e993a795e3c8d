import type { ReactElement } from 'react';
import { Anchor, Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminCompany } from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { SearchField } from '../../../components/list-toolbar.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { companiesQuery } from '../api/admin-queries.ts';
import { useCountryName } from '../../../components/country-select.tsx';
import { StatusBadge } from './admin-bits.tsx';
import { AdminPage, useAdminListStates } from './admin-page.tsx';
import { CompanyCreateModal } from './company-create-modal.tsx';

const route = getRouteApi('/admin/');

/** Companies: search by name, VAT or tax id; keyset "Load more"; create. */
export function CompaniesPage(): ReactElement {
  const { t } = useTranslation('admin');
  const listStates = useAdminListStates();
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const countryName = useCountryName();
  const list = useKeysetList(useInfiniteQuery({ ...companiesQuery(api, search), ...LOADED_BY_ROUTE }));
  const columns: DataColumn<AdminCompany>[] = [
    {
      key: 'name',
      header: t('companies.columns.name'),
      card: 'title',
      cell: (company) => (
        <Anchor
          fw={600}
          renderRoot={(props) => (
            <Link to="/admin/companies/$companyId" params={{ companyId: company.id }} {...props} />
          )}
        >
          {company.name}
        </Anchor>
      ),
    },
    { key: 'vatId', header: t('companies.columns.vatId'), cell: (company) => company.vatId ?? company.taxId ?? '—' },
    { key: 'country', header: t('companies.columns.country'), cell: (company) => countryName(company.country) },
    {
      key: 'status',
      header: t('companies.columns.status'),
      cell: (company) => <StatusBadge status={company.loginStatus} />,
    },
    { key: 'users', header: t('companies.columns.users'), alignEnd: true, cell: (company) => company.userCount },
    {
      key: 'payment',
      header: t('companies.columns.payment'),
      cell: (company) =>
        company.overduePayment ? (
          <Badge variant="dot" color="red">
            {t('companies.overdue')}
          </Badge>
        ) : null,
    },
  ];

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
      <SearchField
        label={t('companies.search')}
        placeholder={t('companies.searchPlaceholder')}
        iconSize={18}
        value={search.search}
        onSearch={(value) => navigate({ to: '/admin', search: value ? { search: value } : {}, replace: true })}
        maw={480}
      />
      <KeysetTable
        list={list}
        {...listStates}
        columns={columns}
        rowKey={(company) => company.id}
        minWidth={760}
        aria-label={t('companies.title')}
        data-testid="companies-table"
      />
      <CompanyCreateModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => navigate({ to: '/admin/companies/$companyId', params: { companyId: id } })}
      />
    </AdminPage>
  );
}
