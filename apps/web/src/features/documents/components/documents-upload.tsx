import { Alert, Badge, Button, Group, List, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_UPLOAD_MAX_BYTES,
  DOCUMENT_UPLOAD_MAX_FILES,
  type DocumentDirection,
  type UploadFileResult,
} from '@portal/contracts';
import { UploadWidget } from '../../../components/upload-widget/upload-widget.tsx';
import {
  addFiles,
  applyProgress,
  finishItems,
  markRefused,
  sendableItems,
  type UploadItem,
  type UploadLimits,
} from '../../../components/upload-widget/upload-files.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorText } from '../../../lib/error-text.ts';
import { documentsKeys } from '../api/documents-queries.ts';
import { uploadDocuments } from '../api/document-files.ts';
import { DocumentStatusBadge } from './document-status-badge.tsx';
import { useFindingText } from './use-finding-text.ts';

/** 20 MB per file, checked before anything is sent; the server checks again. */
export const DOCUMENT_UPLOAD_LIMITS: UploadLimits = {
  maxFiles: DOCUMENT_UPLOAD_MAX_FILES,
  maxFileBytes: DOCUMENT_UPLOAD_MAX_BYTES,
  maxTotalBytes: DOCUMENT_UPLOAD_MAX_FILES * DOCUMENT_UPLOAD_MAX_BYTES,
  extensions: ['edi', 'edifact', 'edf', 'txt', 'dat'],
};

/** Upload EDIFACT interchanges into the inbox or the outbox; each file's result (documents, duplicate, findings). */
export function DocumentsUpload({ direction }: { direction: DocumentDirection }) {
  const { t } = useTranslation('documents');
  const findingText = useFindingText();
  const session = useSession();
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<UploadFileResult[]>([]);
  const [failure, setFailure] = useState<string>();

  const onAdd = (files: File[]) => {
    setResults([]);
    setFailure(undefined);
    setItems((current) =>
      addFiles(
        current.filter((i) => i.status !== 'completed'),
        files,
        DOCUMENT_UPLOAD_LIMITS,
      ),
    );
  };
  const onRemove = (id: string) =>
    setItems((current) =>
      addFiles(
        [],
        current.filter((i) => i.id !== id).map((i) => i.file),
        DOCUMENT_UPLOAD_LIMITS,
      ),
    );
  const toSend = sendableItems(items.filter((i) => i.status !== 'completed'));

  async function send() {
    setSending(true);
    setFailure(undefined);
    setItems((current) => applyProgress(current, 0, 1));
    try {
      const answer = await uploadDocuments({
        direction,
        files: toSend.map((i) => i.file),
        session,
        onProgress: ({ loaded, total }) => setItems((current) => applyProgress(current, loaded, total)),
      });
      setItems((current) => finishItems(current, 'completed'));
      setResults(answer.files);
      await queryClient.invalidateQueries({ queryKey: documentsKeys.lists() });
    } catch (error) {
      const refused =
        error instanceof ApiError
          ? error.details
              .filter((d) => d.field === 'file')
              .map((d) => ({
                code: d.code,
                name: typeof d.params?.['name'] === 'string' ? d.params['name'] : undefined,
              }))
          : [];
      setItems((current) =>
        refused.some((r) => r.name) ? markRefused(current, refused) : finishItems(current, 'error'),
      );
      setFailure(errorText(error, 'documents'));
    } finally {
      setSending(false);
    }
  }

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <UploadWidget
          items={items}
          limits={DOCUMENT_UPLOAD_LIMITS}
          onAdd={onAdd}
          onRemove={onRemove}
          disabled={sending}
          label={t('upload.label')}
        />
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={() => void send()} loading={sending} disabled={toSend.length === 0}>
            {t('upload.send')}
          </Button>
        </Group>
        {results.length > 0 ? (
          <section aria-label={t('upload.results')} data-testid="upload-results">
            <Stack gap="xs">
              {results.map((file) => (
                <Paper key={`${file.fileName}-${file.interchangeId}`} withBorder p="sm" data-testid="upload-result">
                  <Text fw={600} size="sm">
                    {file.fileName}
                  </Text>
                  <Text size="sm">
                    {file.duplicate
                      ? t('upload.duplicate')
                      : file.queued
                        ? t('upload.queued')
                        : t('upload.created', { count: file.documents.length })}
                  </Text>
                  <Text size="sm">
                    {file.findings.length
                      ? t('upload.findings', { count: file.findings.length })
                      : t('upload.noFindings')}
                  </Text>
                  {file.documents.length ? (
                    <List size="sm" spacing={2} mt={4}>
                      {file.documents.map((doc) => (
                        <List.Item key={doc.id}>
                          <Group gap="xs" wrap="wrap">
                            <span dir="ltr">{doc.documentNumber ?? doc.documentType}</span>
                            {doc.partnerName ? <span>{doc.partnerName}</span> : null}
                            <DocumentStatusBadge status={doc.status} />
                          </Group>
                        </List.Item>
                      ))}
                    </List>
                  ) : null}
                  {file.findings.length ? (
                    <List size="sm" spacing={2} mt={4}>
                      {file.findings.slice(0, 10).map((f, i) => (
                        <List.Item key={i}>
                          <Badge size="xs" variant="light" c="dark.7" color={f.severity === 'error' ? 'red' : 'yellow'}>
                            {t(`view.severity.${f.severity}`)}
                          </Badge>{' '}
                          {t('view.finding', { line: f.line, column: f.column, message: findingText(f) })}
                        </List.Item>
                      ))}
                    </List>
                  ) : null}
                </Paper>
              ))}
            </Stack>
          </section>
        ) : null}
      </Stack>
    </Paper>
  );
}
