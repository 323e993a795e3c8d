import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CompanyUserDetailSchema,
  CompanyUsersPageSchema,
  CompanyUsersQuerySchema,
  IdParamsSchema,
  InviteUserRequestSchema,
  UpdateCompanyUserRequestSchema,
} from '@portal/contracts';
import { metaOf } from '../../lib/request-meta.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { CompanyUsersService } from './company-users.service.ts';

/**
 * The users of the caller's company. Permissions are checked on request, before the input is read, so a refused
 * caller learns nothing about it; ids of another company are 404.
 */
export function companyUsersRoutes(service: CompanyUsersService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['user-management'];
    const read = requirePermission('USERS_READ');
    const modify = requirePermission('USERS_MODIFY');

    app.get('/company-users', {
      onRequest: read,
      schema: {
        tags,
        summary: "Users of the caller's company; search over names and e-mail, keyset pages",
        querystring: CompanyUsersQuerySchema,
        response: { 200: CompanyUsersPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.get('/company-users/:id', {
      onRequest: read,
      schema: {
        tags,
        summary: 'One user of the company',
        params: IdParamsSchema,
        response: { 200: CompanyUserDetailSchema },
      },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.post('/company-users/invite', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Invite a user by e-mail; the e-mailed link sets the password',
        body: InviteUserRequestSchema,
        response: { 201: CompanyUserDetailSchema },
      },
      handler: async (request, reply) => {
        const user = await service.invite(principalOf(request), request.body, metaOf(request));
        return reply.code(201).send(user);
      },
    });

    app.post('/company-users/:id/resend-invitation', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'E-mail a new invitation link to a user who has not accepted yet (earlier links stop working)',
        params: IdParamsSchema,
        response: { 200: CompanyUserDetailSchema },
      },
      handler: (request) => service.resendInvitation(principalOf(request), request.params.id, metaOf(request)),
    });

    app.patch('/company-users/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: "Change a user's names, telephone or groups (absent fields stay)",
        params: IdParamsSchema,
        body: UpdateCompanyUserRequestSchema,
        response: { 200: CompanyUserDetailSchema },
      },
      handler: (request) => service.update(principalOf(request), request.params.id, request.body, metaOf(request)),
    });

    app.post('/company-users/:id/deactivate', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Disable a user and end their sessions (not oneself, not the last user who manages the company)',
        params: IdParamsSchema,
        response: { 200: CompanyUserDetailSchema },
      },
      handler: (request) => service.deactivate(principalOf(request), request.params.id, metaOf(request)),
    });

    app.post('/company-users/:id/activate', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Enable a deactivated user again',
        params: IdParamsSchema,
        response: { 200: CompanyUserDetailSchema },
      },
      handler: (request) => service.activate(principalOf(request), request.params.id, metaOf(request)),
    });
  };
}
