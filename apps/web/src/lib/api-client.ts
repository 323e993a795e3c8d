import type { z } from 'zod';
import { ApiError, NETWORK_ERROR_STATUS, toApiError } from './api-error.ts';

/** Statuses that show an `Error <code>` toast (description, section 8). */
export const TOAST_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 401, 403]);

/** Options of one call, whatever its method. */
export type CallOptions = {
  query?: Record<string, string | number | undefined>;
  /** Send the bearer token and refresh on 401 (default true). Public calls such as login pass false. */
  auth?: boolean;
  /** Statuses the caller handles itself, without a toast (e.g. 401 of a wrong password on the login form). */
  quietStatuses?: readonly number[];
  signal?: AbortSignal;
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Call = { method: Method; body?: unknown; options: CallOptions };

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

/**
 * Every call names the zod schema of its answer (from the contracts), and resolves to the parsed, typed value; a
 * call answered with no body (204) takes none. So no caller parses `unknown` by hand, and an answer the server was
 * not meant to give fails here, loudly, instead of somewhere in a component.
 */
export type ApiClient = {
  get: <S extends z.ZodType>(path: string, schema: S, options?: CallOptions) => Promise<z.output<S>>;
  post: <S extends z.ZodType>(path: string, schema: S, body?: unknown, options?: CallOptions) => Promise<z.output<S>>;
  put: <S extends z.ZodType>(path: string, schema: S, body: unknown, options?: CallOptions) => Promise<z.output<S>>;
  patch: <S extends z.ZodType>(path: string, schema: S, body: unknown, options?: CallOptions) => Promise<z.output<S>>;
  /** Answered with 204 and no body: nothing to parse. */
  delete: (path: string, options?: CallOptions) => Promise<void>;
};

/** Which call an answer belongs to, for the message of a mismatch. */
export type ResponseOf = { method: string; url: string; status: number };

/**
 * A successful answer that does not match the schema of its call: a server bug (or a client older than the server),
 * so it is shown as the server's internal error, `Error 500` with the generic text, and the issues go to the console
 * for whoever looks into it. Like the server's own check of its responses (`isResponseSerializationError`).
 */
export class ResponseSchemaError extends ApiError {
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(init: ResponseOf & { issues: z.core.$ZodIssue[]; body: unknown }) {
    super({
      status: 500,
      code: 'server.internal',
      message: `${init.method} ${init.url} answered ${init.status} with a body that does not match its schema`,
      body: init.body,
    });
    this.name = 'ResponseSchemaError';
    this.issues = init.issues;
  }
}

/**
 * The body of a successful answer, parsed by the schema of its call; else a {@link ResponseSchemaError}, with the
 * issues on the console. Calls that cannot go through the client (uploads with progress, files) use it too.
 */
export function parseResponse<S extends z.ZodType>(schema: S, body: unknown, of: ResponseOf): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const error = new ResponseSchemaError({ ...of, issues: parsed.error.issues, body });
  console.error(error.message, parsed.error.issues);
  throw error;
}

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

  function buildUrl(path: string, query: CallOptions['query']): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  async function send(url: string, call: Call, token: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers['Authorization'] = `Bearer ${token}`;
    try {
      return await deps.fetch(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: call.options.signal,
        credentials: 'same-origin',
      });
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError({ status: NETWORK_ERROR_STATUS, code: 'server.unavailable', message: String(cause) });
    }
  }

  /** Sends the call (refreshing once on 401) and returns the body of a successful answer, not yet parsed. */
  async function fetchBody(path: string, call: Call): Promise<{ url: string; status: number; body: unknown }> {
    const { options } = call;
    const auth = options.auth ?? true;
    const url = buildUrl(path, options.query);
    let token = auth ? deps.session.getAccessToken() : undefined;
    let response: Response;
    try {
      response = await send(url, call, token);
      if (response.status === 401 && auth && token) {
        // Another request may have renewed the token meanwhile; only refresh when ours is still the current one.
        const renewed = deps.session.getAccessToken() !== token || (await deps.session.refresh());
        token = deps.session.getAccessToken();
        if (renewed && token) response = await send(url, call, token);
      }
    } catch (error) {
      // No answer at all (status 0): a toast, unless the caller words that failure itself.
      if (error instanceof ApiError && !options.quietStatuses?.includes(error.status)) deps.onErrorToast(error);
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
    return { url, status: response.status, body };
  }

  async function request<S extends z.ZodType>(path: string, schema: S, call: Call): Promise<z.output<S>> {
    const { url, status, body } = await fetchBody(path, call);
    try {
      return parseResponse(schema, body, { method: call.method, url, status });
    } catch (error) {
      // Always shown: no caller expects a broken answer, whatever statuses it handles itself.
      deps.onErrorToast(error as ResponseSchemaError);
      throw error;
    }
  }

  return {
    get: (path, schema, options = {}) => request(path, schema, { method: 'GET', options }),
    post: (path, schema, body, options = {}) => request(path, schema, { method: 'POST', body, options }),
    put: (path, schema, body, options = {}) => request(path, schema, { method: 'PUT', body, options }),
    patch: (path, schema, body, options = {}) => request(path, schema, { method: 'PATCH', body, options }),
    delete: async (path, options = {}) => {
      await fetchBody(path, { method: 'DELETE', options });
    },
  };
}
