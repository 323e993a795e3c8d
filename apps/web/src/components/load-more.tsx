import { Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { KeysetList } from '../lib/use-keyset-list.ts';

export type LoadMoreProps = {
  /** Rows shown so far. */
  shown: number;
  /** Rows over all pages, when the API counted them. */
  total: number | undefined;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
};

/**
 * Under a keyset-paged list: how many of how many rows are shown, and "Load more" while there are further pages.
 * Without a count from the API the total is known only once the last page is in. An empty list shows neither: its
 * empty text says it all.
 */
export function LoadMore(props: LoadMoreProps) {
  const { t } = useTranslation('common');
  const total = props.total ?? (props.hasMore ? undefined : props.shown);
  const count = props.shown > 0 && total !== undefined ? t('list.shown', { shown: props.shown, total }) : null;
  if (props.shown === 0 && !props.hasMore) return null;
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="list-count">
        {count}
      </Text>
      {props.hasMore ? (
        <Button variant="default" onClick={props.onLoadMore} loading={props.loading}>
          {t('list.loadMore')}
        </Button>
      ) : null}
    </Group>
  );
}

/** `LoadMore` under a list from `useKeysetList`. */
export function KeysetLoadMore<T>({ list }: { list: KeysetList<T> }) {
  return (
    <LoadMore
      shown={list.items.length}
      total={list.total}
      hasMore={list.hasMore}
      loading={list.isLoadingMore}
      onLoadMore={list.loadMore}
    />
  );
}
