import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  PartnerDetailSchema,
  type CreatePartnerRequest,
  type PartnerNotificationsRequest,
  type UpdatePartnerRequest,
} from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { partnersKeys } from './partners-queries.ts';

const id = (value: string) => encodeURIComponent(value);

/** Every change refreshes the partners' lists and lookups; the detail it answered is put in place. */
function useRefresh() {
  const queryClient = useQueryClient();
  return (saved?: { id: string }) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: partnersKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: [...partnersKeys.all, 'lookup'] }),
      saved ? queryClient.invalidateQueries({ queryKey: partnersKeys.detail(saved.id) }) : undefined,
    ]);
}

export function useCreatePartnerMutation() {
  const api = useApi();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreatePartnerRequest) => api.post('/partners', PartnerDetailSchema, body),
    onSuccess: (saved) => refresh(saved),
  });
}

export function useUpdatePartnerMutation() {
  const api = useApi();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ partnerId, body }: { partnerId: string; body: UpdatePartnerRequest }) =>
      api.put(`/partners/${id(partnerId)}`, PartnerDetailSchema, body),
    onSuccess: (saved) => refresh(saved),
  });
}

export function useSavePartnerNotificationsMutation() {
  const api = useApi();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ partnerId, body }: { partnerId: string; body: PartnerNotificationsRequest }) =>
      api.put(`/partners/${id(partnerId)}/notifications`, PartnerDetailSchema, body),
    onSuccess: (saved) => refresh(saved),
  });
}

export function useDeletePartnerMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (partnerId: string) => api.delete(`/partners/${id(partnerId)}`),
    onSuccess: (_, partnerId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: partnersKeys.lists() }),
        queryClient.removeQueries({ queryKey: partnersKeys.detail(partnerId) }),
      ]),
  });
}
