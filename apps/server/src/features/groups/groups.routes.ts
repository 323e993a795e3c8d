import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  GroupDetailSchema,
  GroupMembersRequestSchema,
  GroupRequestSchema,
  GroupsPageSchema,
  GroupsQuerySchema,
  IdParamsSchema,
} from '@portal/contracts';
import { metaOf } from '../../lib/request-meta.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { GroupsService } from './groups.service.ts';

/** Groups of the caller's company: names, feature permissions, members. */
export function groupsRoutes(service: GroupsService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['user-management'];
    const read = requirePermission('GROUPS_READ');
    const modify = requirePermission('GROUPS_MODIFY');

    app.get('/groups', {
      onRequest: read,
      schema: {
        tags,
        summary: "Groups of the caller's company with member counts; search over names, keyset pages",
        querystring: GroupsQuerySchema,
        response: { 200: GroupsPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.get('/groups/:id', {
      onRequest: read,
      schema: {
        tags,
        summary: 'One group with its members',
        params: IdParamsSchema,
        response: { 200: GroupDetailSchema },
      },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.post('/groups', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Create a group (names are unique in the company, whatever the case)',
        body: GroupRequestSchema,
        response: { 201: GroupDetailSchema },
      },
      handler: async (request, reply) => {
        const group = await service.create(principalOf(request), request.body, metaOf(request));
        return reply.code(201).send(group);
      },
    });

    app.put('/groups/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Rename a group and replace its permissions',
        params: IdParamsSchema,
        body: GroupRequestSchema,
        response: { 200: GroupDetailSchema },
      },
      handler: (request) => service.update(principalOf(request), request.params.id, request.body, metaOf(request)),
    });

    app.delete('/groups/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Delete a group',
        params: IdParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
      handler: async (request, reply) => {
        await service.remove(principalOf(request), request.params.id, metaOf(request));
        return reply.code(204).send(null);
      },
    });

    app.put('/groups/:id/members', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Replace the members of a group (users of the company)',
        params: IdParamsSchema,
        body: GroupMembersRequestSchema,
        response: { 200: GroupDetailSchema },
      },
      handler: (request) =>
        service.setMembers(principalOf(request), request.params.id, request.body.userIds, metaOf(request)),
    });
  };
}
