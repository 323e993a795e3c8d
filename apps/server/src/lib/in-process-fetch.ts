import type { FastifyInstance } from 'fastify';

/**
 * A `fetch` that answers requests under `base` (an address of this very server, such as its KSeF simulator) through
 * `app.inject`, in process, and sends every other request out with the global `fetch`. The portal's public address
 * may not be reachable from inside its own container, and tests have no listening socket; the simulator is still
 * spoken to over its HTTP protocol, byte for byte.
 */
export function inProcessFetch(app: FastifyInstance, base: string): typeof fetch {
  const prefix = base.replace(/\/+$/, '');
  const path = new URL(prefix).pathname;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(`${prefix}/`)) return fetch(request);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: request.method as 'GET',
      url: `${path}${url.pathname.slice(path.length)}${url.search}`,
      headers,
      ...(body ? { payload: body } : {}),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(key, String(v));
    }
    const nullBody = res.statusCode === 204 || res.statusCode === 304;
    return new Response(nullBody ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      headers: responseHeaders,
    });
  }) as typeof fetch;
}
