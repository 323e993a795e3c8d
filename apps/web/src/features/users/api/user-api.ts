import { PermissionsResponseSchema, SuccessResponseSchema, UserDataSchema, type Language } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export function getUserData(api: ApiClient) {
  return api.get<unknown>('/users/getUserData').then((r) => UserDataSchema.parse(r));
}

export function getPermissions(api: ApiClient) {
  return api.get<unknown>('/users/permissions').then((r) => PermissionsResponseSchema.parse(r));
}

export function postSetLanguage(api: ApiClient, language: Language) {
  return api.post<unknown>('/users/setLanguage', { language }).then((r) => SuccessResponseSchema.parse(r));
}
