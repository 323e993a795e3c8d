import { describe, expect, it, vi } from 'vitest';
import { makeAccessToken, makeTokenSet } from '../../test/tokens.ts';
import { SESSION_STORAGE_KEY, createSession, type StoredSession } from './session.ts';

function memoryStorage(initial?: StoredSession) {
  const map = new Map<string, string>();
  if (initial) map.set(SESSION_STORAGE_KEY, JSON.stringify(initial));
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('session', () => {
  it('renews an expired access token at start while the refresh token is valid', async () => {
    const storage = memoryStorage({
      accessToken: makeAccessToken({ exp: nowSeconds() - 10 }),
      refreshToken: 'r-old',
      refreshExpiresAt: nowSeconds() + 600,
    });
    const requestRefresh = vi.fn(async () => makeTokenSet({}, 'r-new'));
    const session = createSession({ storage, now: Date.now, requestRefresh, requestLogout: async () => {} });
    await expect(session.ensureFresh()).resolves.toBe(true);
    expect(requestRefresh).toHaveBeenCalledWith('r-old');
    expect(JSON.parse(storage.map.get(SESSION_STORAGE_KEY) ?? '{}')).toMatchObject({ refreshToken: 'r-new' });
  });

  it('logs out at start when both tokens have expired', async () => {
    const storage = memoryStorage({
      accessToken: makeAccessToken({ exp: nowSeconds() - 10 }),
      refreshToken: 'r-old',
      refreshExpiresAt: nowSeconds() - 1,
    });
    const requestRefresh = vi.fn(async () => makeTokenSet());
    const session = createSession({ storage, now: Date.now, requestRefresh, requestLogout: async () => {} });
    await expect(session.ensureFresh()).resolves.toBe(false);
    expect(requestRefresh).not.toHaveBeenCalled();
    expect(storage.map.has(SESSION_STORAGE_KEY)).toBe(false);
  });

  it('checks the login on activity: expired and not renewable means logout', () => {
    let now = Date.now();
    const storage = memoryStorage();
    const session = createSession({
      storage,
      now: () => now,
      requestRefresh: async () => undefined,
      requestLogout: async () => {},
    });
    const tokens = makeTokenSet({ exp: Math.floor(now / 1000) + 300 });
    session.signIn({ ...tokens, refresh_expires_in: 200 });
    const reasons: string[] = [];
    session.onLogout((r) => reasons.push(r));
    session.checkValidity();
    expect(session.getState().status).toBe('authenticated');
    now += 301_000;
    session.checkValidity();
    expect(session.getState().status).toBe('anonymous');
    expect(reasons).toEqual(['expired']);
  });

  it('ends a limited session after hoursDelayLogout seconds and remembers why', () => {
    let now = Date.now();
    const session = createSession({
      storage: memoryStorage(),
      now: () => now,
      requestRefresh: async () => undefined,
      requestLogout: async () => {},
    });
    const vindication = {
      hoursDelayLogout: 3660,
      vindicationInfo: {
        loginStatus: 'OK_LIMITED' as const,
        restrictionWaitTime: 30,
        restrictionWorkingTime: 60,
        restrictionWorkingStart: null,
        restrictionMessage: 'Pay the invoice',
      },
    };
    session.signIn(makeTokenSet({ exp: Math.floor(now / 1000) + 7200 }), vindication);
    const state = session.getState();
    expect(state.status === 'authenticated' && state.stored.limitedUntil).toBe(Math.floor(now / 1000) + 3660);
    now += 3661_000;
    session.checkValidity();
    expect(session.getState().status).toBe('anonymous');
    expect(session.takeLastLogout()).toEqual({ reason: 'limited', vindication });
  });

  it('reads the claims of the access token', () => {
    const session = createSession({
      storage: memoryStorage(),
      now: Date.now,
      requestRefresh: async () => undefined,
      requestLogout: async () => {},
    });
    session.signIn(makeTokenSet({ roles: ['admin'], groups: ['g1'], impersonator: { username: 'boss@example.com' } }));
    expect(session.getClaims()).toMatchObject({
      roles: ['admin'],
      groups: ['g1'],
      impersonator: { username: 'boss@example.com' },
    });
  });
});
