import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableProps } from '../../../components/data-table.tsx';
import { KeysetLoadMore } from '../../../components/load-more.tsx';
import { PageLoader } from '../../../components/page-loader.tsx';
import type { KeysetList } from '../../../lib/use-keyset-list.ts';
import { errorText } from '../../../lib/error-text.ts';

/**
 * A keyset-paged list of this area: the failure, a loader for the first page, the table (stacked cards on a phone)
 * with its empty text, and "Load more" with how many of how many are shown.
 */
export function KeysetTable<T>({
  list,
  isFiltered,
  emptyText,
  ...table
}: { list: KeysetList<T>; isFiltered: boolean; emptyText: string } & Omit<DataTableProps<T>, 'rows' | 'empty'>) {
  const { t } = useTranslation('user-management');
  return (
    <>
      {list.query.isError ? (
        <Alert color="red" role="alert">
          {errorText(list.query.error, 'user-management')}
        </Alert>
      ) : null}
      {list.query.isPending ? (
        <PageLoader />
      ) : (
        <DataTable
          rows={list.items}
          cardsBelow="sm"
          empty={
            <Text c="dimmed" ta="center" py="md">
              {isFiltered ? t('list.noMatches') : emptyText}
            </Text>
          }
          {...table}
        />
      )}
      <KeysetLoadMore list={list} />
    </>
  );
}
