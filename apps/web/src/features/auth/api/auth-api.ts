import {
  CheckActionTokenResponseSchema,
  LoginResponseSchema,
  PublicConfigSchema,
  RefreshResponseSchema,
  RegisterResponseSchema,
  SetPasswordResponseSchema,
  SuccessResponseSchema,
  type LoginRequest,
  type LoginResponse,
  type PublicConfig,
  type RegisterRequest,
  type TokenSet,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';

/** Request functions of the account endpoints. Public ones pass `auth: false`: no bearer token, no refresh. */

/** The login answers 401/403/429 with the description's body; the form words those itself, without a toast. */
const LOGIN_QUIET = [401, 403] as const;

export function postLogin(api: ApiClient, body: LoginRequest): Promise<LoginResponse> {
  return api.post('/users/login', LoginResponseSchema, body, { auth: false, quietStatuses: LOGIN_QUIET });
}

export function postLegacyLogin(api: ApiClient, body: LoginRequest): Promise<LoginResponse> {
  return api.post('/legacy/login', LoginResponseSchema, body, { auth: false, quietStatuses: LOGIN_QUIET });
}

export async function postRefreshToken(fetchImpl: typeof fetch, refreshToken: string): Promise<TokenSet | undefined> {
  // Called by the session directly, not through the API client: a 401 here must not trigger another refresh.
  const response = await fetchImpl('/api/users/refreshToken', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  if (!response.ok) return undefined;
  const parsed = RefreshResponseSchema.safeParse(await response.json());
  return parsed.success && parsed.data.success ? parsed.data.token : undefined;
}

export async function postLogout(fetchImpl: typeof fetch, refreshToken: string): Promise<void> {
  await fetchImpl('/api/users/logout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
}

export function postRegister(api: ApiClient, body: RegisterRequest) {
  return api.post('/users/register', RegisterResponseSchema, body, { auth: false });
}

export function postSendVerifyEmail(api: ApiClient, id: string) {
  return api.post('/users/sendVerifyEmail', SuccessResponseSchema, { id }, { auth: false });
}

export function postSendResetPasswordEmail(api: ApiClient, email: string) {
  return api.post('/users/sendResetPasswordEmail', SuccessResponseSchema, { email }, { auth: false });
}

export function postCheckActionToken(api: ApiClient, token: string) {
  return api.post('/users/checkActionToken', CheckActionTokenResponseSchema, { token }, { auth: false });
}

export function postSetPassword(api: ApiClient, body: { token: string; password: string }) {
  return api.post('/users/setPassword', SetPasswordResponseSchema, body, { auth: false });
}

export function getPublicConfig(api: ApiClient): Promise<PublicConfig> {
  return api.get('/public-config', PublicConfigSchema, { auth: false });
}
