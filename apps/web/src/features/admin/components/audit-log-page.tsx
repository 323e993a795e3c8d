import type { ReactElement } from 'react';
import { Code, Select, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { AdminAuditEntry } from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { auditQuery } from '../api/admin-queries.ts';
import { AdminPage, useAdminListStates } from './admin-page.tsx';

const route = getRouteApi('/admin/audit');

/** Filters offered: an exact event, or a prefix ending in a dot (the API's rule). */
export const AUDIT_FILTERS = [
  { value: 'auth.login_succeeded', key: 'signIns' },
  { value: 'auth.login_failed', key: 'failedSignIns' },
  { value: 'auth.login_refused', key: 'refusedSignIns' },
  { value: 'auth.impersonation_started', key: 'impersonationStarted' },
  { value: 'auth.impersonation_ended', key: 'impersonationEnded' },
  { value: 'admin.permissions_changed', key: 'permissionChanges' },
  { value: 'auth.', key: 'auth' },
  { value: 'admin.', key: 'admin' },
  { value: 'users.', key: 'users' },
] as const;

/** The audit log, newest first: sign-ins, impersonations, permission and admin changes. */
export function AuditLogPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const listStates = useAdminListStates();
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const list = useKeysetList(useInfiniteQuery({ ...auditQuery(api, search), ...LOADED_BY_ROUTE }));
  const options: { value: string; label: string }[] = AUDIT_FILTERS.map((f) => ({
    value: f.value,
    label: `${t(`audit.filters.${f.key}`)} (${f.value})`,
  }));
  if (search.event && !options.some((o) => o.value === search.event))
    options.push({ value: search.event, label: search.event });
  const columns: DataColumn<AdminAuditEntry>[] = [
    {
      key: 'at',
      header: t('audit.columns.at'),
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (entry) => formatDateTime(i18n.language, entry.at),
    },
    { key: 'event', header: t('audit.columns.event'), card: 'title', cell: (entry) => <Code>{entry.event}</Code> },
    {
      key: 'actor',
      header: t('audit.columns.actor'),
      cell: (entry) => <Text size="sm">{entry.actor?.email ?? entry.login ?? '—'}</Text>,
    },
    {
      key: 'subject',
      header: t('audit.columns.subject'),
      cell: (entry) => <Text size="sm">{entry.subject?.email ?? '—'}</Text>,
    },
    {
      key: 'ip',
      header: t('audit.columns.ip'),
      cell: (entry) => (
        <Text size="sm" dir="ltr">
          {entry.ip ?? '—'}
        </Text>
      ),
    },
    {
      key: 'details',
      header: t('audit.columns.details'),
      cellProps: { maw: 320 },
      cell: (entry) =>
        entry.details ? (
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} dir="ltr">
            {JSON.stringify(entry.details)}
          </Code>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <AdminPage title={t('audit.title')} description={t('audit.description')}>
      <Select
        label={t('audit.event')}
        placeholder={t('audit.allEvents')}
        clearable
        searchable
        data={options}
        value={search.event ?? null}
        onChange={(event) => navigate({ to: '/admin/audit', search: event ? { event } : {}, replace: true })}
        maw={480}
      />
      <KeysetTable
        list={list}
        {...listStates}
        columns={columns}
        rowKey={(entry) => entry.id}
        minWidth={900}
        highlightOnHover={false}
        aria-label={t('audit.title')}
        data-testid="audit-table"
      />
    </AdminPage>
  );
}
