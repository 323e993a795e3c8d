import { describe, expect, it, vi } from 'vitest';
import { createSession } from '../app/session/session.ts';
import { createFetchMock } from '../test/fetch-mock.ts';
import { makeTokenSet } from '../test/tokens.ts';
import { createApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';

function setup(refresh: () => ReturnType<typeof makeTokenSet> | undefined) {
  const oldTokens = makeTokenSet({}, 'refresh-old');
  const newTokens = makeTokenSet({ sub: 'user-1', email: 'renewed@demo.example.com' }, 'refresh-new');
  const storage = new Map<string, string>();
  let releaseRefresh: () => void = () => {};
  const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
  const requestRefresh = vi.fn(async () => {
    await refreshGate; // hold the refresh open so every request hits its 401 first
    return refresh() === undefined ? undefined : newTokens;
  });
  const requestLogout = vi.fn(async () => {});
  const session = createSession({
    storage: {
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => void storage.set(k, v),
      removeItem: (k) => void storage.delete(k),
    },
    now: () => Date.now(),
    requestRefresh,
    requestLogout,
  });
  session.signIn(oldTokens);
  const authorizedWith = (headers: Record<string, string>) => headers['Authorization'];
  const api = createFetchMock({
    'GET /api/things': ({ headers }) =>
      authorizedWith(headers) === `Bearer ${newTokens.access_token}`
        ? { body: { ok: true } }
        : { status: 401, body: { error: { code: 'auth.unauthenticated', message: 'expired' }, requestId: 'r1' } },
    'GET /api/broken': { status: 500, body: { error: { code: 'server.internal', message: 'boom' }, requestId: 'r2' } },
  });
  const onErrorToast = vi.fn();
  const client = createApiClient({ fetch: api.fetch, session, onErrorToast });
  return { client, session, api, requestRefresh, requestLogout, releaseRefresh, onErrorToast, newTokens };
}

describe('api client', () => {
  it('answers concurrent 401s with one shared refresh, then retries each request with the new token', async () => {
    const t = setup(() => makeTokenSet());
    const requests = [t.client.get('/things'), t.client.get('/things'), t.client.get('/things')];
    await vi.waitFor(() => expect(t.api.calls.length).toBe(3));
    t.releaseRefresh();
    await expect(Promise.all(requests)).resolves.toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(t.requestRefresh).toHaveBeenCalledTimes(1);
    expect(t.api.calls).toHaveLength(6);
    expect(t.session.getAccessToken()).toBe(t.newTokens.access_token);
    expect(t.onErrorToast).not.toHaveBeenCalled();
  });

  it('logs out when the refresh fails, and shows the Error 401 toast', async () => {
    const t = setup(() => undefined);
    const logouts: string[] = [];
    t.session.onLogout((reason) => logouts.push(reason));
    const requests = [t.client.get('/things'), t.client.get('/things')];
    t.releaseRefresh();
    const results = await Promise.allSettled(requests);
    expect(
      results.every((r) => r.status === 'rejected' && r.reason instanceof ApiError && r.reason.status === 401),
    ).toBe(true);
    expect(t.requestRefresh).toHaveBeenCalledTimes(1);
    expect(t.session.getState().status).toBe('anonymous');
    expect(logouts).toEqual(['expired']);
    expect(t.requestLogout).toHaveBeenCalledWith('refresh-old');
    expect(t.onErrorToast).toHaveBeenCalled();
  });

  it('shows a toast for a 500 and rethrows the parsed error', async () => {
    const t = setup(() => makeTokenSet());
    const error = await t.client.get('/broken').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: 'server.internal', requestId: 'r2' });
    expect(t.onErrorToast).toHaveBeenCalledTimes(1);
  });

  it('keeps a caller-handled status quiet', async () => {
    const t = setup(() => makeTokenSet());
    t.api.routes['POST /api/users/login'] = {
      status: 401,
      body: { success: false, error: { code: 'auth.invalid_credentials', message: 'x' } },
    };
    await expect(t.client.post('/users/login', {}, { auth: false, quietStatuses: [401] })).rejects.toMatchObject({
      code: 'auth.invalid_credentials',
    });
    expect(t.onErrorToast).not.toHaveBeenCalled();
    expect(t.requestRefresh).not.toHaveBeenCalled();
  });
});
