import { Alert, Button, FileInput, Group, Modal, Stack, Text } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportProblem } from '@portal/contracts';
import { findText } from '../i18n/dynamic-text.ts';
import { ApiError } from '../lib/api-error.ts';
import { showSuccess } from '../lib/notify.ts';
import { DataTable, type DataColumn } from './data-table.tsx';

/** What a CSV import answers (the contracts' `*ImportResult`): the rows read, their problems and a preview. */
export type CsvImportResult = {
  dryRun: boolean;
  rows: number;
  created: number;
  problems: ImportProblem[];
  preview: { line: number; values: Record<string, string> }[];
};

/**
 * The namespaces with the import's texts (`import.*`: title, help, counts, table headers) and field labels
 * (`fields.*`), each worded for its records.
 */
export type CsvImportNamespace = 'address-book' | 'products';

export type CsvImportModalProps = {
  namespace: CsvImportNamespace;
  /** Every column a file may have, named in the help. */
  fields: readonly string[];
  /** The columns of the preview table. */
  previewFields: readonly string[];
  /** The server's size limit, checked before uploading. */
  maxBytes: number;
  /** The feature's upload (a hook, so that each opening of the form starts afresh). */
  useUpload: () => UseMutationResult<CsvImportResult, unknown, { file: File; dryRun: boolean }>;
  /** A problem's text in the feature's wording. */
  problemText: (problem: Pick<ImportProblem, 'code' | 'params'>) => string;
  /** A failed upload's text when the server names no problem. */
  errorText: (error: unknown) => string;
  /** The problem rows' test id (by line alone, or by line and field where a line may have several). */
  problemTestId?: (problem: ImportProblem) => string;
  onClose: () => void;
};

/**
 * Import from CSV in two steps: the chosen file is checked first (a dry run: every row's problems by row and field,
 * and the rows as read), then imported as a whole, all rows or none, only once it has no problem.
 */
export function CsvImportModal({
  namespace,
  fields,
  previewFields,
  maxBytes,
  useUpload,
  problemText,
  errorText,
  problemTestId = (p) => `import-problem-${p.line}`,
  onClose,
}: CsvImportModalProps) {
  const { t } = useTranslation([namespace, 'common']);
  const upload = useUpload();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<CsvImportResult | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  /** A refused upload (too large, empty, not multipart) worded as the form shows it. */
  function uploadFailureText(error: unknown): string {
    if (error instanceof ApiError && error.status === 400 && error.details.length > 0) {
      return error.details.map((d) => problemText({ code: d.code, params: d.params })).join(' ');
    }
    return errorText(error);
  }

  function send(chosen: File, dryRun: boolean) {
    setFailure(undefined);
    upload.mutate(
      { file: chosen, dryRun },
      {
        onSuccess: (answer) => {
          if (!dryRun && answer.created > 0) {
            showSuccess({ message: t('import.done', { count: answer.created }) });
            onClose();
            return;
          }
          setResult(answer);
        },
        onError: (error) => {
          setResult(undefined);
          setFailure(uploadFailureText(error));
        },
      },
    );
  }

  function choose(chosen: File | null) {
    setFile(chosen);
    setResult(undefined);
    setFailure(undefined);
    // Refused here as the server would refuse it, without uploading a file too large to read.
    if (chosen && chosen.size > maxBytes) {
      setFailure(problemText({ code: 'fileTooLarge', params: { name: chosen.name } }));
      return;
    }
    if (chosen) send(chosen, true);
  }

  const fieldLabel = (field: string) => findText(`${namespace}:fields.${field}`) ?? field;
  const problemsOf = (line: number) => result?.problems.filter((p) => p.line === line).length ?? 0;
  const canImport = Boolean(file && result && result.problems.length === 0 && result.rows > 0);

  type PreviewRow = CsvImportResult['preview'][number];
  const problemColumns: DataColumn<ImportProblem>[] = [
    { key: 'line', header: t('import.line'), cell: (p) => (p.line > 0 ? p.line : '—'), card: 'title' },
    { key: 'field', header: t('import.field'), cell: (p) => fieldLabel(p.field) },
    { key: 'problem', header: t('import.problem'), cell: (p) => problemText(p) },
  ];
  const previewColumns: DataColumn<PreviewRow>[] = [
    { key: 'line', header: t('import.line'), cell: (row) => row.line, card: 'title' },
    ...previewFields.map((field): DataColumn<PreviewRow> => ({
      key: field,
      header: fieldLabel(field),
      cell: (row) => row.values[field] ?? '',
    })),
    {
      key: 'status',
      header: t('import.status'),
      cell: (row) => {
        const count = problemsOf(row.line);
        return count === 0 ? (
          t('import.rowOk')
        ) : (
          <Text span c="red.9" fw={600} inherit>
            {t('import.rowProblems', { count })}
          </Text>
        );
      },
    },
  ];

  return (
    <Modal opened onClose={onClose} title={t('import.title')} size="xl">
      <Stack gap="md">
        <Text size="sm">{t('import.help', { fields: fields.join(', ') })}</Text>
        <FileInput
          label={t('import.file')}
          placeholder={t('import.filePlaceholder')}
          accept=".csv,text/csv"
          leftSection={<IconFileTypeCsv size={18} aria-hidden />}
          value={file}
          onChange={choose}
          error={failure}
          data-autofocus
          data-testid="import-file"
        />
        {upload.isPending ? (
          <Text size="sm" c="dimmed" role="status">
            {t('import.checking')}
          </Text>
        ) : null}
        {result && !upload.isPending ? (
          <Stack gap="sm" data-testid="import-preview">
            <Text size="sm">{t('import.rows', { count: result.rows })}</Text>
            {result.problems.length > 0 ? (
              <>
                <Alert color="red" role="alert" data-testid="import-problems-summary">
                  {t('import.problems', { count: result.problems.length })}
                </Alert>
                <DataTable
                  columns={problemColumns}
                  rows={result.problems}
                  rowKey={(p) => `${p.line}-${p.field}-${p.code}`}
                  rowAttributes={(p) => ({ 'data-testid': problemTestId(p) })}
                  minWidth={480}
                  cardsBelow="sm"
                  aria-label={t('import.problemsCaption')}
                  data-testid="import-problems"
                />
              </>
            ) : (
              <Alert color="green" data-testid="import-ok">
                {t('import.noProblems')}
              </Alert>
            )}
            {result.preview.length > 0 ? (
              <>
                <DataTable
                  columns={previewColumns}
                  rows={result.preview}
                  rowKey={(row) => String(row.line)}
                  rowAttributes={(row) => ({ 'data-testid': `import-row-${row.line}` })}
                  minWidth={640}
                  cardsBelow="sm"
                  aria-label={t('import.previewCaption')}
                  data-testid="import-rows"
                />
                {result.rows > result.preview.length ? (
                  <Text size="sm" c="dimmed">
                    {t('import.previewMore', { shown: result.preview.length, total: result.rows })}
                  </Text>
                ) : null}
              </>
            ) : null}
          </Stack>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          {canImport && result ? (
            <Button loading={upload.isPending} onClick={() => file && send(file, false)}>
              {t('import.submit', { count: result.rows })}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
