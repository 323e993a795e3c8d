import type { ReactElement } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminEmail } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { emailsQuery } from '../api/admin-queries.ts';
import { useSearchParam } from '../use-search-param.ts';
import { AdminPage, ListState, LoadMore } from './admin-page.tsx';

const route = getRouteApi('/admin/emails');

const STATUS_COLORS: Record<string, string> = { stored: 'blue', sent: 'green', failed: 'red' };

function EmailStatus({ status }: { status: string }) {
  const { t } = useTranslation('admin');
  const color = STATUS_COLORS[status] ?? 'gray';
  const known = status in STATUS_COLORS;
  return (
    <Badge variant="dot" color={color}>
      {known ? t(`emails.status.${status}`) : status}
    </Badge>
  );
}

/** Outbound e-mails, newest first; without an SMTP server this is where registration and reset links are found. */
export function EmailsPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const [open, setOpen] = useState<AdminEmail | undefined>();
  const field = useSearchParam(search.to, (to) =>
    navigate({ to: '/admin/emails', search: to ? { to } : {}, replace: true }),
  );
  const query = useInfiniteQuery({ ...emailsQuery(api, search), placeholderData: keepPreviousData });
  const emails = query.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <AdminPage title={t('emails.title')} description={t('emails.description')}>
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} />}>
        {t('emails.smtpNote')}
      </Alert>
      <TextInput
        label={t('emails.search')}
        placeholder={t('emails.searchPlaceholder')}
        leftSection={<IconSearch size={18} aria-hidden />}
        type="search"
        value={field.value}
        onChange={(event) => field.onChange(event.currentTarget.value)}
        maw={480}
      />
      <Table.ScrollContainer minWidth={760}>
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="emails-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('emails.columns.date')}</Table.Th>
              <Table.Th>{t('emails.columns.to')}</Table.Th>
              <Table.Th>{t('emails.columns.subject')}</Table.Th>
              <Table.Th>{t('emails.columns.kind')}</Table.Th>
              <Table.Th>{t('emails.columns.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {emails.map((email) => (
              <Table.Tr key={email.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(i18n.language, email.createdAt)}</Table.Td>
                <Table.Td>{email.to}</Table.Td>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => setOpen(email)} ta="start" size="sm" fw={600}>
                    {email.subject}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Code>{email.kind}</Code>
                </Table.Td>
                <Table.Td>
                  <EmailStatus status={email.status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListState
        isLoading={query.isLoading}
        isError={query.isError}
        isEmpty={emails.length === 0}
        onRetry={() => void query.refetch()}
      />
      <LoadMore
        shown={emails.length}
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoadMore={() => void query.fetchNextPage()}
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
