import type { ReactElement } from 'react';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconAlertCircle, IconCloudDownload, IconFileZip, IconUpload, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DownloadDirectoryRequestSchema, type EdifactDirectoryInfo } from '@portal/contracts';
import { DataTable, type DataColumn } from '../../../components/data-table.tsx';
import { ListState } from '../../../components/keyset-table.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { errorText, fieldErrorText } from '../../../lib/error-text.ts';
import { useDownloadDirectory, useUploadDirectory } from '../api/admin-mutations.ts';
import { directoriesQuery } from '../api/admin-queries.ts';
import { AdminPage, useAdminListStates } from './admin-page.tsx';

/** The server takes zips up to this size (edifact.routes.ts). */
const MAX_ZIP_BYTES = 64 * 1024 * 1024;

function problemOf(error: unknown): string {
  if (error instanceof ApiError && error.details[0])
    return fieldErrorText(error.details[0].code, 'admin') ?? errorText(error, 'admin');
  return errorText(error, 'admin');
}

/** The UN/EDIFACT directories the validator knows: list, upload a UNECE zip, download one by name. */
export function EdifactDirectoriesPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const listStates = useAdminListStates();
  const api = useApi();
  const query = useQuery(directoriesQuery(api));
  const upload = useUploadDirectory();
  const download = useDownloadDirectory();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [uploadError, setUploadError] = useState<string | undefined>();
  const directories = query.data ?? [];
  const columns: DataColumn<EdifactDirectoryInfo>[] = [
    { key: 'name', header: t('edifact.columns.name'), card: 'title', cellProps: { fw: 600 }, cell: (d) => d.name },
    { key: 'version', header: t('edifact.columns.version'), cell: (d) => `${d.version}:${d.release}:${d.agency}` },
    { key: 'messages', header: t('edifact.columns.messages'), alignEnd: true, cell: (d) => d.messages },
    { key: 'segments', header: t('edifact.columns.segments'), alignEnd: true, cell: (d) => d.segments },
    { key: 'elements', header: t('edifact.columns.elements'), alignEnd: true, cell: (d) => d.elements + d.composites },
    { key: 'codeLists', header: t('edifact.columns.codeLists'), alignEnd: true, cell: (d) => d.codeLists },
    {
      key: 'importedAt',
      header: t('edifact.columns.importedAt'),
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (d) => (d.importedAt ? formatDateTime(i18n.language, d.importedAt) : '—'),
    },
    {
      key: 'source',
      header: t('edifact.columns.source'),
      cell: (d) => (
        <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }}>
          {d.source ?? '—'}
        </Text>
      ),
    },
  ];

  async function onDrop(files: File[]) {
    const file = files[0];
    if (!file) return;
    setUploadError(undefined);
    try {
      const directory = await upload.mutateAsync(file);
      showSuccess({ message: t('edifact.imported', { name: directory.name, count: directory.messages }) });
    } catch (error) {
      setUploadError(problemOf(error));
    }
  }

  async function onDownload(event: FormEvent) {
    event.preventDefault();
    const parsed = DownloadDirectoryRequestSchema.safeParse({ name: name.trim() });
    if (!parsed.success) {
      setNameError(t('validation.directoryName'));
      return;
    }
    setNameError(undefined);
    try {
      const directory = await download.mutateAsync(parsed.data.name.toUpperCase());
      showSuccess({ message: t('edifact.imported', { name: directory.name, count: directory.messages }) });
      setName('');
    } catch (error) {
      setNameError(error instanceof ApiError && error.status === 502 ? t('edifact.downloadFailed') : problemOf(error));
    }
  }

  return (
    <AdminPage title={t('edifact.title')} description={t('edifact.description')}>
      <DataTable
        columns={columns}
        rows={directories}
        rowKey={(d) => d.name}
        rowAttributes={() => ({ 'data-testid': 'directory-row' })}
        minWidth={860}
        highlightOnHover={false}
        cardsBelow="sm"
        aria-label={t('edifact.title')}
        data-testid="directories-table"
      />
      <ListState
        isLoading={query.isLoading}
        isError={query.isError}
        isEmpty={directories.length === 0}
        onRetry={() => void query.refetch()}
        {...listStates}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="lg" component="section">
          <Stack gap="sm">
            <Title order={3} size="h4">
              {t('edifact.uploadTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('edifact.uploadHelp')}
            </Text>
            <Dropzone
              onDrop={(files) => void onDrop(files)}
              onReject={() => setUploadError(t('validation.zipRequired'))}
              accept={['application/zip', 'application/x-zip-compressed', '.zip']}
              maxSize={MAX_ZIP_BYTES}
              multiple={false}
              loading={upload.isPending}
              aria-label={t('edifact.dropzone')}
              inputProps={{ 'aria-label': t('edifact.dropzone') }}
              data-testid="directory-dropzone"
            >
              <Group justify="center" gap="md" mih={120} style={{ pointerEvents: 'none' }}>
                <Dropzone.Accept>
                  <IconUpload size={40} aria-hidden />
                </Dropzone.Accept>
                <Dropzone.Reject>
                  <IconX size={40} aria-hidden />
                </Dropzone.Reject>
                <Dropzone.Idle>
                  <IconFileZip size={40} aria-hidden />
                </Dropzone.Idle>
                <Stack gap={2}>
                  <Text fw={600}>{t('edifact.dropzone')}</Text>
                  <Text size="sm" c="dimmed">
                    {t('edifact.dropzoneHelp')}
                  </Text>
                </Stack>
              </Group>
            </Dropzone>
            {uploadError ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertCircle size={20} />}
                role="alert"
                data-testid="upload-error"
              >
                {uploadError}
              </Alert>
            ) : null}
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="lg" component="section">
          <form noValidate onSubmit={(event) => void onDownload(event)}>
            <Stack gap="sm">
              <Title order={3} size="h4">
                {t('edifact.downloadTitle')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('edifact.downloadHelp')}
              </Text>
              <TextInput
                label={t('edifact.name')}
                placeholder="D96A"
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={nameError}
                maxLength={4}
                dir="ltr"
                autoCapitalize="characters"
              />
              <Group justify="flex-end">
                <Button
                  type="submit"
                  loading={download.isPending}
                  leftSection={<IconCloudDownload size={18} aria-hidden />}
                >
                  {t('edifact.download')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </SimpleGrid>
    </AdminPage>
  );
}
