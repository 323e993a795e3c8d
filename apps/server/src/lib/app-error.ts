import type { ErrorCode, ErrorDetail } from '@portal/contracts';

/** The one error a service throws; the central handler turns it into the API's error body. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    options: {
      message?: string;
      details?: ErrorDetail[];
      data?: Record<string, unknown>;
      /** Top-level fields added beside `error` (the login endpoint keeps the description's shape). */
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(options.message ?? code);
    this.details = options.details;
    this.data = options.data;
    this.extra = options.extra;
    this.headers = options.headers;
  }
  readonly details: ErrorDetail[] | undefined;
  readonly data: Record<string, unknown> | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
}

export const notFound = () => new AppError('resource.not_found', 404);
export const forbidden = () => new AppError('auth.forbidden', 403);
