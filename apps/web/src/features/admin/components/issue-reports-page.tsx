import type { ReactElement } from 'react';
import { Anchor, Badge, Button, Group, List, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload, IconPaperclip } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ISSUE_PRIORITIES,
  ISSUE_REPORT_STATUSES,
  ISSUE_TYPES,
  type IssuePriority,
  type IssueReport,
  type IssueReportStatus,
  type IssueType,
} from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime, intlLocale } from '../../../lib/format.ts';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { errorText } from '../../../lib/error-text.ts';
import type { IssueReportsSearch } from '../admin-search.ts';
import { useDownloadIssueFile, useSetIssueReportStatus } from '../api/admin-mutations.ts';
import { issueReportsQuery } from '../api/admin-queries.ts';
import { AdminPage, useAdminListStates } from './admin-page.tsx';

const route = getRouteApi('/admin/issue-reports');

function PriorityBadge({ priority }: { priority: IssuePriority }) {
  const { t } = useTranslation('admin');
  const color = priority === 'critical' ? 'red' : 'gray';
  return (
    <Badge variant="dot" color={color}>
      {t(`issues.priorities.${priority}`)}
    </Badge>
  );
}

const STATUS_COLORS: Record<IssueReportStatus, string> = {
  new: 'blue',
  in_progress: 'yellow',
  resolved: 'green',
  closed: 'gray',
};

function StatusBadge({ status }: { status: IssueReportStatus }) {
  const { t } = useTranslation('admin');
  return (
    <Badge variant="dot" color={STATUS_COLORS[status]} data-testid="issue-status">
      {t(`issues.statuses.${status}`)}
    </Badge>
  );
}

function isStatus(value: string | null): value is IssueReportStatus {
  return (ISSUE_REPORT_STATUSES as readonly (string | null)[]).includes(value);
}

