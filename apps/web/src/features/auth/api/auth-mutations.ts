import { useMutation } from '@tanstack/react-query';
import type { Language, LoginRequest, RegisterRequest } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import type { ApiClient } from '../../../lib/api-client.ts';
import { getUserData, postSetLanguage } from '../../users/index.ts';
import { postRegister, postSendResetPasswordEmail, postSendVerifyEmail, postSetPassword } from './auth-api.ts';
import { runLogin } from './login-flow.ts';

export function useLoginMutation() {
  const api = useApi();
  return useMutation({ mutationFn: (credentials: LoginRequest) => runLogin(api, credentials) });
}

export function useRegisterMutation() {
  const api = useApi();
  return useMutation({ mutationFn: (body: RegisterRequest) => postRegister(api, body) });
}

export function useSendVerifyEmailMutation() {
  const api = useApi();
  return useMutation({ mutationFn: (id: string) => postSendVerifyEmail(api, id) });
}

export function useSendResetPasswordEmailMutation() {
  const api = useApi();
  return useMutation({ mutationFn: (email: string) => postSendResetPasswordEmail(api, email) });
}

export function useSetPasswordMutation() {
  const api = useApi();
  return useMutation({ mutationFn: (body: { token: string; password: string }) => postSetPassword(api, body) });
}

/**
 * Language refresh after login (description, section 4): the language chosen on this device wins over the one stored
 * with the user, so the user's e-mails follow what they picked. Failures are ignored; the next login tries again.
 */
export async function syncUserLanguage(api: ApiClient, chosen: Language): Promise<void> {
  try {
    const user = await getUserData(api);
    if (user.language !== chosen) await postSetLanguage(api, chosen);
  } catch {
    // Not worth bothering the user: the page is already in the chosen language.
  }
}
