import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParamsSchema,
  RestrictionRequestSchema,
  RestrictionSchema,
  RestrictionsPageSchema,
  RestrictionsQuerySchema,
} from '@portal/contracts';
import { metaOf } from '../../lib/request-meta.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { RestrictionsService } from './restrictions.service.ts';

/**
 * Restrictions of the caller's company: named rules over partners, delivery points, document types and directions,
 * assigned to users or groups. Permissions are checked on request, before the input is read.
 */
export function restrictionsRoutes(service: RestrictionsService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['user-management'];
    const read = requirePermission('RESTRICTIONS_READ');
    const modify = requirePermission('RESTRICTIONS_MODIFY');

    app.get('/restrictions', {
      onRequest: read,
      schema: {
        tags,
        summary: "Restrictions of the caller's company; search over name and description, keyset pages",
        querystring: RestrictionsQuerySchema,
        response: { 200: RestrictionsPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.get('/restrictions/:id', {
      onRequest: read,
      schema: { tags, summary: 'One restriction', params: IdParamsSchema, response: { 200: RestrictionSchema } },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.post('/restrictions', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Create a restriction (names are unique in the company, whatever the case)',
        body: RestrictionRequestSchema,
        response: { 201: RestrictionSchema },
      },
      handler: async (request, reply) => {
        const restriction = await service.create(principalOf(request), request.body, metaOf(request));
        return reply.code(201).send(restriction);
      },
    });

    app.put('/restrictions/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Replace a restriction and its assignees',
        params: IdParamsSchema,
        body: RestrictionRequestSchema,
        response: { 200: RestrictionSchema },
      },
      handler: (request) => service.update(principalOf(request), request.params.id, request.body, metaOf(request)),
    });

    app.delete('/restrictions/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Delete a restriction',
        params: IdParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
      handler: async (request, reply) => {
        await service.remove(principalOf(request), request.params.id, metaOf(request));
        return reply.code(204).send(null);
      },
    });
  };
}
