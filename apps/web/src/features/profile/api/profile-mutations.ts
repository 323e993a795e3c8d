import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ChangePasswordResponseSchema,
  CompanyProfileSchema,
  SuccessResponseSchema,
  UserSettingsSchema,
  type ChangePasswordRequest,
  type CompanyProfileUpdate,
  type Language,
  type UpdateUserDataRequest,
  type UserSettings,
} from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { useSession } from '../../../app/session/session-context.tsx';
import { profileKeys } from './profile-queries.ts';

export function useUpdateUserDataMutation() {
  const api = useApi();
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserDataRequest) =>
      api.post<unknown>('/users/updateUserData', body).then((r) => SuccessResponseSchema.parse(r)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: profileKeys.userData() });
      // The names shown by the layout come from the access token: a renewed token carries the new ones.
      void session.refresh();
    },
  });
}

export function useChangePasswordMutation() {
  const api = useApi();
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      api.post<unknown>('/users/changePassword', body).then((r) => ChangePasswordResponseSchema.parse(r)),
  });
}

export function useSaveUserSettingsMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserSettings) =>
      api.request<unknown>('/users/settings', { method: 'PUT', body }).then((r) => UserSettingsSchema.parse(r)),
    onSuccess: (settings) => queryClient.setQueryData(profileKeys.settings(), settings),
  });
}

export function useSaveCompanyProfileMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyProfileUpdate) =>
      api.request<unknown>('/company/profile', { method: 'PUT', body }).then((r) => CompanyProfileSchema.parse(r)),
    onSuccess: (profile) => queryClient.setQueryData(profileKeys.company(), profile),
  });
}

export function useSetLanguageMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: Language) =>
      api.post<unknown>('/users/setLanguage', { language }).then((r) => SuccessResponseSchema.parse(r)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.userData() }),
  });
}
