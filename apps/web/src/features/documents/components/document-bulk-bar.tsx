import { Button, Checkbox, Group, Menu, Paper, Text } from '@mantine/core';
import { IconChevronDown, IconFileExport, IconFileZip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_EXPORT_FORMATS,
  DOCUMENT_SELECTION_MAX,
  type DocumentColumn,
  type DocumentDirection,
  type DocumentListItem,
} from '@portal/contracts';
import { showFailure } from '../../../lib/error-text.ts';
import { useDownloadZip, useExportDocuments } from '../api/document-actions.ts';
import type { DocumentsSearch } from '../documents-search.ts';
import { AdditionalStatusMenu, useCanModify, useStatusChange } from './document-status-actions.tsx';

export type BulkBarProps = {
  direction: DocumentDirection;
  /** The rows the list shows now. */
  items: readonly DocumentListItem[];
  selected: ReadonlySet<string>;
  onSelect: (selected: Set<string>) => void;
  /** The user's columns in their order, for the export. */
  columns: readonly DocumentColumn[];
  search: DocumentsSearch;
};

/** Up to the selection's limit, the ids in their order. */
export const capSelection = (ids: Iterable<string>): Set<string> => new Set([...ids].slice(0, DOCUMENT_SELECTION_MAX));

/**
 * The bar over the list: select every shown document, and for the selection mark read or unread (inbox) and set the
 * additional status (for users who may change documents), download the originals as one zip; export the selection,
 * or without one the whole filtered list, as CSV or XLSX with the user's columns.
 */
export function DocumentBulkBar(props: BulkBarProps) {
  const { t, i18n } = useTranslation('documents');
  const canModify = useCanModify(props.direction);
  const { run, pending } = useStatusChange();
  const zip = useDownloadZip();
  const exporting = useExportDocuments();
  const count = props.selected.size;
  const ids = [...props.selected];
  const shown = props.items.map((i) => i.id);
  const allShown = shown.length > 0 && shown.every((id) => props.selected.has(id));
  const someShown = shown.some((id) => props.selected.has(id));
  const clear = () => props.onSelect(new Set());

  return (
    <Paper withBorder p="xs" role="region" aria-label={t('actions.bar')} data-testid="documents-bulk-bar">
      <Group gap="sm" wrap="wrap" justify="space-between">
        <Group gap="sm" wrap="wrap">
          <Checkbox
            label={t('actions.selectAll')}
            checked={allShown}
            indeterminate={someShown && !allShown}
            disabled={shown.length === 0}
            onChange={(e) =>
              props.onSelect(
                e.currentTarget.checked
                  ? capSelection([...props.selected, ...shown])
                  : new Set(ids.filter((id) => !shown.includes(id))),
              )
            }
          />
          <Text size="sm" aria-live="polite" data-testid="documents-selected-count">
            {count > 0 ? t('actions.selected', { count }) : ''}
          </Text>
          {count >= DOCUMENT_SELECTION_MAX ? (
            <Text size="sm" c="dimmed">
              {t('actions.selectionMax', { max: DOCUMENT_SELECTION_MAX })}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs" wrap="wrap">
          {count > 0 && canModify && props.direction === 'in' ? (
            <>
              <Button variant="default" loading={pending} onClick={() => run({ ids, read: true })}>
                {t('actions.markRead')}
              </Button>
              <Button variant="default" loading={pending} onClick={() => run({ ids, read: false })}>
                {t('actions.markUnread')}
              </Button>
            </>
          ) : null}
          {count > 0 && canModify ? (
            <AdditionalStatusMenu loading={pending} onChoose={(additionalStatus) => run({ ids, additionalStatus })} />
          ) : null}
          {count > 0 ? (
            <Button
              variant="light"
              leftSection={<IconFileZip size={18} aria-hidden />}
              loading={zip.isPending}
              onClick={() => zip.mutate(ids, { onError: (error) => showFailure(error, 'documents') })}
            >
              {t('actions.downloadZip')}
            </Button>
          ) : null}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                variant="light"
                leftSection={<IconFileExport size={18} aria-hidden />}
                rightSection={<IconChevronDown size={16} aria-hidden />}
                loading={exporting.isPending}
              >
                {t('actions.exportList')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {DOCUMENT_EXPORT_FORMATS.map((format) => (
                <Menu.Item
                  key={format}
                  onClick={() =>
                    exporting.mutate(
                      {
                        format,
                        direction: props.direction,
                        columns: props.columns,
                        search: props.search,
                        language: i18n.language,
                        ...(count > 0 ? { ids } : {}),
                      },
                      { onError: (error) => showFailure(error, 'documents') },
                    )
                  }
                >
                  {format === 'csv' ? t('actions.exportCsv') : t('actions.exportXlsx')}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {count > 0 ? (
            <Button variant="subtle" onClick={clear}>
              {t('actions.clearSelection')}
            </Button>
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
}
