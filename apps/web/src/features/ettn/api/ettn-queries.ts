import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  AliasRegistrationResponseSchema,
  DocumentPageSchema,
  EttnComposeDraftSchema,
  EttnPageSchema,
  EttnViewSchema,
  LANGUAGES,
  type DocumentViewRequest,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import type { EttnListKind, EttnSearch } from '../ettn-search.ts';

export const ETTN_PAGE_SIZE = 25;

export const ettnKeys = {
  all: ['ettn'] as const,
  lists: () => [...ettnKeys.all, 'list'] as const,
  list: (kind: EttnListKind, search: EttnSearch) => [...ettnKeys.lists(), kind, search] as const,
  views: () => [...ettnKeys.all, 'view'] as const,
  view: (id: string, pending: boolean, language: string) => [...ettnKeys.views(), id, pending, language] as const,
  aliases: () => [...ettnKeys.all, 'aliases'] as const,
  despatchAdvices: () => [...ettnKeys.all, 'despatchAdvices'] as const,
  composeDraft: (documentId: string) => [...ettnKeys.all, 'composeDraft', documentId] as const,
};

/** A language the registry's view speaks (one of the portal's), or none: the server's default. */
const viewLanguage = (language: string) => LANGUAGES.find((l) => l === language);

/** A page of the registered or the pending notes: each next page passes the previous cursor (keyset paging). */
export function ettnListQuery(api: ApiClient, kind: EttnListKind, search: EttnSearch) {
  return infiniteQueryOptions({
    queryKey: ettnKeys.list(kind, search),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get(kind === 'pending' ? '/ettns/pending' : '/ettns', EttnPageSchema, {
        query: { limit: ETTN_PAGE_SIZE, cursor: pageParam, ...search },
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The body of `documentView` and `documentPdf` for a note (its process id) or a pending upload (its id). */
export function ettnDocumentRequest(id: string, pending: boolean, language: string) {
  const lang = viewLanguage(language);
  return {
    ettnDocumentId: { procId: id, isCurrent: true },
    isPending: pending,
    ...(lang ? { language: lang } : {}),
  } satisfies Omit<DocumentViewRequest, 'viewType' | 'act'>;
}

/** The readable view of one note: parties, route, cargo, vehicles, signatures, acts, history. */
export function ettnViewQuery(api: ApiClient, id: string, pending: boolean, language: string) {
  return queryOptions({
    queryKey: ettnKeys.view(id, pending, language),
    queryFn: ({ signal }) =>
      api.post('/ettns/documentView', EttnViewSchema, ettnDocumentRequest(id, pending, language), { signal }),
  });
}

/** The company's aliases (EDRPOU) and subscriptions with their expiry: the profile's panel and the expiry dialog. */
export function ettnAliasesQuery(api: ApiClient) {
  return queryOptions({
    queryKey: ettnKeys.aliases(),
    queryFn: ({ signal }) => api.post('/ettns/aliasRegistrationGet', AliasRegistrationResponseSchema, {}, { signal }),
  });
}

/** The most despatch advices the create form offers to fill from (the newest of the outbox). */
export const ETTN_DESPATCH_ADVICE_CHOICES = 50;

/** The company's newest despatch advices (outbox, DESADV): what the create form can be filled from. */
export function ettnDespatchAdvicesQuery(api: ApiClient) {
  return queryOptions({
    queryKey: ettnKeys.despatchAdvices(),
    queryFn: ({ signal }) =>
      api.get('/documents', DocumentPageSchema, {
        query: { direction: 'out', businessTypeIds: 'DESADV', limit: ETTN_DESPATCH_ADVICE_CHOICES },
        signal,
      }),
    staleTime: 60_000,
  });
}

/** The create form filled from a despatch advice (parties, route, cargo); the user completes and corrects it. */
export function ettnComposeDraftQuery(api: ApiClient, documentId: string) {
  return queryOptions({
    queryKey: ettnKeys.composeDraft(documentId),
    queryFn: ({ signal }) =>
      api.get(`/ettns/compose/fromDespatchAdvice/${encodeURIComponent(documentId)}`, EttnComposeDraftSchema, {
        signal,
      }),
    staleTime: 0,
  });
}
