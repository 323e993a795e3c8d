import '@mantine/dropzone/styles.css';
import { Alert, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import {
  IconAlertCircle,
  IconCircleCheck,
  IconDownload,
  IconFileUpload,
  IconRefresh,
  IconShieldCheck,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EDIFACT_MAX_BYTES,
  TOAST_DURATION_MS,
  type EdifactFinding,
  type ValidateEdifactResponse,
} from '@portal/contracts';
import { PageLoader } from '../../../components/page-loader.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { intlLocale } from '../../../lib/format.ts';
import { closeLabel } from '../../../lib/notify.ts';
import { findErrorText } from '../../../lib/error-text.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { useContrlReport, useValidateEdifact } from '../api/document-validation-mutations.ts';
import { EdifactEditor, type EdifactEditorHandle } from './edifact-editor.tsx';
import { FindingsTable } from './findings-table.tsx';
import { MessageList } from './message-list.tsx';
import { formatBytes, readTextFile, utf8ByteLength } from './read-text-file.ts';

const EDITOR_ID = 'document-validation-content';

type Notice = { tone: 'error' | 'info'; text: string };

/** Saves text as a file through a temporary link (the CONTRL report). */
function saveText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/edifact;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * /document-validation: paste or drop an EDIFACT document, validate it against the syntax, the UN/EDIFACT directory
 * and the EANCOM guide, read the findings and download the CONTRL a partner's system would send back.
 */
export function DocumentValidationPage() {
  const { t, i18n, ready } = useTranslation(['edifact', 'errors', 'common']);
  const { can } = usePermissions();
  const canCreate = can('DOCUMENT_VALIDATION_CREATE');
  const validation = useValidateEdifact();
  const contrl = useContrlReport();
  const editorRef = useRef<EdifactEditorHandle>(null);
  const verdictRef = useRef<HTMLDivElement>(null);
  const revealVerdict = useRef(false);
  const [content, setContent] = useState('');
  const [inputError, setInputError] = useState<string | undefined>();
  const [notice, setNotice] = useState<Notice | undefined>();
  const [result, setResult] = useState<ValidateEdifactResponse | undefined>();
  const [selected, setSelected] = useState<{ line: number; index?: number } | undefined>();
  // A new result (or a reset) starts the result list afresh: sorting, filters and page.
  const [resultKey, setResultKey] = useState(0);

  useEffect(() => {
    if (!result || !revealVerdict.current) return;
    revealVerdict.current = false;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    verdictRef.current?.scrollIntoView?.({ block: 'nearest', behavior: reduced ? 'auto' : 'smooth' });
  }, [result]);

  if (!ready) return <PageLoader />;

  const locale = intlLocale(i18n.language);
  const toast = (color: 'green' | 'red', message: string) =>
    notifications.show({
      ...closeLabel(),
      color,
      message,
      autoClose: TOAST_DURATION_MS,
      closeButtonProps: { 'aria-label': t('common:close') },
    });
  const max = formatBytes(EDIFACT_MAX_BYTES, locale);
  const tooLargeText = (bytes: number) => t('page.tooLarge', { size: formatBytes(bytes, locale), max });

  /** The content to send, or undefined after telling the user why not. */
  const checkedContent = (): string | undefined => {
    if (content.trim() === '') {
      setInputError(t('page.required'));
      return undefined;
    }
    const bytes = utf8ByteLength(content);
    if (bytes > EDIFACT_MAX_BYTES) {
      setInputError(tooLargeText(bytes));
      return undefined;
    }
    setInputError(undefined);
    return content;
  };

  const failureText = (error: unknown): string | undefined => {
    if (!(error instanceof ApiError)) return undefined;
    if (error.status === 413) return t('page.tooLarge', { size: formatBytes(utf8ByteLength(content), locale), max });
    // 401/403/5xx already raised the client's `Error <code>` toast.
    if (error.status === 0 || error.status === 401 || error.status === 403 || error.status >= 500) return undefined;
    return findErrorText(error.code) ?? t('errors:http.generic');
  };

  const validate = () => {
    const text = checkedContent();
    if (text === undefined) return;
    validation.mutate(
      { content: text },
      {
        onSuccess: (response) => {
          setResult(response);
          setSelected(undefined);
          setResultKey((k) => k + 1);
          // The verdict is said once, by the alert over the result (role="alert" reads it out); a toast repeating
          // it would cover it on a phone. The alert is brought into view, since on a laptop it lands below the fold.
          revealVerdict.current = true;
        },
        onError: (error) => {
          const text = failureText(error);
          if (text) setInputError(text);
        },
      },
    );
  };

  const downloadContrl = () => {
    const text = checkedContent();
    if (text === undefined) return;
    contrl.mutate(
      { content: text },
      {
        onSuccess: (report) => {
          saveText(report, 'CONTRL.edi');
          toast('green', t('page.contrlSaved'));
        },
        onError: (error) => {
          const text = failureText(error);
          if (text) setInputError(text);
        },
      },
    );
  };

  const reset = () => {
    setContent('');
    setInputError(undefined);
    setNotice(undefined);
    setResult(undefined);
    setSelected(undefined);
    setResultKey((k) => k + 1);
    validation.reset();
    contrl.reset();
  };

  const loadFile = async (file: File) => {
    setInputError(undefined);
    if (file.size > EDIFACT_MAX_BYTES) {
      setNotice({
        tone: 'error',
        text: t('file.tooLarge', { name: file.name, size: formatBytes(file.size, locale), max }),
      });
      return;
    }
    try {
      const read = await readTextFile(file);
      setContent(read.text);
      setResult(undefined);
      setSelected(undefined);
      setNotice({
        tone: 'info',
        text: t(read.encoding === 'utf-8' ? 'file.loaded' : 'file.latin1', { name: file.name }),
      });
    } catch {
      setNotice({ tone: 'error', text: t('file.unreadable', { name: file.name }) });
    }
  };

  const showLine = (line: number, column?: number, index?: number) => {
    setSelected({ line, ...(index === undefined ? {} : { index }) });
    editorRef.current?.revealLine(line, column);
  };
  const selectFinding = (finding: EdifactFinding, index: number) => showLine(finding.line, finding.column, index);

  const errorLevel = result?.summary.errorLevel;
  const busy = validation.isPending || contrl.isPending;
  const count = (n: number) => new Intl.NumberFormat(locale).format(n);

  return (
    <Container size="xl" py="lg" px={{ base: 'sm', sm: 'lg' }}>
      <Stack gap="lg">
        <Title order={1}>{t('page.title')}</Title>

        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
          <Stack gap="md">
            {!canCreate && (
              <Alert color="yellow" c="dark.8" icon={<IconAlertCircle aria-hidden />}>
                {t('page.noCreatePermission')}
              </Alert>
            )}
            <EdifactEditor
              ref={editorRef}
              id={EDITOR_ID}
              label={t('page.contentLabel')}
              description={t('page.subtitle')}
              value={content}
              onChange={(value) => {
                setContent(value);
                if (inputError) setInputError(undefined);
              }}
              error={inputError}
              highlightLine={selected?.line}
            />

            <Dropzone
              onDrop={(files) => {
                const file = files[0];
                if (file) void loadFile(file);
              }}
              onReject={(rejections) => {
                const file = rejections[0]?.file;
                if (file) void loadFile(file);
              }}
              multiple={false}
              maxSize={EDIFACT_MAX_BYTES}
              inputProps={{ 'aria-label': t('file.drop') }}
              disabled={busy}
              p="sm"
              data-testid="file-drop"
            >
              <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
                <IconFileUpload size={28} aria-hidden color="var(--mantine-color-blue-8)" />
                <div>
                  <Text size="sm" fw={600}>
                    {t('file.drop')}
                  </Text>
                  <Text size="xs" c="gray.7">
                    {t('file.hint', { max })}
                  </Text>
                </div>
              </Group>
            </Dropzone>
            {notice && (
              <Text
                size="sm"
                c={notice.tone === 'error' ? 'red.9' : 'gray.7'}
                role={notice.tone === 'error' ? 'alert' : 'status'}
              >
                {notice.text}
              </Text>
            )}

            <Group gap="sm">
              <Button
                leftSection={<IconShieldCheck size={18} aria-hidden />}
                onClick={validate}
                loading={validation.isPending}
                disabled={!canCreate || contrl.isPending}
              >
                {t('page.validate')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconRefresh size={18} aria-hidden />}
                onClick={reset}
                disabled={busy}
              >
                {t('page.reset')}
              </Button>
              <Button
                variant="light"
                c="blue.9"
                leftSection={<IconDownload size={18} aria-hidden />}
                onClick={downloadContrl}
                loading={contrl.isPending}
                disabled={!canCreate || validation.isPending}
              >
                {t('page.downloadContrl')}
              </Button>
            </Group>
          </Stack>
        </Paper>

        {result && (
          <Stack gap="lg" data-testid="validation-result">
            <Alert
              ref={verdictRef}
              color={errorLevel ? 'red' : 'green'}
              icon={errorLevel ? <IconAlertCircle aria-hidden /> : <IconCircleCheck aria-hidden />}
              title={errorLevel ? t(`notification.${errorLevel}`) : t('notification.success')}
              data-testid="validation-verdict"
              data-error-level={errorLevel ?? 'none'}
            >
              <Group gap="lg">
                <Text size="sm">{t('summary.errors', { count: count(result.summary.errors) })}</Text>
                <Text size="sm">{t('summary.warnings', { count: count(result.summary.warnings) })}</Text>
                <Text size="sm">{t('summary.messages', { count: count(result.messages.length) })}</Text>
              </Group>
              {result.summary.truncated && (
                <Text size="sm" mt="xs">
                  {t('summary.truncated', { shown: count(result.findings.length) })}
                </Text>
              )}
            </Alert>

            <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
              <Stack gap="sm">
                <Title order={2} size="h3">
                  {t('messages.title')}
                </Title>
                {result.messages.length === 0 ? (
                  <Text c="gray.7">{t('messages.none')}</Text>
                ) : (
                  <MessageList messages={result.messages} onSelectLine={(line) => showLine(line)} />
                )}
              </Stack>
            </Paper>

            <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
              <Stack gap="sm">
                <Title order={2} size="h3">
                  {t('results.title')}
                </Title>
                {result.findings.length === 0 ? (
                  <Text c="gray.7">{t('results.none')}</Text>
                ) : (
                  <FindingsTable
                    key={resultKey}
                    findings={result.findings}
                    selectedIndex={selected?.index}
                    onSelect={selectFinding}
                  />
                )}
              </Stack>
            </Paper>
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
