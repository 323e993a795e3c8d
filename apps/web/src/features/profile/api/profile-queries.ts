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
    queryFn: () => api.get('/users/getUserData', UserDataSchema),
  });
}

/** File encoding, VAT algorithm and file naming format (additional-settings panel). */
export function userSettingsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: profileKeys.settings(),
    queryFn: () => api.get('/users/settings', UserSettingsSchema),
  });
}

/** The company profile of the caller's company (company-settings panel). */
export function companyProfileQuery(api: ApiClient) {
  return queryOptions({
    queryKey: profileKeys.company(),
    queryFn: () => api.get('/company/profile', CompanyProfileSchema),
  });
}
