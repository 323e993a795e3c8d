import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '@portal/contracts';

/**
 * The one error a service throws; the central handler turns it into the API's error body. Its HTTP status comes from
 * the code (`ERROR_STATUS` in contracts), so a situation answers with the same status wherever it is thrown.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly details: ErrorDetail[] | undefined;
  readonly data: Record<string, unknown> | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
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
    this.statusCode = ERROR_STATUS[code];
    this.details = options.details;
    this.data = options.data;
    this.extra = options.extra;
    this.headers = options.headers;
  }
}

export const notFound = () => new AppError('resource.not_found');
export const forbidden = () => new AppError('auth.forbidden');
