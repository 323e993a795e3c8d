import {
  useInfiniteQuery,
  type DefaultError,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { useMemo } from 'react';

/** One page of a keyset-paginated list: `nextCursor` goes back as `cursor`; `total` when the API was asked for it. */
export type KeysetPage<T> = { items: T[]; nextCursor: string | null; total?: number };

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

/** An infinite query over keyset pages, flattened for a table with "Load more". */
export function useKeysetList<
  TPage extends KeysetPage<unknown>,
  TData extends InfiniteData<TPage, unknown>,
  TPageParam,
>(
  options: UseInfiniteQueryOptions<TPage, DefaultError, TData, QueryKey, TPageParam>,
): KeysetList<TPage['items'][number]> {
  const query = useInfiniteQuery(options);
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  return {
    items,
    total: query.data?.pages[0]?.total,
    hasMore: query.hasNextPage,
    isLoadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
    query,
  };
}
