import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { GroupsPageSchema, SuccessResponseSchema } from '@portal/contracts';
import { createSession } from '../app/session/session.ts';
import { createFetchMock } from '../test/fetch-mock.ts';
import { makeTokenSet } from '../test/tokens.ts';
import { createApiClient, ResponseSchemaError } from './api-client.ts';
import { ApiError, NETWORK_ERROR_STATUS } from './api-error.ts';

const Thing = z.object({ ok: z.boolean() });

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
  it('toasts a call that got no answer at all, unless the caller handles status 0 itself', async () => {
    const t = setup(() => makeTokenSet());
    const onErrorToast = vi.fn();
    const offline = createApiClient({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      session: t.session,
      onErrorToast,
    });
    await expect(offline.get('/things', Thing)).rejects.toMatchObject({ status: NETWORK_ERROR_STATUS });
    expect(onErrorToast).toHaveBeenCalledTimes(1);
    await expect(offline.get('/things', Thing, { quietStatuses: [NETWORK_ERROR_STATUS] })).rejects.toMatchObject({
      status: NETWORK_ERROR_STATUS,
    });
    expect(onErrorToast).toHaveBeenCalledTimes(1);
  });

  it('answers concurrent 401s with one shared refresh, then retries each request with the new token', async () => {
    const t = setup(() => makeTokenSet());
    const requests = [t.client.get('/things', Thing), t.client.get('/things', Thing), t.client.get('/things', Thing)];
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
    const requests = [t.client.get('/things', Thing), t.client.get('/things', Thing)];
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
    const error = await t.client.get('/broken', Thing).catch((e: unknown) => e);
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
    await expect(
      t.client.post('/users/login', SuccessResponseSchema, {}, { auth: false, quietStatuses: [401] }),
    ).rejects.toMatchObject({
      code: 'auth.invalid_credentials',
    });
    expect(t.onErrorToast).not.toHaveBeenCalled();
    expect(t.requestRefresh).not.toHaveBeenCalled();
  });

  it('resolves to the answer parsed by the schema of the call (keys outside the contract dropped)', async () => {
    const t = setup(() => makeTokenSet());
    t.api.routes['GET /api/groups'] = {
      body: { items: [], nextCursor: null, debug: 'not in the contract' },
    };
    const page = await t.client.get('/groups', GroupsPageSchema, { query: { limit: 25, search: undefined } });
    expect(page).toEqual({ items: [], nextCursor: null });
    expect(t.api.calls[0]?.path).toBe('/api/groups');
    expect(t.onErrorToast).not.toHaveBeenCalled();
  });

  it('treats an answer that does not match its schema as a server error: Error 500 toast, issues on the console', async () => {
    const t = setup(() => makeTokenSet());
    t.api.routes['PUT /api/groups/g1/members'] = { body: { id: 'g1', name: 42 } };
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = await t.client
      .put(
        '/groups/g1/members',
        z.object({ id: z.string(), name: z.string() }),
        { userIds: [] },
        { quietStatuses: [500] },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseSchemaError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: 'server.internal', body: { id: 'g1', name: 42 } });
    expect((error as ResponseSchemaError).issues.map((i) => i.path)).toEqual([['name']]);
    expect((error as Error).message).toBe(
      'PUT /api/groups/g1/members answered 200 with a body that does not match its schema',
    );
    // Shown even to a caller that handles 500 itself: no caller expects a broken answer.
    expect(t.onErrorToast).toHaveBeenCalledWith(error);
    expect(consoleError).toHaveBeenCalledWith((error as Error).message, (error as ResponseSchemaError).issues);
  });

  it('refuses an empty answer where the call expects a body', async () => {
    const t = setup(() => makeTokenSet());
    t.api.routes['POST /api/users/setLanguage'] = { status: 204 };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(t.client.post('/users/setLanguage', SuccessResponseSchema, { language: 'pl' })).rejects.toBeInstanceOf(
      ResponseSchemaError,
    );
  });

  it('takes no schema for a call answered with 204', async () => {
    const t = setup(() => makeTokenSet());
    t.api.routes['DELETE /api/groups/g1'] = { status: 204 };
    await expect(t.client.delete('/groups/g1')).resolves.toBeUndefined();
    expect(t.api.calls[0]).toMatchObject({ method: 'DELETE', path: '/api/groups/g1' });
    expect(t.onErrorToast).not.toHaveBeenCalled();
  });
});
