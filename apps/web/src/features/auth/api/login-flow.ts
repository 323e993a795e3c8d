import {
  VindicationInfoResponseSchema,
  type LoginRequest,
  type TokenSet,
  type VindicationInfoResponse,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { postLegacyLogin, postLogin } from './auth-api.ts';

/** Every way a login attempt can end, as the login page shows them (description, sections 4 and 8). */
export type LoginOutcome =
  | { kind: 'success'; tokens: TokenSet; vindication?: VindicationInfoResponse }
  | { kind: 'legacy'; registrationToken: string }
  | { kind: 'invalid' }
  | { kind: 'blocked'; code: string; vindication?: VindicationInfoResponse }
  | { kind: 'notVerified'; userId?: string }
  | { kind: 'tooManyAttempts'; retryAfterSeconds: number }
  /** Too many failures from everywhere: the owner was e-mailed an unlock link (decision 0009). */
  | { kind: 'accountLocked'; retryAfterSeconds: number }
  | { kind: 'error'; code: string; status: number };

function findVindication(body: unknown): VindicationInfoResponse | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const parsed = VindicationInfoResponseSchema.safeParse((body as Record<string, unknown>)['vindicationInfoResponse']);
  return parsed.success ? parsed.data : undefined;
}

function fromError(error: unknown): LoginOutcome {
  if (!(error instanceof ApiError)) throw error;
  switch (error.code) {
    case 'auth.invalid_credentials':
      return { kind: 'invalid' };
    case 'auth.account_blocked':
    case 'auth.system_disabled':
      return { kind: 'blocked', code: error.code, vindication: findVindication(error.body) };
    case 'auth.email_not_verified': {
      const id = error.data['id'];
      return { kind: 'notVerified', userId: typeof id === 'string' ? id : undefined };
    }
    case 'auth.too_many_attempts':
    case 'auth.account_locked': {
      const retryAfter = Number(error.data['retryAfter']);
      return {
        kind: error.code === 'auth.account_locked' ? 'accountLocked' : 'tooManyAttempts',
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 60,
      };
    }
    default:
      return { kind: 'error', code: error.code, status: error.status };
  }
}

/**
 * The login flow: the new login first; when it fails with wrong credentials (not blocked), the old EDI system's login
 * with the same payload, whose registration token starts the move to a new e-mail-based account.
 */
export async function runLogin(api: ApiClient, credentials: LoginRequest): Promise<LoginOutcome> {
  let first: LoginOutcome;
  try {
    const response = await postLogin(api, credentials);
    if (response.success && response.keycloakResponse) {
      return {
        kind: 'success',
        tokens: response.keycloakResponse.token,
        vindication: response.vindicationInfoResponse,
      };
    }
    if (response.registrationToken) return { kind: 'legacy', registrationToken: response.registrationToken };
    first = response.error ? fromError(new ApiError({ status: 200, code: response.error.code })) : { kind: 'invalid' };
  } catch (error) {
    first = fromError(error);
  }
  if (first.kind !== 'invalid') return first;

  try {
    const legacy = await postLegacyLogin(api, credentials);
    return legacy.registrationToken
      ? { kind: 'legacy', registrationToken: legacy.registrationToken }
      : { kind: 'invalid' };
  } catch (error) {
    const outcome = fromError(error);
    // A failed legacy login says nothing more than the first answer, except for an account already moved.
    const saysMore =
      outcome.kind !== 'error' || outcome.status >= 500 || outcome.code === 'auth.legacy_already_migrated';
    return saysMore ? outcome : first;
  }
}
