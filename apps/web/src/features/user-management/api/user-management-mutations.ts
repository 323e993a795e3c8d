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
    mutationFn: (body: InviteUserRequest) =>
      api.post<unknown>('/company-users/invite', body).then((r) => CompanyUserDetailSchema.parse(r)),
    onSuccess: invalidate,
  });
}

export function useResendInvitationMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: (userId: string) =>
      api.post<unknown>(`/company-users/${id(userId)}/resend-invitation`).then((r) => CompanyUserDetailSchema.parse(r)),
    onSuccess: invalidate,
  });
}

export function useUpdateUserMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: string; body: UpdateCompanyUserRequest }) =>
      api
        .request<unknown>(`/company-users/${id(userId)}`, { method: 'PATCH', body })
        .then((r) => CompanyUserDetailSchema.parse(r)),
    onSuccess: invalidate,
  });
}

export function useSetUserActiveMutation() {
  const api = useApi();
  const invalidate = useInvalidateUsersAndGroups();
  return useMutation({
    mutationFn: ({ userId, active }: { userId: string; active: boolean }) =>
      api
        .post<unknown>(`/company-users/${id(userId)}/${active ? 'activate' : 'deactivate'}`)
        .then((r) => CompanyUserDetailSchema.parse(r)),
    onSuccess: invalidate,
  });
}

async function saveGroup(
  api: ApiClient,
  input: { groupId?: string; group: GroupRequest; memberIds: string[] | undefined },
) {
  const saved = input.groupId
    ? await api.request<unknown>(`/groups/${id(input.groupId)}`, { method: 'PUT', body: input.group })
    : await api.post<unknown>('/groups', input.group);
  const group = GroupDetailSchema.parse(saved);
  if (!input.memberIds) return group;
  const withMembers = await api.request<unknown>(`/groups/${id(group.id)}/members`, {
    method: 'PUT',
    body: { userIds: input.memberIds },
  });
  return GroupDetailSchema.parse(withMembers);
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
    mutationFn: (groupId: string) => api.request<unknown>(`/groups/${id(groupId)}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useSaveRestrictionMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ restrictionId, body }: { restrictionId?: string; body: RestrictionRequest }) =>
      (restrictionId
        ? api.request<unknown>(`/restrictions/${id(restrictionId)}`, { method: 'PUT', body })
        : api.post<unknown>('/restrictions', body)
      ).then((r) => RestrictionSchema.parse(r)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userManagementKeys.restrictions() }),
  });
}

export function useDeleteRestrictionMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (restrictionId: string) =>
      api.request<unknown>(`/restrictions/${id(restrictionId)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userManagementKeys.restrictions() }),
  });
}
