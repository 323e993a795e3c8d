import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DraftCheckSchema,
  DraftKindsSchema,
  DraftListSchema,
  DraftSchema,
  DraftSentSchema,
  type DraftForm,
  type DraftKind,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import { useApi } from '../../../lib/api-context.tsx';

const id = (value: string) => encodeURIComponent(value);

export const draftsKeys = {
  all: ['drafts'] as const,
  list: () => [...draftsKeys.all, 'list'] as const,
  kinds: () => [...draftsKeys.all, 'kinds'] as const,
  one: (draftId: string) => [...draftsKeys.all, 'one', draftId] as const,
};

export const draftsQuery = (api: ApiClient) =>
  queryOptions({
    queryKey: draftsKeys.list(),
    queryFn: ({ signal }) => api.get('/drafts', DraftListSchema, { signal }),
  });

/** What the new-document menu offers; fetched when the menu opens. */
export const draftKindsQuery = (api: ApiClient) =>
  queryOptions({
    queryKey: draftsKeys.kinds(),
    queryFn: ({ signal }) => api.get('/drafts/kinds', DraftKindsSchema, { signal }),
  });

export const draftQuery = (api: ApiClient, draftId: string) =>
  queryOptions({
    queryKey: draftsKeys.one(draftId),
    queryFn: ({ signal }) => api.get(`/drafts/${id(draftId)}`, DraftSchema, { signal }),
    // The form is the truth while it is open: no refetch under the user's typing.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** A new draft: empty for a kind and partner, or answering a document (turnaround). */
export function useCreateDraftMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: DraftKind; partnerId?: string | null; sourceDocumentId?: string }) =>
      api.post('/drafts', DraftSchema, input),
    onSuccess: (draft) => {
      queryClient.setQueryData(draftsKeys.one(draft.id), draft);
      void queryClient.invalidateQueries({ queryKey: draftsKeys.list() });
    },
  });
}

export function useSaveDraftMutation(draftId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { version: number; partnerId: string | null; form: DraftForm }) =>
      // A save's own failure is shown by the form beside its state, not as a second toast.
      api.put(`/drafts/${id(draftId)}`, DraftSchema, input, { quietStatuses: [400, 409] }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: draftsKeys.list() }),
  });
}

export function useCopyDraftMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draftId: string) => api.post(`/drafts/${id(draftId)}/copy`, DraftSchema),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: draftsKeys.list() }),
  });
}

export function useDeleteDraftMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (draftId: string) => api.delete(`/drafts/${id(draftId)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: draftsKeys.list() }),
  });
}

export function useCheckDraftMutation(draftId: string) {
  const api = useApi();
  return useMutation({ mutationFn: () => api.post(`/drafts/${id(draftId)}/check`, DraftCheckSchema) });
}

export function useSendDraftMutation(draftId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => api.post(`/drafts/${id(draftId)}/send`, DraftSentSchema, { version }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: draftsKeys.all });
      // The outbox lists (the documents feature's keys start so) show the sent document.
      void queryClient.invalidateQueries({ queryKey: ['documents', 'list'] });
    },
  });
}
