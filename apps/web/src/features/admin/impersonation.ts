import type { TokenSet } from '@portal/contracts';
import { IMPERSONATOR_SESSION_STORAGE_KEY, type Session } from '../../app/session/session.ts';

/**
 * Starts working as another user: the admin's current stored session goes to `portal.impersonator-session` (read
 * back by 'Logout to Admin panel'), then the session switches to the user's tokens. False, with nothing changed,
 * when there is no admin session or the new tokens cannot be read.
 */
export function startImpersonation(
  session: Session,
  storage: Pick<Storage, 'setItem' | 'removeItem'>,
  tokens: TokenSet,
): boolean {
  const state = session.getState();
  if (state.status !== 'authenticated') return false;
  storage.setItem(IMPERSONATOR_SESSION_STORAGE_KEY, JSON.stringify(state.stored));
  if (session.replaceTokens(tokens)) return true;
  storage.removeItem(IMPERSONATOR_SESSION_STORAGE_KEY);
  return false;
}
