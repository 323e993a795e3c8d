import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ApiKeyCreateRequestSchema,
  ApiKeyCreatedSchema,
  ApiKeyPageSchema,
  ApiKeySchema,
  ApiKeysQuerySchema,
  INBOUND_CONTENT_TYPES,
  IdParamsSchema,
  InboundDocumentQuerySchema,
  UploadFileResultSchema,
} from '@portal/contracts';
import { AppError } from '../../lib/app-error.ts';
import { documentedBody } from '../../lib/openapi.ts';
import { metaOf } from '../../lib/request-meta.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { DocumentsService } from '../documents/documents.service.ts';
import type { ApiKeysService, AuthenticatedKey } from './api-keys.service.ts';

/**
 * Company API keys on the profile's company panel (decision 0023): company administrators (COMPANY_PROFILE_MODIFY,
 * checked before the body is read) list, create and revoke them.
 */
export function apiKeysRoutes(service: ApiKeysService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['company'];
    const onRequest = requirePermission('COMPANY_PROFILE_MODIFY');

    app.get('/company/api-keys', {
      onRequest,
      schema: {
        tags,
        summary: "The company's API keys, newest first, revoked ones included (never their secrets)",
        querystring: ApiKeysQuerySchema,
        response: { 200: ApiKeyPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.post('/company/api-keys', {
      onRequest,
      schema: {
        tags,
        summary:
          'Create an API key: the answer holds its secret, shown this once (409 api_keys.limit_reached over the limit)',
        body: ApiKeyCreateRequestSchema,
        response: { 201: ApiKeyCreatedSchema },
      },
      handler: async (request, reply) =>
        reply.code(201).send(await service.create(principalOf(request), request.body, metaOf(request))),
    });

    app.delete('/company/api-keys/:id', {
      onRequest,
      schema: {
        tags,
        summary: 'Revoke an API key: the next call with it is refused (revoking a revoked key changes nothing)',
        params: IdParamsSchema,
        response: { 200: ApiKeySchema },
      },
      handler: (request) => service.revoke(principalOf(request), request.params.id, metaOf(request)),
    });
  };
}

/** The key a machine presents: `X-API-Key: edi_…`, or `Authorization: Bearer edi_…`. */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return header.trim();
  const authorization = request.headers.authorization;
  return authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined;
}

/**
 * `POST /api/documents/inbound` (issue 11, part 2): a raw interchange in the body, for ERP integrations and the
 * transports to come. Public to the session hook, authenticated by a company API key before the body is read; then
 * the body goes as a stream to the documents service's `receive` (up to 100 MB, never whole in memory), and is
 * answered as one file of the upload.
 */
export function inboundRoutes(deps: {
  apiKeys: ApiKeysService;
  documents: Pick<DocumentsService, 'receive'>;
  /** The largest body (INBOUND_MAX_BYTES: the contract's 100 MB unless the operator sets less). */
  maxBytes: number;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const keys = new WeakMap<FastifyRequest, AuthenticatedKey>();
    await app.register(async (scopeRaw) => {
      // In this scope only the raw media types are taken, and left unread: the handler streams them.
      scopeRaw.removeAllContentTypeParsers();
      scopeRaw.addContentTypeParser([...INBOUND_CONTENT_TYPES], (_request, payload, done) => done(null, payload));
      const scope = scopeRaw.withTypeProvider<ZodTypeProvider>();
      scope.post('/documents/inbound', {
        bodyLimit: deps.maxBytes,
        config: {
          public: true,
          ...documentedBody(INBOUND_CONTENT_TYPES, z.string().describe('The EDIFACT interchange, as is')),
        },
        // Before the body is read: without a good key nothing is uploaded.
        onRequest: async (request) => {
          keys.set(request, await deps.apiKeys.authenticate(presentedKey(request), metaOf(request)));
        },
        schema: {
          tags: ['documents'],
          summary:
            'Send an EDIFACT interchange as the request body (application/edifact, text/plain or ' +
            'application/octet-stream; 100 MB) with a company API key (`X-API-Key` or `Authorization: Bearer`): ' +
            '`direction=out` (the default) into the outbox, `in` into the inbox. Answered as one file of the upload; ' +
            'a large file is answered `queued` and read by the job.',
          security: [{ apiKey: [] }],
          querystring: InboundDocumentQuerySchema,
          response: { 200: UploadFileResultSchema },
        },
        handler: async (request) => {
          const key = keys.get(request)!;
          const length = request.headers['content-length'];
          if (length !== undefined && Number(length) > deps.maxBytes) throw tooLarge(deps.maxBytes);
          if (length === '0') {
            throw new AppError('validation.failed', { details: [{ field: 'body', code: 'required' }] });
          }
          const { direction, fileName } = request.query;
          return deps.documents.receive(
            { userId: null, companyId: key.companyId, apiKeyId: key.keyId },
            direction,
            fileName ?? `inbound-${new Date().toISOString().slice(0, 10)}.edi`,
            // Not destroyed when the service stops reading (a refusal): the socket must still carry the answer.
            (request.body as Readable).iterator({ destroyOnReturn: false }),
            { maxBytes: deps.maxBytes, field: 'body' },
          );
        },
      });
    });
  };
}

const tooLarge = (max: number) =>
  new AppError('request.too_large', {
    details: [{ field: 'body', code: 'fileTooLarge', params: { max } }],
    data: { maxBytes: max },
  });
