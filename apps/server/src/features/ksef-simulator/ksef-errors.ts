/**
 * Errors as KSeF sends them (NOTES §11): 400 in the exception format, or problem-details when the request carries
 * `X-Error-Format: problem-details`; 401 and 403 always problem+json; 429 with `Retry-After`.
 */
import { randomUUID } from 'node:crypto';

export type KsefErrorKind = 'bad-request' | 'unauthorized' | 'forbidden' | 'not-found' | 'gone' | 'too-many';

/** What the simulator's service throws; the routes' error handler writes it in KSeF's format. */
export class KsefError extends Error {
  constructor(
    readonly kind: KsefErrorKind,
    readonly code: number,
    readonly description: string,
    readonly details: string[] = [],
    readonly extra: { retryAfterSeconds?: number; reasonCode?: string } = {},
  ) {
    super(`${code} ${description}`);
    this.name = 'KsefError';
  }
}

export const badRequest = (code: number, description: string, details: string[] = []) =>
  new KsefError('bad-request', code, description, details);
export const unauthorized = (detail: string) => new KsefError('unauthorized', 401, detail);
export const forbidden = (detail: string, reasonCode = 'missing-permissions') =>
  new KsefError('forbidden', 403, detail, [], { reasonCode });

/** The codes the simulator answers with (NOTES §11). */
export const KSEF_CODES = {
  unreadable: 21001,
  invalidChallenge: 21111,
  invalidCertificate: 21115,
  sessionInvoiceLimit: 21155,
  invoiceNotFound: 21164,
  notYetAvailable: 21165,
  noSuchSession: 21173,
  upoNotFound: 21178,
  sessionStatusForbids: 21180,
  concurrentExports: 21182,
  uploadTimeout: 21208,
  notAuthorised: 21301,
  sizeMismatch: 21402,
  hashMismatch: 21403,
  inputValidation: 21405,
  signatureVsAuth: 21406,
  unknownPublicKey: 21470,
  xadesDetached: 9101,
  xadesNoSignature: 9102,
  xadesCertificate: 9103,
  xadesInvalid: 9105,
} as const;

type Reply = {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  type(contentType: string): Reply;
  send(body: unknown): unknown;
};

/** Writes a KsefError in the format the request asked for. */
export function sendKsefError(
  error: KsefError,
  request: { url: string; headers: Record<string, string | string[] | undefined> },
  reply: Reply,
  now: Date,
): unknown {
  const wantsProblem = String(request.headers['x-error-format'] ?? '').toLowerCase() === 'problem-details';
  const instance = request.url.split('?')[0] ?? '';
  const traceId = randomUUID().replaceAll('-', '');
  const timestamp = now.toISOString();
  switch (error.kind) {
    case 'unauthorized':
      return reply
        .code(401)
        .type('application/problem+json')
        .send({ title: 'Unauthorized', status: 401, detail: error.description, instance, traceId, timestamp });
    case 'forbidden':
      return reply
        .code(403)
        .type('application/problem+json')
        .send({
          title: 'Forbidden',
          status: 403,
          detail: error.description,
          instance,
          reasonCode: error.extra.reasonCode ?? 'missing-permissions',
          traceId,
          timestamp,
        });
    case 'gone':
      return reply
        .code(410)
        .type('application/problem+json')
        .send({ title: 'Gone', status: 410, instance, detail: error.description, timestamp, traceId });
    case 'too-many': {
      const seconds = String(error.extra.retryAfterSeconds ?? 1);
      reply.code(429).header('retry-after', seconds);
      if (wantsProblem) {
        return reply.type('application/problem+json').send({
          title: 'Too Many Requests',
          status: 429,
          instance,
          detail: error.details[0] ?? error.description,
          timestamp,
          traceId,
        });
      }
      return reply.type('application/json').send({
        status: { code: 429, description: 'Too Many Requests', details: error.details },
      });
    }
    case 'not-found':
    case 'bad-request': {
      const status = error.kind === 'not-found' ? 404 : 400;
      if (wantsProblem) {
        return reply
          .code(status)
          .type('application/problem+json')
          .send({
            title: status === 404 ? 'Not Found' : 'Bad Request',
            status,
            instance,
            detail: error.description,
            errors: [{ code: error.code, description: error.description, details: error.details }],
            timestamp,
            traceId,
          });
      }
      return reply
        .code(status)
        .type('application/json')
        .send({
          exception: {
            exceptionDetailList: [
              { exceptionCode: error.code, exceptionDescription: error.description, details: error.details },
            ],
            referenceNumber: randomUUID(),
            serviceCode: traceId,
            serviceCtx: 'srvKSEFSIM',
            serviceName: 'KSeF simulator',
            timestamp,
          },
        });
    }
  }
}