function formatBytes(language: string, bytes: number): string {
  const kb = bytes / 1024;
  const [value, unit] = kb < 1024 ? [kb, 'kilobyte'] : [kb / 1024, 'megabyte'];
  return new Intl.NumberFormat(intlLocale(language), { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

/** Issue reports sent with "Report an issue", newest first, with their attachments. */
export function IssueReportsPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const listStates = useAdminListStates();
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const [opened, setOpened] = useState<IssueReport | undefined>();
  const download = useDownloadIssueFile();
  const saveStatus = useSetIssueReportStatus();
  const list = useKeysetList(useInfiniteQuery({ ...issueReportsQuery(api, search), ...LOADED_BY_ROUTE }));
  // The open report as the list has it now, so a saved status shows at once; the clicked row when it left the list.
  const open = opened ? (list.items.find((report) => report.id === opened.id) ?? opened) : undefined;
  const setOpen = (report: IssueReport | undefined) => {
    saveStatus.reset();
    setOpened(report);
  };
  const setSearch = (next: IssueReportsSearch) =>
    navigate({
      to: '/admin/issue-reports',
      search: Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as IssueReportsSearch,
      replace: true,
    });

  const columns: DataColumn<IssueReport>[] = [
    {
      key: 'date',
      header: t('issues.columns.date'),
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (report) => formatDateTime(i18n.language, report.createdAt),
    },
    {
      key: 'subject',
      header: t('issues.columns.subject'),
      card: 'title',
      cell: (report) => (
        <Anchor component="button" type="button" onClick={() => setOpen(report)} ta="start" size="sm" fw={600}>
          {report.subject}
        </Anchor>
      ),
    },
    { key: 'type', header: t('issues.columns.type'), cell: (report) => t(`issues.types.${report.type}`) },
    {
      key: 'priority',
      header: t('issues.columns.priority'),
      cell: (report) => <PriorityBadge priority={report.priority} />,
    },
    {
      key: 'status',
      header: t('issues.columns.status'),
      cell: (report) => <StatusBadge status={report.status} />,
    },
    {
      key: 'from',
      header: t('issues.columns.from'),
      cell: (report) => (
        <>
          <Text size="sm">{report.user?.email ?? '—'}</Text>
          <Text size="sm" c="dimmed">
            {report.company?.name ?? ''}
          </Text>
        </>
      ),
    },
    { key: 'files', header: t('issues.columns.files'), alignEnd: true, cell: (report) => report.files.length },
  ];

  async function downloadFile(report: IssueReport, file: IssueReport['files'][number]) {
    try {
      await download.mutateAsync({ reportId: report.id, fileId: file.id, filename: file.filename });
    } catch (error) {
      showError({ message: errorText(error, 'admin') });
    }
  }

  async function changeStatus(report: IssueReport, status: IssueReportStatus) {
    if (status === report.status) return;
    try {
      const saved = await saveStatus.mutateAsync({ id: report.id, status });
      setOpened(saved);
      showSuccess({ message: t('issues.statusSaved', { status: t(`issues.statuses.${saved.status}`) }) });
    } catch {
      // Shown under the select (saveStatus.error); the select falls back to the saved status.
    }
  }

  return (
    <AdminPage title={t('issues.title')} description={t('issues.description')}>
      <SimpleGrid cols={{ base: 1, xs: 2 }} maw={600}>
        <Select
          label={t('issues.type')}
          placeholder={t('issues.all')}
          clearable
          data={ISSUE_TYPES.map((type) => ({ value: type, label: t(`issues.types.${type}`) }))}
          value={search.type ?? null}
          onChange={(value) => setSearch({ ...search, type: (value as IssueType | null) ?? undefined })}
        />
        <Select
          label={t('issues.priority')}
          placeholder={t('issues.all')}
          clearable
          data={ISSUE_PRIORITIES.map((p) => ({ value: p, label: t(`issues.priorities.${p}`) }))}
          value={search.priority ?? null}
          onChange={(value) => setSearch({ ...search, priority: (value as IssuePriority | null) ?? undefined })}
        />
      </SimpleGrid>
      <KeysetTable
        list={list}
        {...listStates}
        columns={columns}
        rowKey={(report) => report.id}
        minWidth={920}
        aria-label={t('issues.title')}
        data-testid="issues-table"
      />
      <Modal opened={Boolean(open)} onClose={() => setOpen(undefined)} title={open?.subject} size="lg">
        {open ? (
          <Stack gap="sm" data-testid="issue-view">
            <Group gap="xs">
              <Badge variant="outline" color="gray" c="gray.9">
                {t(`issues.types.${open.type}`)}
              </Badge>
              <PriorityBadge priority={open.priority} />
            </Group>
            <Select
              label={t('issues.status')}
              data={ISSUE_REPORT_STATUSES.map((status) => ({ value: status, label: t(`issues.statuses.${status}`) }))}
              value={saveStatus.isPending ? saveStatus.variables.status : open.status}
              onChange={(value) => {
                if (isStatus(value)) void changeStatus(open, value);
              }}
              allowDeselect={false}
              disabled={saveStatus.isPending}
              error={saveStatus.isError ? errorText(saveStatus.error, 'admin') : undefined}
              maw={280}
              data-testid="issue-status-select"
            />
            <Text size="sm" c="dimmed">
              {t('issues.from', {
                user: open.user ? `${open.user.firstName} ${open.user.lastName} <${open.user.email}>` : '—',
                company: open.company?.name ?? '—',
                date: formatDateTime(i18n.language, open.createdAt),
              })}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} dir="auto">
              {open.description}
            </Text>
            {open.files.length > 0 ? (
              <>
                <Text fw={600} size="sm">
                  {t('issues.attachments')}
                </Text>
                <List spacing="xs" icon={<IconPaperclip size={16} aria-hidden />} center>
                  {open.files.map((file) => (
                    <List.Item key={file.id}>
                      <Group gap="xs">
                        <Text size="sm">
                          {file.filename} ({formatBytes(i18n.language, file.size)})
                        </Text>
                        <Button
                          size="xs"
                          variant="light"
                          c="blue.9"
                          leftSection={<IconDownload size={14} aria-hidden />}
                          onClick={() => void downloadFile(open, file)}
                          aria-label={t('issues.downloadFile', { name: file.filename })}
                        >
                          {t('issues.download')}
                        </Button>
                      </Group>
                    </List.Item>
                  ))}
                </List>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {t('issues.noFiles')}
              </Text>
            )}
            <Group justify="flex-end">
              <Button onClick={() => setOpen(undefined)}>{t('actions.close')}</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </AdminPage>
  );
}
