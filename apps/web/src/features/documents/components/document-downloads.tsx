import { Alert, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconDownload, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentDetail } from '@portal/contracts';
import { ApiError } from '../../../lib/api-error.ts';
import { showFailure } from '../../../lib/error-text.ts';
import { useDownloadOriginal, usePdf } from '../api/document-files.ts';

type Unencodable = { encoding: string; character: string; codePoint: string; line: number; column: number };

/** The place and character of a `documents.unencodable` answer, when that is what the error is. */
function unencodableOf(error: unknown): Unencodable | undefined {
  if (!(error instanceof ApiError) || error.code !== 'documents.unencodable') return undefined;
  const params = error.details[0]?.params as Partial<Unencodable> | undefined;
  return params?.encoding ? (params as Unencodable) : undefined;
}

/** Prints a PDF through a hidden frame: the browser's own print dialog for the server-rendered document. */
function printPdf(blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const frame = document.createElement('iframe');
  frame.style.position = 'fixed';
  frame.style.inlineSize = '0';
  frame.style.blockSize = '0';
  frame.style.border = '0';
  frame.title = 'print';
  frame.src = url;
  frame.onload = () => {
    try {
      frame.contentWindow?.focus();
      frame.contentWindow?.print();
    } catch {
      // A browser that cannot print a PDF from a frame: open it, its viewer prints.
      window.open(url, '_blank', 'noopener');
    }
    setTimeout(() => {
      frame.remove();
      URL.revokeObjectURL(url);
    }, 60_000);
  };
  document.body.append(frame);
}

/**
 * The view's downloads: the original (named and encoded as the profile says, or as UTF-8), the PDF, and Print (the
 * same PDF in the browser's print dialog). A character the profile's encoding cannot hold is explained, with the
 * way out: the UTF-8 file.
 */
export function DocumentDownloads({ doc }: { doc: DocumentDetail }) {
  const { t, i18n } = useTranslation('documents');
  const { t: tc } = useTranslation('common');
  const original = useDownloadOriginal();
  const pdf = usePdf();
  const [unencodable, setUnencodable] = useState<Unencodable | undefined>();
  const fallbackName = `${doc.documentType}_${doc.documentNumber ?? doc.id}`;

  const downloadOriginal = (encoding?: 'utf-8') =>
    original.mutate(
      { id: doc.id, fallbackName: `${fallbackName}.edi`, ...(encoding ? { encoding } : {}) },
      {
        onSuccess: () => setUnencodable(undefined),
        onError: (error) => {
          const found = unencodableOf(error);
          if (found) setUnencodable(found);
          else showFailure(error, 'documents');
        },
      },
    );
  const getPdf = (purpose: 'download' | 'print') =>
    pdf.mutate(
      {
        id: doc.id,
        language: i18n.language,
        purpose,
        fallbackName: `${fallbackName}.pdf`,
        print: printPdf,
      },
      { onError: (error) => showFailure(error, 'documents') },
    );

  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="xs" data-testid="document-downloads">
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button
              variant="light"
              leftSection={<IconDownload size={18} aria-hidden />}
              rightSection={<IconChevronDown size={16} aria-hidden />}
              loading={original.isPending || (pdf.isPending && pdf.variables.purpose === 'download')}
            >
              {t('files.menu')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => downloadOriginal()}>{t('files.original')}</Menu.Item>
            <Menu.Item onClick={() => downloadOriginal('utf-8')}>{t('files.originalUtf8')}</Menu.Item>
            <Menu.Item onClick={() => getPdf('download')}>{t('files.pdf')}</Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Button
          variant="default"
          leftSection={<IconPrinter size={18} aria-hidden />}
          loading={pdf.isPending && pdf.variables.purpose === 'print'}
          onClick={() => getPdf('print')}
        >
          {t('files.print')}
        </Button>
      </Group>
      {unencodable ? (
        <Alert
          color="orange"
          role="alert"
          data-testid="unencodable"
          title={t('files.unencodableTitle', { encoding: unencodable.encoding })}
          withCloseButton
          closeButtonLabel={tc('close')}
          onClose={() => setUnencodable(undefined)}
          maw="36rem"
        >
          <Text size="sm" data-testid="unencodable-text">
            {t('files.unencodable', { ...unencodable })}
          </Text>
          <Button mt="sm" size="xs" onClick={() => downloadOriginal('utf-8')} loading={original.isPending}>
            {t('files.downloadUtf8Instead')}
          </Button>
        </Alert>
      ) : null}
    </Stack>
  );
}
