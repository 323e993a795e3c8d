import type { z } from 'zod';
import { TOAST_STATUSES, parseResponse, type ApiSession } from './api-client.ts';
import { ApiError, NETWORK_ERROR_STATUS, toApiError } from './api-error.ts';
import { showApiErrorToast } from './error-text.ts';

/**
 * Calls the JSON client cannot make: a raw or multipart request body, a file as the answer. Same rules as the client:
 * bearer token, one refresh on 401 (shared with other requests), `Error <code>` toasts for the listed statuses.
 */
export async function sendAuthorized(session: ApiSession, path: string, init: RequestInit = {}): Promise<Response> {
  const attempt = (token: string | undefined) =>
    fetch(`/api${path}`, {
      ...init,
      credentials: 'same-origin',
      headers: {
        ...(init.headers as Record<string, string> | undefined),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    });
  let response: Response;
  try {
    const token = session.getAccessToken();
    response = await attempt(token);
    if (response.status === 401 && token) {
      const renewed = session.getAccessToken() !== token || (await session.refresh());
      const next = session.getAccessToken();
      if (renewed && next) response = await attempt(next);
    }
  } catch (cause) {
    const error = new ApiError({ status: NETWORK_ERROR_STATUS, code: 'server.unavailable', message: String(cause) });
    showApiErrorToast(error);
    throw error;
  }
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? (JSON.parse(text) as unknown) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    const error = toApiError(response.status, body);
    if (TOAST_STATUSES.has(response.status)) showApiErrorToast(error);
    throw error;
  }
  return response;
}

/** {@link sendAuthorized} for a JSON answer, parsed by its schema like the client's calls (a mismatch is a 500). */
export async function sendAuthorizedJson<S extends z.ZodType>(
  session: ApiSession,
  path: string,
  schema: S,
  init: RequestInit = {},
): Promise<z.output<S>> {
  const headers = { ...(init.headers as Record<string, string> | undefined), Accept: 'application/json' };
  const response = await sendAuthorized(session, path, { ...init, headers });
  const body: unknown = await response.json().catch(() => undefined);
  try {
    return parseResponse(schema, body, { method: init.method ?? 'GET', url: `/api${path}`, status: response.status });
  } catch (error) {
    showApiErrorToast(error as ApiError);
    throw error;
  }
}

/** The file name of a `Content-Disposition: attachment` answer (RFC 5987 form first), else the fallback. */
export function attachmentFilename(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (exact) {
    try {
      return decodeURIComponent(exact);
    } catch {
      // Fall through to the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/** Hands a downloaded file to the browser as a save. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
