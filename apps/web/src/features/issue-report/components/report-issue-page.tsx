import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Container, Group, Paper, Radio, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconAlertCircle, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  ISSUE_DESCRIPTION_MAX_LENGTH,
  ISSUE_PRIORITIES,
  ISSUE_REPORT_FILE_TYPES,
  ISSUE_REPORT_MAX_FILE_BYTES,
  ISSUE_REPORT_MAX_FILES,
  ISSUE_REPORT_MAX_TOTAL_BYTES,
  ISSUE_SUBJECT_MAX_LENGTH,
  ISSUE_TYPES,
  IssueReportFieldsSchema,
  type IssueReportFields,
} from '@portal/contracts';
import type { z } from 'zod';
import { UploadWidget } from '../../../components/upload-widget/upload-widget.tsx';
import {
  addFiles,
  applyProgress,
  finishItems,
  formatBytes,
  markRefused,
  sendableItems,
  type UploadItem,
  type UploadLimits,
} from '../../../components/upload-widget/upload-files.ts';
import { TOAST_STATUSES } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { applyServerDetails, showApiErrorToast, validationText } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { submitIssueReport } from '../api/issue-report-api.ts';

export const ISSUE_REPORT_LIMITS: UploadLimits = {
  maxFiles: ISSUE_REPORT_MAX_FILES,
  maxFileBytes: ISSUE_REPORT_MAX_FILE_BYTES,
  maxTotalBytes: ISSUE_REPORT_MAX_TOTAL_BYTES,
  extensions: Object.keys(ISSUE_REPORT_FILE_TYPES),
};

type FormValues = z.input<typeof IssueReportFieldsSchema>;
const TEXT_FIELDS = ['type', 'priority', 'subject', 'description'] as const;
type FormAlert = 'failed' | 'tooLarge' | 'filesRefused' | undefined;

/** Report an issue (description, sections 2 and 9): type, priority, subject, description and attachments. */
export function ReportIssuePage() {
  const { t, i18n } = useTranslation(['layout', 'validation']);
  const session = useSession();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [sending, setSending] = useState(false);
  const [formAlert, setFormAlert] = useState<FormAlert>();
  const form = useForm<FormValues, unknown, IssueReportFields>({
    resolver: zodResolver(IssueReportFieldsSchema),
    defaultValues: { type: 'technical', priority: 'minor', subject: '', description: '' },
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const fieldError = (name: (typeof TEXT_FIELDS)[number]) => validationText(errors[name]?.message);

  function onAdd(files: File[]) {
    setFormAlert(undefined);
    // A new choice after a sent report starts a new list.
    setItems((current) =>
      addFiles(
        current.filter((item) => item.status !== 'completed'),
        files,
        ISSUE_REPORT_LIMITS,
      ),
    );
  }

  function onRemove(id: string) {
    setItems((current) => {
      const rest = current.filter((item) => item.id !== id);
      // Limits are re-checked for what is left: removing a file may make room for a refused one.
      return addFiles(
        [],
        rest.map((item) => item.file),
        ISSUE_REPORT_LIMITS,
      );
    });
  }

  async function onValid(fields: IssueReportFields) {
    const toSend = sendableItems(items.filter((item) => item.status !== 'completed'));
    if (items.some((item) => item.status === 'error' && item.error?.code !== 'uploadFailed')) {
      setFormAlert('filesRefused');
      return;
    }
    setFormAlert(undefined);
    setSending(true);
    setItems((current) =>
      applyProgress(
        current.filter((item) => item.status !== 'completed'),
        0,
        1,
      ),
    );
    try {
      await submitIssueReport({
        fields,
        files: toSend.map((item) => item.file),
        getAccessToken: session.getAccessToken,
        refresh: session.refresh,
        onProgress: ({ loaded, total }) => setItems((current) => applyProgress(current, loaded, total)),
      });
      // Sent: the form starts afresh, its files too (they went with this report, not the next one).
      setItems([]);
      showSuccess({ title: t('layout:reportIssue.success'), message: t('layout:reportIssue.successText') });
      form.reset();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        applyServerDetails(error.details, TEXT_FIELDS, form.setError);
        const refused = error.details
          .filter((d) => d.field === 'files')
          .map((d) => ({ code: d.code, name: typeof d.params?.['name'] === 'string' ? d.params['name'] : undefined }));
        setItems((current) => (refused.length ? markRefused(current, refused) : finishItems(current, 'error')));
        setFormAlert(refused.length ? 'filesRefused' : 'failed');
      } else {
        setItems((current) => finishItems(current, 'error'));
        setFormAlert(error instanceof ApiError && error.status === 413 ? 'tooLarge' : 'failed');
        if (error instanceof ApiError && TOAST_STATUSES.has(error.status)) showApiErrorToast(error);
      }
    } finally {
      setSending(false);
    }
  }

  return (
    <Container size="md" px={0}>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form noValidate onSubmit={form.handleSubmit(onValid)} aria-busy={sending}>
          <Stack gap="md">
            <div>
              <Title order={1}>{t('layout:reportIssue.title')}</Title>
              <Text c="dimmed" mt={4}>
                {t('layout:reportIssue.lead')}
              </Text>
            </div>
            {formAlert ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertCircle size={20} />}
                role="alert"
                data-testid="report-issue-error"
              >
                {formAlert === 'tooLarge'
                  ? t('layout:reportIssue.tooLarge', { max: formatBytes(ISSUE_REPORT_MAX_TOTAL_BYTES, i18n.language) })
                  : t(`layout:reportIssue.${formAlert}`)}
              </Alert>
            ) : null}
            <Group grow align="flex-start" wrap="wrap">
              <Controller
                control={form.control}
                name="type"
                render={({ field }) => (
                  <Radio.Group
                    label={t('layout:reportIssue.type')}
                    withAsterisk
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldError('type')}
                  >
                    <Stack gap={6} mt={6}>
                      {ISSUE_TYPES.map((type) => (
                        <Radio key={type} value={type} label={t(`layout:reportIssue.types.${type}`)} />
                      ))}
                    </Stack>
                  </Radio.Group>
                )}
              />
              <Controller
                control={form.control}
                name="priority"
                render={({ field }) => (
                  <Radio.Group
                    label={t('layout:reportIssue.priority')}
                    withAsterisk
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldError('priority')}
                  >
                    <Stack gap={6} mt={6}>
                      {ISSUE_PRIORITIES.map((priority) => (
                        <Radio key={priority} value={priority} label={t(`layout:reportIssue.priorities.${priority}`)} />
                      ))}
                    </Stack>
                  </Radio.Group>
                )}
              />
            </Group>
            <TextInput
              label={t('layout:reportIssue.subject')}
              withAsterisk
              maxLength={ISSUE_SUBJECT_MAX_LENGTH}
              {...form.register('subject')}
              error={fieldError('subject')}
            />
            <Textarea
              label={t('layout:reportIssue.description')}
              withAsterisk
              rows={6}
              maxLength={ISSUE_DESCRIPTION_MAX_LENGTH}
              {...form.register('description')}
              error={fieldError('description')}
            />
            <UploadWidget
              label={t('layout:reportIssue.attachments')}
              items={items}
              limits={ISSUE_REPORT_LIMITS}
              onAdd={onAdd}
              onRemove={onRemove}
              disabled={sending}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={sending} leftSection={<IconSend size={18} aria-hidden />}>
                {t('layout:reportIssue.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
