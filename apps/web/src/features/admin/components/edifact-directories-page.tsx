import type { ReactElement } from 'react';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconAlertCircle, IconCloudDownload, IconFileZip, IconUpload, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { DownloadDirectoryRequestSchema } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { adminErrorText, fieldErrorText } from '../admin-errors.ts';
import { useDownloadDirectory, useUploadDirectory } from '../api/admin-mutations.ts';
import { directoriesQuery } from '../api/admin-queries.ts';
import { AdminPage, ListState } from './admin-page.tsx';

/** The server takes zips up to this size (edifact.routes.ts). */
const MAX_ZIP_BYTES = 64 * 1024 * 1024;

function problemOf(t: TFunction, error: unknown): string {
  if (error instanceof ApiError && error.details[0])
    return fieldErrorText(t, error.details[0].code) ?? adminErrorText(t, error);
  return adminErrorText(t, error);
}

/** The UN/EDIFACT directories the validator knows: list, upload a UNECE zip, download one by name. */
export function EdifactDirectoriesPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const api = useApi();
  const query = useQuery(directoriesQuery(api));
  const upload = useUploadDirectory();
  const download = useDownloadDirectory();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [uploadError, setUploadError] = useState<string | undefined>();
  const directories = query.data ?? [];

  async function onDrop(files: File[]) {
    const file = files[0];
    if (!file) return;
    setUploadError(undefined);
    try {
      const directory = await upload.mutateAsync(file);
      showSuccess({ message: t('edifact.imported', { name: directory.name, count: directory.messages }) });
    } catch (error) {
      setUploadError(problemOf(t, error));
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
      setNameError(
        error instanceof ApiError && error.status === 502 ? t('edifact.downloadFailed') : problemOf(t, error),
      );
    }
  }

  return (
    <AdminPage title={t('edifact.title')} description={t('edifact.description')}>
      <Table.ScrollContainer minWidth={860}>
        <Table striped verticalSpacing="sm" data-testid="directories-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('edifact.columns.name')}</Table.Th>
              <Table.Th>{t('edifact.columns.version')}</Table.Th>
              <Table.Th ta="end">{t('edifact.columns.messages')}</Table.Th>
              <Table.Th ta="end">{t('edifact.columns.segments')}</Table.Th>
              <Table.Th ta="end">{t('edifact.columns.elements')}</Table.Th>
              <Table.Th ta="end">{t('edifact.columns.codeLists')}</Table.Th>
              <Table.Th>{t('edifact.columns.importedAt')}</Table.Th>
              <Table.Th>{t('edifact.columns.source')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {directories.map((d) => (
              <Table.Tr key={d.name} data-testid="directory-row">
                <Table.Td fw={600}>{d.name}</Table.Td>
                <Table.Td>{`${d.version}:${d.release}:${d.agency}`}</Table.Td>
                <Table.Td ta="end">{d.messages}</Table.Td>
                <Table.Td ta="end">{d.segments}</Table.Td>
                <Table.Td ta="end">{d.elements + d.composites}</Table.Td>
                <Table.Td ta="end">{d.codeLists}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {d.importedAt ? formatDateTime(i18n.language, d.importedAt) : '—'}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" dir="ltr" style={{ wordBreak: 'break-all' }}>
                    {d.source ?? '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListState
        isLoading={query.isLoading}
        isError={query.isError}
        isEmpty={directories.length === 0}
        onRetry={() => void query.refetch()}
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
