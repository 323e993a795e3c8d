import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconPlus, IconUpload } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ADDRESS_BOOK_FIELDS,
  ADDRESS_BOOK_IMPORT_MAX_BYTES,
  ADDRESS_BOOK_SORTS,
  type AddressBookEntry,
  type ImportProblem,
} from '@portal/contracts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useCountryName } from '../../../components/country-select.tsx';
import { CsvImportModal } from '../../../components/csv-import-modal.tsx';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { ListToolbar } from '../../../components/list-toolbar.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { findText } from '../../../i18n/dynamic-text.ts';
import { errorText, showFailure, validationText } from '../../../lib/error-text.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { addressBookFilter, type AddressBookSearch } from '../address-book-search.ts';
import { useDeleteEntryMutation, useExportMutation, useImportMutation } from '../api/address-book-mutations.ts';
import { addressBookQuery } from '../api/address-book-queries.ts';
import { EntryFormModal } from './entry-form-modal.tsx';
import { useEntryChoices } from './entry-labels.ts';

const route = getRouteApi('/app/address-book');

/** An import problem's text: the address book's own wording of a code first, then the shared validation texts. */
function problemText(problem: Pick<ImportProblem, 'code' | 'params'>): string {
  return (
    findText(`address-book:fieldErrors.${problem.code}`, problem.params) ??
    validationText(problem.code, problem.params) ??
    problem.code
  );
}

/**
 * /address-book: the company's own contacts for filling documents. Search and sort in the address; create, edit,
 * delete and CSV import with ADDRESS_BOOK_MODIFY; CSV export for every reader.
 */
export function AddressBookPage() {
  const { t } = useTranslation('address-book');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('ADDRESS_BOOK_MODIFY');
  const search = route.useSearch();
  const filter = addressBookFilter(search);
  const navigate = useNavigate();
  const list = useKeysetList(useInfiniteQuery({ ...addressBookQuery(api, filter), ...LOADED_BY_ROUTE }));
  const [editing, setEditing] = useState<AddressBookEntry | 'new' | undefined>();
  const [importing, setImporting] = useState(false);
  const remove = useDeleteEntryMutation();
  const exportCsv = useExportMutation();
  const countryName = useCountryName();
  const choices = useEntryChoices();

  const setSearch = (next: AddressBookSearch) =>
    navigate({ to: '/address-book', search: { ...search, ...next }, replace: true });

  function confirmDelete(entry: AddressBookEntry) {
    confirmAction({
      title: t('delete.title'),
      text: t('delete.text', { name: entry.name }),
      confirmLabel: t('delete.confirm'),
      color: 'red',
      onConfirm: () =>
        remove.mutate(entry.id, {
          onSuccess: () => showSuccess({ message: t('delete.done', { name: entry.name }) }),
          onError: (error) => showFailure(error, 'address-book'),
        }),
    });
  }

  function onExport() {
    exportCsv.mutate(undefined, {
      onSuccess: () => showSuccess({ message: t('export.done') }),
      onError: (error) => showFailure(error, 'address-book'),
    });
  }

  const columns: DataColumn<AddressBookEntry>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      card: 'title',
      cell: (entry) => (
        <>
          <Text fw={600} inherit>
            {entry.name}
          </Text>
          {entry.displayedName ? (
            <Text size="sm" c="dimmed">
              {entry.displayedName}
            </Text>
          ) : null}
        </>
      ),
    },
    { key: 'gln', header: t('columns.gln'), cell: (entry) => (entry.gln ? <span dir="ltr">{entry.gln}</span> : null) },
    {
      key: 'taxId',
      header: t('columns.taxId'),
      cell: (entry) => (entry.taxId ? <span dir="ltr">{entry.taxId}</span> : null),
    },
    { key: 'personType', header: t('columns.personType'), cell: (entry) => choices.personType(entry.personType) },
    { key: 'city', header: t('columns.city'), cell: (entry) => entry.city },
    { key: 'country', header: t('columns.country'), cell: (entry) => countryName(entry.country) },
  ];
  if (canModify)
    columns.push({
      key: 'actions',
      header: t('columns.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (entry) => (
        <EditDeleteActions
          editLabel={t('actions.edit', { name: entry.name })}
          deleteLabel={t('actions.delete', { name: entry.name })}
          onEdit={() => setEditing(entry)}
          onDelete={() => confirmDelete(entry)}
        />
      ),
    });

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconDownload size={18} aria-hidden />}
            loading={exportCsv.isPending}
            onClick={onExport}
          >
            {t('actions.export')}
          </Button>
          {canModify ? (
            <>
              <Button
                variant="default"
                leftSection={<IconUpload size={18} aria-hidden />}
                onClick={() => setImporting(true)}
              >
                {t('actions.import')}
              </Button>
              <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
                {t('actions.add')}
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      <ListToolbar
        searchLabel={t('search')}
        search={search.search}
        onSearch={(value) => void setSearch({ search: value })}
      >
        <Select
          label={t('sort.label')}
          data={ADDRESS_BOOK_SORTS.map((sort) => ({ value: sort, label: t(`sort.${sort}`) }))}
          value={filter.sort}
          allowDeselect={false}
          onChange={(value) => {
            // The default order (by name) stays out of the address.
            const sort = ADDRESS_BOOK_SORTS.find((s) => s === value && s !== 'name');
            void setSearch({ sort });
          }}
          w={180}
        />
        <Select
          label={t('sort.orderLabel')}
          data={(['asc', 'desc'] as const).map((order) => ({ value: order, label: t(`sort.${order}`) }))}
          value={filter.order}
          allowDeselect={false}
          onChange={(value) => void setSearch({ order: value === 'desc' ? 'desc' : undefined })}
          w={160}
        />
      </ListToolbar>
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(entry) => entry.id}
        rowAttributes={(entry) => ({ 'data-testid': `entry-row-${entry.name}` })}
        minWidth={820}
        aria-label={t('caption')}
        data-testid="address-book-table"
        emptyText={search.search ? t('noMatches') : t('empty')}
        states={{ placement: 'inline', errorText: (error) => errorText(error, 'address-book') }}
      />
      {editing ? (
        <EntryFormModal entry={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      ) : null}
      {importing ? (
        <CsvImportModal
          namespace="address-book"
          fields={ADDRESS_BOOK_FIELDS}
          previewFields={['name', 'gln', 'taxId', 'city', 'country']}
          maxBytes={ADDRESS_BOOK_IMPORT_MAX_BYTES}
          useUpload={useImportMutation}
          problemText={problemText}
          errorText={(error) => errorText(error, 'address-book')}
          onClose={() => setImporting(false)}
        />
      ) : null}
    </Stack>
  );
}
