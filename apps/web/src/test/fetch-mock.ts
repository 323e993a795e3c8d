import { vi } from 'vitest';

export type MockReply = { status?: number; body?: unknown; headers?: Record<string, string> };
export type MockHandler = (request: {
  body: unknown;
  headers: Record<string, string>;
  url: string;
}) => MockReply | Promise<MockReply>;

/**
 * A fetch that answers by "METHOD /path" (query string ignored); an unknown route fails the test loudly.
 * Every call is recorded for assertions.
 */
export function createFetchMock(routes: Record<string, MockHandler | MockReply>) {
  const calls: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0] ?? url;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body, headers });
    const route = routes[`${method} ${path}`];
    if (!route) throw new Error(`Unexpected request ${method} ${path}`);
    const reply = typeof route === 'function' ? await route({ body, headers, url }) : route;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  });
  return { fetch: fetchMock as unknown as typeof fetch, calls, routes };
}
