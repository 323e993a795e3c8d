import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiKeyCreatedSchema, type ApiKeyCreateRequest } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { apiKeyKeys } from './api-keys-queries.ts';

/** Creates a key; the answer holds its secret, the only time the browser sees it. */
export function useCreateApiKeyMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreateRequest) => api.post('/company/api-keys', ApiKeyCreatedSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKeyMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/company/api-keys/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
