import { Badge, Button, Checkbox, Collapse, Group, Stack, Text, Title } from '@mantine/core';
import { IconColumns, IconFilter, IconUpload } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Outlet, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_DOCUMENT_COLUMNS,
  DOCUMENT_SELECTION_MAX,
  type DocumentDirection,
  type DocumentListItem,
} from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { errorText, showFailure } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { columnListOf, columnsQuery, documentsQuery, useSaveColumnsMutation } from '../api/documents-queries.ts';
import { activeFilterCount, validateDocumentsSearch, type DocumentsSearch } from '../documents-search.ts';
import { ColumnChooser } from './column-chooser.tsx';
import { documentColumn } from './document-columns.tsx';
import { DocumentFilters } from './document-filters.tsx';
import { DocumentsUpload } from './documents-upload.tsx';
import { DocumentBulkBar } from './document-bulk-bar.tsx';
import { DraftsSection, NewDocumentMenu } from '../../drafts/index.ts';

const inboxRoute = getRouteApi('/app/documents/in');
const outboxRoute = getRouteApi('/app/documents/out');

/** /documents/in: the inbox. */
export function InboxPage() {
  const raw = inboxRoute.useSearch();
  // The router keeps parameters its validation dropped beside the valid ones: only the valid ones are used.
  const search = useMemo(() => validateDocumentsSearch(raw), [raw]);
  return <DocumentsPage direction="in" search={search} />;
}

/** /documents/out: the outbox. */
export function OutboxPage() {
  const raw = outboxRoute.useSearch();
  const search = useMemo(() => validateDocumentsSearch(raw), [raw]);
  return <DocumentsPage direction="out" search={search} />;
}

/**
 * The inbox or the outbox: the user's columns in their order (the chooser saves them), the filters in the address,
 * the upload of EDIFACT files, keyset "load more"; a document opens over the list (the child route's modal).
 */
export function DocumentsPage(props: { direction: DocumentDirection; search: DocumentsSearch }) {
  const { t } = useTranslation('documents');
  const { can } = usePermissions();
  if (can(props.direction === 'in' ? 'INBOX_READ' : 'OUTBOX_READ')) return <DocumentsList {...props} />;
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Title order={1}>{t(props.direction === 'in' ? 'inbox.title' : 'outbox.title')}</Title>
      <Text>{t('noAccess')}</Text>
    </Stack>
  );
}

function DocumentsList({ direction, search }: { direction: DocumentDirection; search: DocumentsSearch }) {
  const { t, i18n } = useTranslation('documents');
  const api = useApi();
  const navigate = useNavigate();
  const { can } = usePermissions();
  const canUpload = can(direction === 'in' ? 'INBOX_MODIFY' : 'OUTBOX_CREATE');
  const list = useKeysetList(useInfiniteQuery({ ...documentsQuery(api, direction, search), ...LOADED_BY_ROUTE }));
  const columnList = columnListOf(direction);
  const columnsAnswer = useQuery(columnsQuery(api, columnList));
  const chosen = columnsAnswer.data?.columns ?? DEFAULT_DOCUMENT_COLUMNS;
  const saveColumns = useSaveColumnsMutation(columnList);
  const filterCount = activeFilterCount(search);
  const [filtersOpen, setFiltersOpen] = useState(filterCount > 0);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [choosing, setChoosing] = useState(false);

  const setSearch = (next: DocumentsSearch) =>
    void navigate({ to: direction === 'in' ? '/documents/in' : '/documents/out', search: next, replace: true });

  // The selection belongs to one list and one search: another filter starts a new one.
  const [selection, setSelection] = useState<{ key: string; ids: Set<string> }>({ key: '', ids: new Set() });
  const selectionKey = `${direction}:${JSON.stringify(search)}`;
  const selected = selection.key === selectionKey ? selection.ids : new Set<string>();
  const select = (ids: Set<string>) => setSelection({ key: selectionKey, ids });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    select(next);
  };
  const selectColumn: DataColumn<DocumentListItem> = {
    key: 'select',
    header: t('actions.selectColumn'),
    hideHeader: true,
    card: 'actions',
    cellProps: { w: 48 },
    cell: (row) => (
      <Checkbox
        aria-label={t('actions.selectRow', { number: row.documentNumber ?? t('view.noNumber') })}
        checked={selected.has(row.id)}
        disabled={!selected.has(row.id) && selected.size >= DOCUMENT_SELECTION_MAX}
        onChange={(e) => toggle(row.id, e.currentTarget.checked)}
        data-testid="document-select"
      />
    ),
  };
  const columns = [
    selectColumn,
    ...chosen.map((column) => documentColumn(column, t, i18n.language, direction, search)),
  ];

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t(direction === 'in' ? 'inbox.title' : 'outbox.title')}</Title>
        <Group gap="xs" wrap="wrap">
          {direction === 'out' && can('OUTBOX_CREATE') ? <NewDocumentMenu /> : null}
          {canUpload ? (
            <Button
              variant={uploadOpen ? 'filled' : 'light'}
              leftSection={<IconUpload size={18} aria-hidden />}
              aria-expanded={uploadOpen}
              aria-controls="documents-upload"
              onClick={() => setUploadOpen((o) => !o)}
            >
              {t('upload.open')}
            </Button>
          ) : null}
          <Button
            variant={filtersOpen ? 'filled' : 'light'}
            leftSection={<IconFilter size={18} aria-hidden />}
            rightSection={
              filterCount > 0 ? (
                <Badge size="sm" color="dark" variant="white" aria-label={t('filters.active', { count: filterCount })}>
                  {filterCount}
                </Badge>
              ) : null
            }
            aria-expanded={filtersOpen}
            aria-controls="documents-filters"
            onClick={() => setFiltersOpen((o) => !o)}
          >
            {t('filters.toggle')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconColumns size={18} aria-hidden />}
            onClick={() => setChoosing(true)}
            disabled={columnsAnswer.isPending}
          >
            {t('chooser.open')}
          </Button>
        </Group>
      </Group>
      <Collapse expanded={uploadOpen} id="documents-upload">
        {uploadOpen ? <DocumentsUpload direction={direction} /> : null}
      </Collapse>
      <Collapse expanded={filtersOpen} id="documents-filters">
        {filtersOpen ? <DocumentFilters search={search} onApply={setSearch} /> : null}
      </Collapse>
      {direction === 'out' ? <DraftsSection /> : null}
      <DocumentBulkBar
        direction={direction}
        items={list.items}
        selected={selected}
        onSelect={select}
        columns={chosen}
        search={search}
      />
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-testid': `document-row-${row.documentNumber ?? row.id}` })}
        minWidth={Math.max(560, columns.length * 150)}
        aria-label={t(`caption.${direction}`)}
        data-testid="documents-table"
        emptyText={filterCount > 0 ? t('noMatches') : t(`empty.${direction}`)}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'documents') }}
      />
      {choosing ? (
        <ColumnChooser
          columns={chosen}
          saving={saveColumns.isPending}
          onClose={() => setChoosing(false)}
          onSave={(next) =>
            saveColumns.mutate(next, {
              onSuccess: () => {
                setChoosing(false);
                showSuccess({ message: t('chooser.saved') });
              },
              onError: (error) => showFailure(error, 'documents'),
            })
          }
        />
      ) : null}
      <Outlet />
    </Stack>
  );
}
