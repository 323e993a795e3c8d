import type { AccessTokenClaims, TokenSet, VindicationInfoResponse } from '@portal/contracts';
import { decodeAccessToken } from './jwt.ts';

/** What is kept in local storage between visits. Times are epoch seconds, as the token's `exp`. */
export type StoredSession = {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: number;
  /** Set for a company with loginStatus OK_LIMITED: the moment the session ends (description, section 4). */
  limitedUntil?: number;
  vindication?: VindicationInfoResponse;
};

export type SessionState =
  { status: 'anonymous' } | { status: 'authenticated'; stored: StoredSession; claims: AccessTokenClaims };

/** Why a session ended; decides what the login page says afterwards. */
export type LogoutReason = 'user' | 'expired' | 'limited';

export type SessionDeps = {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Current time in milliseconds. */
  now: () => number;
  /** Exchanges a refresh token for a new token set; resolves `undefined` when the server refuses. */
  requestRefresh: (refreshToken: string) => Promise<TokenSet | undefined>;
  /** Revokes the refresh token on the server; failures are ignored. */
  requestLogout: (refreshToken: string) => Promise<void>;
};

export type Session = ReturnType<typeof createSession>;

export const SESSION_STORAGE_KEY = 'portal.session';

/**
 * Impersonation (description, sections 1 and 4). When an admin starts working as a user, the admin area writes the
 * admin's CURRENT `StoredSession` (JSON, exactly the shape kept under `portal.session`) to this key and then calls
 * `replaceTokens` with the impersonated user's tokens. 'Logout to Admin panel' in the main layout reads this key,
 * puts the admin's session back, removes the key and goes to /admin.
 */
export const IMPERSONATOR_SESSION_STORAGE_KEY = 'portal.impersonator-session';

export function isStoredSession(value: unknown): value is StoredSession {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['accessToken'] === 'string' &&
    typeof v['refreshToken'] === 'string' &&
    typeof v['refreshExpiresAt'] === 'number'
  );
}

