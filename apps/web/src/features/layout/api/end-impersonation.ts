import { SuccessResponseSchema } from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import { IMPERSONATOR_SESSION_STORAGE_KEY, isStoredSession, type Session } from '../../../app/session/session.ts';

export type EndImpersonationDeps = {
  api: ApiClient;
  session: Session;
  storage: Pick<Storage, 'getItem' | 'removeItem'>;
};

/** The admin's own session kept by the admin area when the impersonation started, if it is readable. */
function takeImpersonatorSession(storage: EndImpersonationDeps['storage']) {
  const raw = storage.getItem(IMPERSONATOR_SESSION_STORAGE_KEY);
  storage.removeItem(IMPERSONATOR_SESSION_STORAGE_KEY);
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    return isStoredSession(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * 'Logout to Admin panel' (description, section 4): ends the impersonated session on the server, then puts the
 * admin's stored tokens back. Resolves 'admin' when the admin is signed in again (go to /admin), 'loggedOut' when
 * nothing usable was stored and the user is simply logged out.
 */
export async function endImpersonation({
  api,
  session,
  storage,
}: EndImpersonationDeps): Promise<'admin' | 'loggedOut'> {
  const state = session.getState();
  if (state.status === 'authenticated') {
    // The server revokes the impersonated refresh token; a failure must not keep the admin in the user's session.
    await api
      .post('/users/endImpersonation', SuccessResponseSchema, { refreshToken: state.stored.refreshToken })
      .catch(() => undefined);
  }
  const admin = takeImpersonatorSession(storage);
  if (admin && session.restoreFrom(admin)) return 'admin';
  session.logout('user');
  return 'loggedOut';
}
