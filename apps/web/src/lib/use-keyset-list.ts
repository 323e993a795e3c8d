import { keepPreviousData, type InfiniteData, type UseInfiniteQueryResult } from '@tanstack/react-query';
import type { Page } from '@portal/contracts';
import { useMemo } from 'react';

export type KeysetList<T> = {
  /** Every loaded page's items, in order. */
  items: T[];
  /** From the first page, when it carries one. */
  total: number | undefined;
  hasMore: boolean;
  isLoadingMore: boolean;
  loadMore: () => void;
  query: Pick<UseInfiniteQueryResult, 'isPending' | 'isLoading' | 'isError' | 'error' | 'refetch'>;
};

/**
 * An infinite query over keyset pages, flattened for a table with "Load more". It takes the query's result rather
 * than its options, so each caller keeps `useInfiniteQuery`'s own type inference.
 */
export function useKeysetList<T>(query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>>): KeysetList<T> {
  const { data, fetchNextPage } = query;
  const items = useMemo(() => data?.pages.flatMap((page) => page.items) ?? [], [data]);
  return {
    items,
    total: data?.pages[0]?.total,
    hasMore: query.hasNextPage,
    isLoadingMore: query.isFetchingNextPage,
    loadMore: () => void fetchNextPage(),
    query,
  };
}

/**
 * The list query's options on a page whose route loader loads the list (and refetches it in the background when it is
 * stale, `revalidateIfStale`): mounting the page does not fetch it a second time, and a new filter keeps the old rows
 * on screen until its own arrive.
 */
export const LOADED_BY_ROUTE = { placeholderData: keepPreviousData, refetchOnMount: false } as const;
