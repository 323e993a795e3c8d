import type { ErrorDetail } from '@portal/contracts';

/** A failed API call: HTTP status plus the parsed error body (`{ error: { code, message, details?, data? } }`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: readonly ErrorDetail[];
  readonly data: Readonly<Record<string, unknown>>;
  readonly requestId: string | undefined;
  /** The whole body, for endpoints that keep extra fields beside `error` (login's vindicationInfoResponse). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: string;
    message?: string;
    details?: readonly ErrorDetail[];
    data?: Record<string, unknown>;
    requestId?: string;
    body?: unknown;
  }) {
    super(init.message ?? init.code);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.data = init.data ?? {};
    this.requestId = init.requestId;
    this.body = init.body;
  }
}

/** Status 0 stands for "no answer": the network or the server is unreachable. */
export const NETWORK_ERROR_STATUS = 0;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseDetails(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): ErrorDetail[] => {
    if (!isRecord(item) || typeof item['field'] !== 'string' || typeof item['code'] !== 'string') return [];
    const params = isRecord(item['params']) ? (item['params'] as ErrorDetail['params']) : undefined;
    return [{ field: item['field'], code: item['code'], ...(params ? { params } : {}) }];
  });
}

/** Builds an ApiError from any error body; the refresh endpoint's `error` is a bare code string. */
export function toApiError(status: number, body: unknown): ApiError {
  const fallback = status >= 500 ? 'server.internal' : 'request.failed';
  if (!isRecord(body)) return new ApiError({ status, code: fallback, body });
  const requestId = typeof body['requestId'] === 'string' ? body['requestId'] : undefined;
  const error = body['error'];
  if (typeof error === 'string') return new ApiError({ status, code: error, requestId, body });
  if (!isRecord(error)) return new ApiError({ status, code: fallback, requestId, body });
  return new ApiError({
    status,
    code: typeof error['code'] === 'string' ? error['code'] : fallback,
    message: typeof error['message'] === 'string' ? error['message'] : undefined,
    details: parseDetails(error['details']),
    data: isRecord(error['data']) ? error['data'] : undefined,
    requestId,
    body,
  });
}
