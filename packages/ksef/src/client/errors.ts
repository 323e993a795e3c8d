/**
 * KSeF's errors as typed errors (NOTES §11): the problem-details body (`application/problem+json`: title, status,
 * detail, errors[{code, description, details}], traceId) or the older `exception.exceptionDetailList[]`, mapped to
 * one shape with the numeric codes (21301, 21470…) so a caller can branch on them.
 */

export type KsefErrorDetail = { code: number | null; description: string; details: string[] };

export class KsefApiError extends Error {
  override readonly name: string = 'KsefApiError';
  constructor(
    readonly status: number,
    readonly errors: KsefErrorDetail[],
    message: string,
    readonly traceId: string | null = null,
    readonly body: unknown = null,
  ) {
    super(message);
  }

  /** Whether KSeF answered with this error code (e.g. 21301: tokens already redeemed). */
  has(code: number): boolean {
    return this.errors.some((e) => e.code === code);
  }
}

/** 429: the caller was over a limit; `retryAfterSeconds` is KSeF's `Retry-After`. */
export class KsefRateLimitError extends KsefApiError {
  override readonly name = 'KsefRateLimitError';
  constructor(
    readonly retryAfterSeconds: number,
    errors: KsefErrorDetail[],
    message: string,
    traceId: string | null,
    body: unknown,
  ) {
    super(429, errors, message, traceId, body);
  }
}

/** A final status of an operation that did not succeed (authentication 450, an invoice 440 or 450, a session 445…). */
export class KsefStatusError extends Error {
  override readonly name = 'KsefStatusError';
  constructor(
    readonly operation: 'authentication' | 'invoice' | 'session' | 'export',
    readonly code: number,
    readonly description: string,
    readonly details: string[] = [],
    readonly extensions: Record<string, unknown> | null = null,
  ) {
    super(`${operation} status ${code}: ${description}${details.length ? ` (${details.join('; ')})` : ''}`);
  }
}

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** The error of a non-2xx answer, read from either of KSeF's error bodies. */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null): KsefApiError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  let errors: KsefErrorDetail[] = [];
  let message = `KSeF answered ${status}`;
  if (Array.isArray(b.errors)) {
    errors = b.errors.map((e: Record<string, unknown>) => ({
      code: typeof e.code === 'number' ? e.code : Number(e.code) || null,
      description: String(e.description ?? ''),
      details: asStrings(e.details),
    }));
  }
  const exception = b.exception as { exceptionDetailList?: Record<string, unknown>[] } | undefined;
  if (exception?.exceptionDetailList) {
    errors = exception.exceptionDetailList.map((e) => ({
      code: typeof e.exceptionCode === 'number' ? e.exceptionCode : null,
      description: String(e.exceptionDescription ?? ''),
      details: asStrings(e.details),
    }));
  }
  const headline = [b.title, b.detail].filter((x) => typeof x === 'string' && x).join(': ');
  if (headline) message += ` (${headline})`;
  if (errors.length) message += `: ${errors.map((e) => `${e.code ?? ''} ${e.description}`.trim()).join('; ')}`;
  const traceId = typeof b.traceId === 'string' ? b.traceId : null;
  if (status === 429) {
    const seconds = Number(retryAfter);
    return new KsefRateLimitError(
      Number.isFinite(seconds) && seconds >= 0 ? seconds : 1,
      errors,
      message,
      traceId,
      body,
    );
  }
  return new KsefApiError(status, errors, message, traceId, body);
}
