import type { SignedInUser } from '../../components/signed-in-placeholder.tsx';
import { useSessionState } from './session-context.tsx';

/** Name and e-mail of the signed-in user, from the access token's claims. */
export function useSignedInUser(): SignedInUser | undefined {
  const state = useSessionState();
  if (state.status !== 'authenticated') return undefined;
  const { given_name, family_name, preferred_username, email } = state.claims;
  const name = [given_name, family_name].filter(Boolean).join(' ') || preferred_username || email;
  return { name, email };
}
