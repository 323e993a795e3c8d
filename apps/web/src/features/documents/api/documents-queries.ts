import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ColumnsResponseSchema,
  DocumentChainSchema,
  DocumentDetailSchema,
  DocumentPageSchema,
  type ColumnList,
  type DocumentColumn,
  type DocumentDirection,
  type SetColumnsRequest,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { documentsQueryParams, type DocumentsSearch } from '../documents-search.ts';

export const PAGE_SIZE = 25;

export const documentsKeys = {
  all: ['documents'] as const,
  lists: () => [...documentsKeys.all, 'list'] as const,
  list: (direction: DocumentDirection, search: DocumentsSearch) =>
    [...documentsKeys.lists(), direction, search] as const,
  detail: (id: string) => [...documentsKeys.all, 'detail', id] as const,
  original: (id: string) => [...documentsKeys.all, 'original', id] as const,
  columns: (list: ColumnList) => [...documentsKeys.all, 'columns', list] as const,
};

export const columnListOf = (direction: DocumentDirection): ColumnList => (direction === 'in' ? 'inbox' : 'outbox');

/** A page of the inbox or the outbox: the first asks for the total, each next one passes the previous cursor. */
export function documentsQuery(api: ApiClient, direction: DocumentDirection, search: DocumentsSearch) {
  return infiniteQueryOptions({
    queryKey: documentsKeys.list(direction, search),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get('/documents', DocumentPageSchema, {
        query: {
          direction,
          limit: PAGE_SIZE,
          cursor: pageParam,
          includeTotal: pageParam === undefined ? 'true' : undefined,
          ...documentsQueryParams(search),
        },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** One document; the first reading of an inbox copy by its company makes it Read, so the lists are refetched after. */
export function documentQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: documentsKeys.detail(id),
    queryFn: ({ signal }) => api.get(`/documents/${encodeURIComponent(id)}`, DocumentDetailSchema, { signal }),
  });
}

/** The documents the document's references connect it with (its chain), oldest first. */
export function documentChainQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: [...documentsKeys.detail(id), 'chain'] as const,
    queryFn: ({ signal }) => api.get(`/documents/${encodeURIComponent(id)}/chain`, DocumentChainSchema, { signal }),
  });
}

/** The user's columns of a list, in their order (the six defaults until they choose). */
export function columnsQuery(api: ApiClient, list: ColumnList) {
  return queryOptions({
    queryKey: documentsKeys.columns(list),
    queryFn: ({ signal }) => api.post('/users/getColumns', ColumnsResponseSchema, { list }, { signal }),
    staleTime: Infinity,
  });
}

export function useSaveColumnsMutation(list: ColumnList) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (columns: DocumentColumn[]) =>
      api.put('/users/setColumns', ColumnsResponseSchema, { list, columns } satisfies SetColumnsRequest),
    onSuccess: (saved) => queryClient.setQueryData(documentsKeys.columns(list), saved),
  });
}
