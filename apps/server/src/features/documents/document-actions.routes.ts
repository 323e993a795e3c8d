import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DocumentExportQuerySchema,
  DocumentStatusChangeResponseSchema,
  DocumentStatusChangeSchema,
  DocumentZipRequestSchema,
} from '@portal/contracts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { DocumentActionsService } from './document-actions.service.ts';

const tags = ['documents'];

/** The routes of what users do with documents of the lists: statuses, the zip of originals, the export. */
export function documentActionsRoutes(actions: DocumentActionsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/documents/status', {
      schema: {
        tags,
        summary:
          'Mark inbox documents read or unread (INBOX_MODIFY) and set or clear the additional status (INBOX_MODIFY ' +
          'or OUTBOX_MODIFY by direction) of up to 200 documents; each change a history row. An id the caller ' +
          'cannot see: 404, nothing changed',
        body: DocumentStatusChangeSchema,
        response: { 200: DocumentStatusChangeResponseSchema },
      },
      handler: (request) => actions.changeStatus(principalOf(request), request.body),
    });

    app.post('/documents/zip', {
      schema: {
        tags,
        summary: 'The originals of up to 200 documents as one zip (100 MB of originals at most), streamed',
        body: DocumentZipRequestSchema,
      },
      handler: async (request, reply) => {
        const body = await actions.zip(principalOf(request), request.body.ids);
        return reply
          .type('application/zip')
          .header('content-disposition', contentDisposition('documents.zip'))
          .send(body);
      },
    });

    app.get('/documents/export', {
      schema: {
        tags,
        summary:
          'The inbox or outbox list (its filters and sort, at most 10,000 rows) or the selected documents of it ' +
          '(ids) as CSV or XLSX, with these columns in this order and headers in the user’s language',
        querystring: DocumentExportQuerySchema,
      },
      handler: async (request, reply) => {
        const file = await actions.export(principalOf(request), request.query);
        return reply
          .type(
            file.format === 'csv'
              ? 'text/csv; charset=utf-8'
              : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          )
          .header('content-disposition', contentDisposition(file.fileName))
          .send(file.format === 'csv' ? file.body : Buffer.from(file.body));
      },
    });
  };
}
