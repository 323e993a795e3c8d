import type { ReactElement } from 'react';
import { Code, Select, Table, Text } from '@mantine/core';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { auditQuery } from '../api/admin-queries.ts';
import { AdminPage, ListState, LoadMore } from './admin-page.tsx';

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
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const query = useInfiniteQuery({ ...auditQuery(api, search), placeholderData: keepPreviousData });
  const entries = query.data?.pages.flatMap((page) => page.items) ?? [];
  const options: { value: string; label: string }[] = AUDIT_FILTERS.map((f) => ({
    value: f.value,
    label: `${t(`audit.filters.${f.key}`)} (${f.value})`,
  }));
  if (search.event && !options.some((o) => o.value === search.event))
    options.push({ value: search.event, label: search.event });

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
      <Table.ScrollContainer minWidth={900}>
        <Table striped verticalSpacing="sm" data-testid="audit-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('audit.columns.at')}</Table.Th>
              <Table.Th>{t('audit.columns.event')}</Table.Th>
              <Table.Th>{t('audit.columns.actor')}</Table.Th>
              <Table.Th>{t('audit.columns.subject')}</Table.Th>
              <Table.Th>{t('audit.columns.ip')}</Table.Th>
              <Table.Th>{t('audit.columns.details')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(i18n.language, entry.at)}</Table.Td>
                <Table.Td>
                  <Code>{entry.event}</Code>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.actor?.email ?? entry.login ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{entry.subject?.email ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" dir="ltr">
                    {entry.ip ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td maw={320}>
                  {entry.details ? (
                    <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} dir="ltr">
                      {JSON.stringify(entry.details)}
                    </Code>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListState
        isLoading={query.isLoading}
        isError={query.isError}
        isEmpty={entries.length === 0}
        onRetry={() => void query.refetch()}
      />
      <LoadMore
        shown={entries.length}
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoadMore={() => void query.fetchNextPage()}
      />
    </AdminPage>
  );
}
