import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from '@portal/contracts';
import { AppError } from '../lib/app-error.ts';

function body(code: ErrorCode, message: string, requestId: string, extra?: Partial<ErrorBody['error']>): ErrorBody {
  return { error: { code, message, ...extra }, requestId };
}

/** Sends the error body of a code with the code's status. */
function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  extra?: Partial<ErrorBody['error']>,
): FastifyReply {
  return reply.status(ERROR_STATUS[code]).send(body(code, message, reply.request.id, extra));
}

/** Fastify's own errors for a client's mistake, mapped to stable codes (their status is the code's); else a 500. */
const FASTIFY_CLIENT_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.malformed',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.malformed',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.malformed',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request.too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request.unsupported_media_type',
  FST_ERR_CTP_EMPTY_TYPE: 'request.unsupported_media_type',
  FST_ERR_VALIDATION: 'validation.failed',
};

/**
 * SQLSTATEs of text the database cannot hold (a NUL; an escape of a lone surrogate in jsonb). The request schemas
 * refuse such strings (`text()` of the contracts), so reaching here means a field escaped them: still the
 * client's input, so a 400, logged as a warning to find that field.
 */
const UNSTORABLE_TEXT_STATES = new Set(['22021', '22P05']);

/** The SQLSTATE of a database error, through the wrappers (Drizzle puts the driver's error in `cause`). */
function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook runs (a URL whose percent-encoding does not
 * decode, such as a lone surrogate's bytes; a path parameter over its length), in the API's error body too.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // HTTP's own status for a too-long URI, not the 413 of a too-large body; the code stays the same situation's.
    void reply.status(414).send(body('request.too_large', 'A path parameter is too long', request.id));
    return;
  }
  void sendError(reply, 'request.malformed', error.message);
}

/** The one place that turns an exception into the API's error body. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      const payload = body(error.code, error.message, request.id, {
        ...(error.details ? { details: error.details } : {}),
        ...(error.data ? { data: error.data } : {}),
      });
      return reply.status(error.statusCode).send({ ...error.extra, ...payload });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const details: ErrorDetail[] = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replace(/\//g, '.') || where,
        code: v.message && /^[a-zA-Z]+$/.test(v.message) ? v.message : v.keyword,
      }));
      return sendError(reply, 'validation.failed', `Invalid ${where}`, { details });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return sendError(reply, 'server.internal', 'Internal server error');
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) {
      return sendError(reply, known, error.message);
    }
    const state = sqlStateOf(error);
    if (state && UNSTORABLE_TEXT_STATES.has(state)) {
      request.log.warn({ err: error }, 'text the database cannot store passed the request schema');
      return sendError(reply, 'request.malformed', 'The request holds text that cannot be stored');
    }
    if (error.statusCode === 429) {
      return sendError(reply, 'request.too_many_requests', error.message);
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Any other client error of Fastify or a plugin keeps the status it chose.
      return reply.status(error.statusCode).send(body('request.malformed', error.message, request.id));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 'server.internal', 'Internal server error');
  });
}
