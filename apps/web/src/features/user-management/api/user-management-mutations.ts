import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CompanyUserDetailSchema,
  GroupDetailSchema,
  RestrictionSchema,
  type GroupRequest,
  type InviteUserRequest,
  type RestrictionRequest,
  type UpdateCompanyUserRequest,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import { useApi } from '../../../lib/api-context.tsx';
import { userManagementKeys } from './user-management-queries.ts';

const id = (value: string) => encodeURIComponent(value);

/** Users and groups show each other (groups per user, member counts): a change to one refreshes both. */
function useInvalidateUsersAndGroups() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: userManagementKeys.users() }),
      queryClient.invalidateQueries({ queryKey: userManagementKeys.groups() }),
    ]);
}

export function useInviteUserMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: (body: InviteUserRequest) => api.post('/company-users/invite', CompanyUserDetailSchema, body),
    onSuccess: invalidate,
  });
}

export function useResendInvitationMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: (userId: string) => api.post(`/company-users/${id(userId)}/resend-invitation`, CompanyUserDetailSchema),
    onSuccess: invalidate,
  });
}

export function useUpdateUserMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: string; body: UpdateCompanyUserRequest }) =>
      api.patch(`/company-users/${id(userId)}`, CompanyUserDetailSchema, body),
    onSuccess: invalidate,
  });
}

export function useSetUserActiveMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: ({ userId, active }: { userId: string; active: boolean }) =>
      api.post(`/company-users/${id(userId)}/${active ? 'activate' : 'deactivate'}`, CompanyUserDetailSchema),
    onSuccess: invalidate,
  });
}

async function saveGroup(
  api: ApiClient,
  input: { groupId?: string; group: GroupRequest; memberIds: string[] | undefined },
) {
  const group = input.groupId
    ? await api.put(`/groups/${id(input.groupId)}`, GroupDetailSchema, input.group)
    : await api.post('/groups', GroupDetailSchema, input.group);
  if (!input.memberIds) return group;
  return api.put(`/groups/${id(group.id)}/members`, GroupDetailSchema, { userIds: input.memberIds });
}

/** Creates or updates a group, then (when given) replaces its members. */
export function useSaveGroupMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: (input: { groupId?: string; group: GroupRequest; memberIds: string[] | undefined }) =>
      saveGroup(api, input),
    onSettled: invalidate,
  });
}

export function useDeleteGroupMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: (groupId: string) => api.delete(`/groups/${id(groupId)}`),
    onSuccess: invalidate,
  });
}

export function useSaveRestrictionMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ restrictionId, body }: { restrictionId?: string; body: RestrictionRequest }) =>
      restrictionId
        ? api.put(`/restrictions/${id(restrictionId)}`, RestrictionSchema, body)
        : api.post('/restrictions', RestrictionSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userManagementKeys.restrictions() }),
  });
}

export function useDeleteRestrictionMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (restrictionId: string) => api.delete(`/restrictions/${id(restrictionId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userManagementKeys.restrictions() }),
  });
}
