import { ApiError, NETWORK_ERROR_STATUS, toApiError } from './api-error.ts';

/** Statuses that show an `Error <code>` toast (description, section 8). */
export const TOAST_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 401, 403]);

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Send the bearer token and refresh on 401 (default true). Public calls such as login pass false. */
  auth?: boolean;
  /** Statuses the caller handles itself, without a toast (e.g. 401 of a wrong password on the login form). */
  quietStatuses?: readonly number[];
  signal?: AbortSignal;
};

/** The part of the session the client needs; kept narrow so tests can pass a fake. */
export type ApiSession = {
  getAccessToken: () => string | undefined;
  refresh: () => Promise<boolean>;
};

export type ApiClientDeps = {
  fetch: typeof fetch;
  session: ApiSession;
  /** Shows the toast for a failed call; the client rethrows the error either way. */
  onErrorToast: (error: ApiError) => void;
  baseUrl?: string;
};

export type ApiClient = {
  request: <T>(path: string, options?: RequestOptions) => Promise<T>;
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => Promise<T>;
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => Promise<T>;
};

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const baseUrl = deps.baseUrl ?? '/api';

  function buildUrl(path: string, query: RequestOptions['query']): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  async function send(url: string, options: RequestOptions, token: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers['Authorization'] = `Bearer ${token}`;
    try {
      return await deps.fetch(url, {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
        credentials: 'same-origin',
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError({ status: NETWORK_ERROR_STATUS, code: 'server.unavailable', message: String(cause) });
    }
  }

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const auth = options.auth ?? true;
    const url = buildUrl(path, options.query);
    let token = auth ? deps.session.getAccessToken() : undefined;
    let response: Response;
    try {
      response = await send(url, options, token);
      if (response.status === 401 && auth && token) {
        // Another request may have renewed the token meanwhile; only refresh when ours is still the current one.
        const renewed = deps.session.getAccessToken() !== token || (await deps.session.refresh());
        token = deps.session.getAccessToken();
        if (renewed && token) response = await send(url, options, token);
      }
    } catch (error) {
      if (error instanceof ApiError) deps.onErrorToast(error);
      throw error;
    }
    const body = await readBody(response);
    if (!response.ok) {
      const error = toApiError(response.status, body);
      if (TOAST_STATUSES.has(response.status) && !options.quietStatuses?.includes(response.status)) {
        deps.onErrorToast(error);
      }
      throw error;
    }
    return body as T;
  }

  return {
    request,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body }),
  };
}