export function createSession(deps: SessionDeps) {
  const listeners = new Set<() => void>();
  const logoutListeners = new Set<(reason: LogoutReason, previous: StoredSession) => void>();
  let state: SessionState = load();
  let refreshing: Promise<boolean> | undefined;
  let lastLogout: { reason: LogoutReason; vindication?: VindicationInfoResponse } | undefined;

  function nowSeconds(): number {
    return Math.floor(deps.now() / 1000);
  }

  function load(): SessionState {
    try {
      const raw = deps.storage.getItem(SESSION_STORAGE_KEY);
      const parsed: unknown = raw ? JSON.parse(raw) : undefined;
      if (!isStoredSession(parsed)) return { status: 'anonymous' };
      const claims = decodeAccessToken(parsed.accessToken);
      return claims ? { status: 'authenticated', stored: parsed, claims } : { status: 'anonymous' };
    } catch {
      return { status: 'anonymous' };
    }
  }

  function setState(next: SessionState): void {
    state = next;
    if (next.status === 'authenticated') deps.storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(next.stored));
    else deps.storage.removeItem(SESSION_STORAGE_KEY);
    for (const listener of listeners) listener();
  }

  function store(tokens: TokenSet, extra: Pick<StoredSession, 'limitedUntil' | 'vindication'>): boolean {
    const claims = decodeAccessToken(tokens.access_token);
    if (!claims) return false;
    setState({
      status: 'authenticated',
      claims,
      stored: {
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        refreshExpiresAt: nowSeconds() + tokens.refresh_expires_in,
        ...extra,
      },
    });
    return true;
  }

  function isAccessTokenValid(): boolean {
    return state.status === 'authenticated' && state.claims.exp > nowSeconds();
  }

  function canRefresh(): boolean {
    return state.status === 'authenticated' && state.stored.refreshExpiresAt > nowSeconds();
  }

  function logout(reason: LogoutReason = 'user'): void {
    if (state.status !== 'authenticated') return;
    const previous = state.stored;
    lastLogout = { reason, vindication: previous.vindication };
    setState({ status: 'anonymous' });
    void deps.requestLogout(previous.refreshToken).catch(() => undefined);
    for (const listener of logoutListeners) listener(reason, previous);
  }

  /** Renews the tokens. Concurrent callers share one request, so a burst of 401s causes a single refresh. */
  function refresh(): Promise<boolean> {
    if (refreshing) return refreshing;
    if (state.status !== 'authenticated') return Promise.resolve(false);
    const current = state.stored;
    refreshing = (async () => {
      let tokens: TokenSet | undefined;
      try {
        tokens = await deps.requestRefresh(current.refreshToken);
      } catch {
        tokens = undefined;
      }
      // A logout while the request was under way wins over its answer.
      if (state.status !== 'authenticated' || state.stored.refreshToken !== current.refreshToken) {
        return state.status === 'authenticated';
      }
      if (tokens && store(tokens, { limitedUntil: current.limitedUntil, vindication: current.vindication }))
        return true;
      logout('expired');
      return false;
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  /**
   * Makes sure a usable access token exists: renews an expired one while the refresh token is valid, logs out
   * otherwise. Resolves whether the user is signed in afterwards.
   */
  async function ensureFresh(): Promise<boolean> {
    if (state.status !== 'authenticated') return false;
    if (isAccessTokenValid()) return true;
    if (canRefresh()) return refresh();
    logout('expired');
    return false;
  }

  return {
    getState: (): SessionState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onLogout(listener: (reason: LogoutReason, previous: StoredSession) => void): () => void {
      logoutListeners.add(listener);
      return () => logoutListeners.delete(listener);
    },
    /** Stores the tokens of a successful login; false when the access token cannot be read. */
    signIn(tokens: TokenSet, vindication?: VindicationInfoResponse): boolean {
      const limited =
        vindication?.vindicationInfo.loginStatus === 'OK_LIMITED' && vindication.hoursDelayLogout > 0
          ? nowSeconds() + vindication.hoursDelayLogout
          : undefined;
      return store(tokens, { limitedUntil: limited, vindication });
    },
    /**
     * Switches to another token set without a logout (impersonation): no logout listeners run, and the limits of the
     * previous login (limitedUntil, vindication) do not carry over. False when the access token cannot be read.
     */
    replaceTokens(tokens: TokenSet): boolean {
      return store(tokens, {});
    },
    getAccessToken: (): string | undefined => (state.status === 'authenticated' ? state.stored.accessToken : undefined),
    getClaims: (): AccessTokenClaims | undefined => (state.status === 'authenticated' ? state.claims : undefined),
    isAuthenticated: (): boolean => state.status === 'authenticated' && (isAccessTokenValid() || canRefresh()),
    isAccessTokenValid,
    canRefresh,
    refresh,
    ensureFresh,
    /** Called on keyboard and mouse activity: an expired login that cannot be renewed ends here. */
    checkValidity(): void {
      if (state.status !== 'authenticated') return;
      const { limitedUntil } = state.stored;
      if (limitedUntil !== undefined && limitedUntil <= nowSeconds()) {
        logout('limited');
        return;
      }
      if (isAccessTokenValid()) return;
      void ensureFresh();
    },
    logout,
    /**
     * Replaces the signed-in tokens with stored ones (the admin's own session when an impersonation ends) without a
     * logout; false when the access token cannot be read.
     */
    restoreFrom(stored: StoredSession): boolean {
      const claims = decodeAccessToken(stored.accessToken);
      if (!claims) return false;
      setState({ status: 'authenticated', stored, claims });
      return true;
    },
    /** How the last session of this page ended, read once by the login page (the limited logout's blocked error). */
    takeLastLogout() {
      const value = lastLogout;
      lastLogout = undefined;
      return value;
    },
    nowSeconds,
  };
}
