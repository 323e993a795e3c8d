import { queryOptions } from '@tanstack/react-query';
import { KsefConnectionSchema, KsefSubmissionViewSchema } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const ksefKeys = {
  all: ['ksef'] as const,
  settings: () => [...ksefKeys.all, 'settings'] as const,
};

/** The company's KSeF connection as the API shows it: never the token or the private key. */
export function ksefSettingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: ksefKeys.settings(),
    queryFn: ({ signal }) => api.get('/company/ksef', KsefConnectionSchema, { signal }),
  });
}

/**
 * An outbox invoice's way to KSeF (null: never submitted). While it is on its way the view asks again every few
 * seconds, so the statuses move without a reload.
 */
export function ksefSubmissionQuery(api: ApiClient, documentId: string) {
  return queryOptions({
    queryKey: [...ksefKeys.all, 'submission', documentId] as const,
    queryFn: ({ signal }) =>
      api.get(`/documents/${encodeURIComponent(documentId)}/ksef`, KsefSubmissionViewSchema.nullable(), { signal }),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'queued' || state === 'sending' ? 3000 : false;
    },
  });
}
