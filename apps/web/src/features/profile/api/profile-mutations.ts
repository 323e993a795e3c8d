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
    mutationFn: (body: UpdateUserDataRequest) => api.post('/users/updateUserData', SuccessResponseSchema, body),
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
    mutationFn: (body: ChangePasswordRequest) => api.post('/users/changePassword', ChangePasswordResponseSchema, body),
  });
}

export function useSaveUserSettingsMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserSettings) => api.put('/users/settings', UserSettingsSchema, body),
    onSuccess: (settings) => queryClient.setQueryData(profileKeys.settings(), settings),
  });
}

export function useSaveCompanyProfileMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyProfileUpdate) => api.put('/company/profile', CompanyProfileSchema, body),
    onSuccess: (profile) => queryClient.setQueryData(profileKeys.company(), profile),
  });
}

export function useSetLanguageMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: Language) => api.post('/users/setLanguage', SuccessResponseSchema, { language }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.userData() }),
  });
}
