import {
  CheckActionTokenResponseSchema,
  LoginResponseSchema,
  RefreshResponseSchema,
  RegisterResponseSchema,
  SuccessResponseSchema,
  type LoginRequest,
  type LoginResponse,
  type RegisterRequest,
  type TokenSet,
} from '@portal/contracts';
import { z } from 'zod';
import type { ApiClient } from '../../../lib/api-client.ts';

/** Request functions of the account endpoints. Public ones pass `auth: false`: no bearer token, no refresh. */

/** The login answers 401/403/429 with the description's body; the form words those itself, without a toast. */
const LOGIN_QUIET = [401, 403] as const;

export function postLogin(api: ApiClient, body: LoginRequest): Promise<LoginResponse> {
  return api
    .post<unknown>('/users/login', body, { auth: false, quietStatuses: LOGIN_QUIET })
    .then((r) => LoginResponseSchema.parse(r));
}

export function postLegacyLogin(api: ApiClient, body: LoginRequest): Promise<LoginResponse> {
  return api
    .post<unknown>('/legacy/login', body, { auth: false, quietStatuses: LOGIN_QUIET })
    .then((r) => LoginResponseSchema.parse(r));
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
  return api.post<unknown>('/users/register', body, { auth: false }).then((r) => RegisterResponseSchema.parse(r));
}

export function postSendVerifyEmail(api: ApiClient, id: string) {
  return api
    .post<unknown>('/users/sendVerifyEmail', { id }, { auth: false })
    .then((r) => SuccessResponseSchema.parse(r));
}

export function postSendResetPasswordEmail(api: ApiClient, email: string) {
  return api
    .post<unknown>('/users/sendResetPasswordEmail', { email }, { auth: false })
    .then((r) => SuccessResponseSchema.parse(r));
}

export function postCheckActionToken(api: ApiClient, token: string) {
  return api
    .post<unknown>('/users/checkActionToken', { token }, { auth: false })
    .then((r) => CheckActionTokenResponseSchema.parse(r));
}

export function postSetPassword(api: ApiClient, body: { token: string; password: string }) {
  return api.post<unknown>('/users/setPassword', body, { auth: false }).then((r) => SuccessResponseSchema.parse(r));
}

const PublicConfigSchema = z.object({ legacyEdiUrl: z.string().nullable().optional(), version: z.string().optional() });
export type PublicConfig = z.infer<typeof PublicConfigSchema>;

export function getPublicConfig(api: ApiClient): Promise<PublicConfig> {
  return api.get<unknown>('/public-config', { auth: false }).then((r) => PublicConfigSchema.parse(r));
}
