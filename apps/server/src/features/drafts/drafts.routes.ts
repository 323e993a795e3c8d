import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateDraftRequestSchema,
  DraftCheckSchema,
  DraftKindsSchema,
  DraftListSchema,
  DraftSchema,
  DraftSentSchema,
  CompanyLocationPageSchema,
  IdParamsSchema,
  PartnerDeliveryPointsQuerySchema,
  SendDraftRequestSchema,
  UpdateDraftRequestSchema,
} from '@portal/contracts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { DraftsService } from './drafts.service.ts';

const tags = ['drafts'];
const read = requirePermission('OUTBOX_READ');
const create = requirePermission('OUTBOX_CREATE');

/**
 * Documents written in the browser (issue 12): the new-document menu (`OUTBOX_CREATE`), drafts listed with the outbox
 * (`OUTBOX_READ`), created and copied (`OUTBOX_CREATE`), saved and deleted (`OUTBOX_MODIFY`, or the author's own with
 * `OUTBOX_CREATE`), checked, and sent (`OUTBOX_SEND`).
 */
export function draftsRoutes(service: DraftsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/drafts/kinds', {
      onRequest: create,
      schema: {
        tags,
        summary: 'What the new-document menu offers: each kind some partner may receive, with those partners',
        response: { 200: DraftKindsSchema },
      },
      handler: (request) => service.kinds(principalOf(request)),
    });

    app.get('/drafts/partners/:id/delivery-points', {
      onRequest: create,
      schema: {
        tags,
        summary: "A platform partner's delivery points, searched by name or GLN, for a document's delivery party",
        params: IdParamsSchema,
        querystring: PartnerDeliveryPointsQuerySchema,
        response: { 200: CompanyLocationPageSchema },
      },
      handler: (request) => service.partnerDeliveryPoints(principalOf(request), request.params.id, request.query),
    });

    app.get('/drafts', {
      onRequest: read,
      schema: { tags, summary: 'The drafts not yet sent, the last edited first', response: { 200: DraftListSchema } },
      handler: (request) => service.list(principalOf(request)),
    });

    app.get('/drafts/:id', {
      onRequest: read,
      schema: { tags, summary: 'One draft with its form', params: IdParamsSchema, response: { 200: DraftSchema } },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.post('/drafts', {
      onRequest: create,
      schema: {
        tags,
        summary: 'A new draft: empty, as given, or answering a document (turnaround: sourceDocumentId)',
        body: CreateDraftRequestSchema,
        response: { 201: DraftSchema },
      },
      handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body)),
    });

    app.put('/drafts/:id', {
      onRequest: create,
      schema: {
        tags,
        summary: 'Save the form over the version it was read at (409 drafts.version_conflict otherwise)',
        params: IdParamsSchema,
        body: UpdateDraftRequestSchema,
        response: { 200: DraftSchema },
      },
      handler: (request) => service.update(principalOf(request), request.params.id, request.body),
    });

    app.post('/drafts/:id/copy', {
      onRequest: create,
      schema: { tags, summary: 'A copy as a new draft', params: IdParamsSchema, response: { 201: DraftSchema } },
      handler: async (request, reply) =>
        reply.code(201).send(await service.copy(principalOf(request), request.params.id)),
    });

    app.delete('/drafts/:id', {
      onRequest: create,
      schema: {
        tags,
        summary: 'Delete a draft',
        params: IdParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
      handler: async (request, reply) => {
        await service.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    });

    app.post('/drafts/:id/check', {
      onRequest: read,
      schema: {
        tags,
        summary: "The form's problems and the EDIFACT engine's findings on the EANCOM it would send",
        params: IdParamsSchema,
        response: { 200: DraftCheckSchema },
      },
      handler: (request) => service.check(principalOf(request), request.params.id),
    });

    app.post('/drafts/:id/send', {
      onRequest: requirePermission('OUTBOX_SEND'),
      schema: {
        tags,
        summary: 'Send the draft as the version checked; a repeat answers with the same document',
        params: IdParamsSchema,
        body: SendDraftRequestSchema,
        response: { 200: DraftSentSchema },
      },
      handler: (request) => service.send(principalOf(request), request.params.id, request.body.version),
    });
  };
}
