import { SuccessResponseSchema, UserDataSchema, type Language } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

export function getUserData(api: ApiClient) {
  return api.get('/users/getUserData', UserDataSchema);
}

export function postSetLanguage(api: ApiClient, language: Language) {
  return api.post('/users/setLanguage', SuccessResponseSchema, { language });
}
