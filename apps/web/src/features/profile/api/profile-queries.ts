import { queryOptions } from '@tanstack/react-query';
import { CompanyProfileSchema, UserDataSchema, UserSettingsSchema } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export const profileKeys = {
  all: ['profile'] as const,
  userData: () => [...profileKeys.all, 'user-data'] as const,
  settings: () => [...profileKeys.all, 'settings'] as const,
  company: () => [...profileKeys.all, 'company'] as const,
};

/** The signed-in user's names, telephone and language. */
export function profileUserDataQuery(api: ApiClient) {
  return queryOptions({
    queryKey: profileKeys.userData(),
    queryFn: () => api.get<unknown>('/users/getUserData').then((r) => UserDataSchema.parse(r)),
  });
}

/** File encoding, VAT algorithm and file naming format (additional-settings panel). */
export function userSettingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: profileKeys.settings(),
    queryFn: () => api.get<unknown>('/users/settings').then((r) => UserSettingsSchema.parse(r)),
  });
}

/** The company profile of the caller's company (company-settings panel). */
export function companyProfileQuery(api: ApiClient) {
  return queryOptions({
    queryKey: profileKeys.company(),
    queryFn: () => api.get<unknown>('/company/profile').then((r) => CompanyProfileSchema.parse(r)),
  });
}
