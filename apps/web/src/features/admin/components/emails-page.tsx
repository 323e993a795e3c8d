import type { ReactElement } from 'react';
import { Alert, Anchor, Badge, Button, Code, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminEmail } from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { SearchField } from '../../../components/list-toolbar.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { emailsQuery } from '../api/admin-queries.ts';
import { findText } from '../../../i18n/dynamic-text.ts';
import { AdminPage, useAdminListStates } from './admin-page.tsx';

const route = getRouteApi('/admin/emails');

const STATUS_COLORS: Record<string, string> = { stored: 'blue', sent: 'green', failed: 'red' };

function EmailStatus({ status }: { status: string }) {
  // The status is the server's string: a status the catalog does not word shows as it is.
  useTranslation('admin');
  const color = STATUS_COLORS[status] ?? 'gray';
  return (
    <Badge variant="dot" color={color}>
      {findText(`admin:emails.status.${status}`) ?? status}
    </Badge>
  );
}

/** Outbound e-mails, newest first; without an SMTP server this is where registration and reset links are found. */
export function EmailsPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const listStates = useAdminListStates();
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const [open, setOpen] = useState<AdminEmail | undefined>();
  const list = useKeysetList(useInfiniteQuery({ ...emailsQuery(api, search), ...LOADED_BY_ROUTE }));
  const columns: DataColumn<AdminEmail>[] = [
    {
      key: 'date',
      header: t('emails.columns.date'),
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (email) => formatDateTime(i18n.language, email.createdAt),
    },
    { key: 'to', header: t('emails.columns.to'), cell: (email) => email.to },
    {
      key: 'subject',
      header: t('emails.columns.subject'),
      card: 'title',
      cell: (email) => (
        <Anchor component="button" type="button" onClick={() => setOpen(email)} ta="start" size="sm" fw={600}>
          {email.subject}
        </Anchor>
      ),
    },
    { key: 'kind', header: t('emails.columns.kind'), cell: (email) => <Code>{email.kind}</Code> },
    { key: 'status', header: t('emails.columns.status'), cell: (email) => <EmailStatus status={email.status} /> },
  ];

  return (
    <AdminPage title={t('emails.title')} description={t('emails.description')}>
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} />}>
        {t('emails.smtpNote')}
      </Alert>
      <SearchField
        label={t('emails.search')}
        placeholder={t('emails.searchPlaceholder')}
        iconSize={18}
        value={search.to}
        onSearch={(to) => navigate({ to: '/admin/emails', search: to ? { to } : {}, replace: true })}
        maw={480}
      />
      <KeysetTable
        list={list}
        {...listStates}
        columns={columns}
        rowKey={(email) => email.id}
        minWidth={760}
        aria-label={t('emails.title')}
        data-testid="emails-table"
      />
      <Modal opened={Boolean(open)} onClose={() => setOpen(undefined)} title={open?.subject} size="xl">
        {open ? (
          <Stack gap="sm" data-testid="email-view">
            <Group gap="xs">
              <EmailStatus status={open.status} />
              <Text size="sm">{t('emails.toLine', { to: open.to })}</Text>
            </Group>
            <Text size="sm" c="dimmed">
              {t('emails.dates', {
                created: formatDateTime(i18n.language, open.createdAt),
                sent: open.sentAt ? formatDateTime(i18n.language, open.sentAt) : '—',
              })}
            </Text>
            {open.error ? (
              <Alert color="red" variant="light" role="alert">
                {open.error}
              </Alert>
            ) : null}
            <ScrollArea.Autosize mah="60vh" type="auto">
              {/* Plain text as sent; links stay selectable for copying into the browser. */}
              <Text
                component="pre"
                size="sm"
                dir="auto"
                lang={open.language}
                style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'inherit', margin: 0 }}
                data-testid="email-text"
              >
                {open.textBody}
              </Text>
            </ScrollArea.Autosize>
            <Group justify="flex-end">
              <Button onClick={() => setOpen(undefined)}>{t('actions.close')}</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </AdminPage>
  );
}
