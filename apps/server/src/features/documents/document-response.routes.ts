import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DocumentResponseResultSchema, DocumentResponseSchema, IdParamsSchema } from '@portal/contracts';
import { principalOf } from '../../plugins/auth.ts';
import type { DocumentResponseService } from './document-response.service.ts';

/** The receiver's answer to a received document: accepted or rejected, sent to its sender as an APERAK. */
export function documentResponseRoutes(responses: DocumentResponseService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/documents/:id/response', {
      schema: {
        tags: ['documents'],
        summary:
          'Accept or reject (with a reason) a received order, order response, despatch advice, invoice, credit note ' +
          'or receiving advice (INBOX_MODIFY): an APERAK goes to its sender through the outbox; once per document ' +
          '(409 documents.already_answered)',
        params: IdParamsSchema,
        body: DocumentResponseSchema,
        response: { 200: DocumentResponseResultSchema },
      },
      handler: (request) => responses.respond(principalOf(request), request.params.id, request.body),
    });
  };
}
