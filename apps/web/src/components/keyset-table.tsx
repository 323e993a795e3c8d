import { Alert, Button, Center, Loader, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { KeysetList } from '../lib/use-keyset-list.ts';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { KeysetLoadMore } from './load-more.tsx';
import { PageLoader } from './page-loader.tsx';

/**
 * Where a list shows its loading, failed and empty states. The company screens show them in the table's place: a
 * loader instead of the table, the failure worded above it, the empty text as its only row. The admin area keeps the
 * table's headers and shows them under it, a failure as "could not be loaded" with a retry.
 */
export type KeysetTableStates =
  | { placement: 'inline'; errorText: (error: unknown) => string }
  | {
      placement: 'below';
      loadingLabel: string;
      failedTitle: string;
      retryLabel: string;
      /** Marks the empty text for tests. */
      emptyTestId?: string;
    };

/** The states' texts of a list that shows them under the table. */
export type BelowTableStates = Extract<KeysetTableStates, { placement: 'below' }>;

export type KeysetTableProps<T> = Omit<DataTableProps<T>, 'rows' | 'empty' | 'cardsBelow'> & {
  list: KeysetList<T>;
  /** What an empty list says; under a filter, that nothing matches. */
  emptyText: ReactNode;
  states: KeysetTableStates;
};

/**
 * Every keyset-paged list of the app: the table (stacked cards on a phone), its loading, failed and empty states, and
 * "Load more" with how many of how many rows are shown.
 */
export function KeysetTable<T>({ list, emptyText, states, ...table }: KeysetTableProps<T>) {
  if (states.placement === 'inline')
    return (
      <>
        {list.query.isError ? (
          <Alert color="red" role="alert">
            {states.errorText(list.query.error)}
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
                {emptyText}
              </Text>
            }
            {...table}
          />
        )}
        <KeysetLoadMore list={list} />
      </>
    );

  return (
    <>
      <DataTable rows={list.items} cardsBelow="sm" {...table} />
      <ListState
        isLoading={list.query.isLoading}
        isError={list.query.isError}
        isEmpty={list.items.length === 0}
        onRetry={() => void list.query.refetch()}
        emptyText={emptyText}
        states={states}
      />
      <KeysetLoadMore list={list} />
    </>
  );
}

/** The loading, failed and empty states under a table (the admin area's way), for a list that is not keyset-paged too. */
export function ListState({
  states,
  ...props
}: {
  isLoading: boolean;
  isError: boolean;
  isEmpty: boolean;
  onRetry: () => void;
  emptyText: ReactNode;
  states: BelowTableStates;
}) {
  if (props.isLoading)
    return (
      <Center py="xl">
        <Loader aria-label={states.loadingLabel} />
      </Center>
    );
  if (props.isError)
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert" title={states.failedTitle}>
        <Button size="xs" variant="outline" color="red.9" mt="xs" onClick={props.onRetry}>
          {states.retryLabel}
        </Button>
      </Alert>
    );
  if (props.isEmpty)
    return (
      <Text c="dimmed" ta="center" py="xl" data-testid={states.emptyTestId}>
        {props.emptyText}
      </Text>
    );
  return null;
}
