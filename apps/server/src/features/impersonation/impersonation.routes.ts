import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  EndImpersonationRequestSchema,
  ImpersonateRequestSchema,
  LoginResponseSchema,
  SuccessResponseSchema,
} from '@portal/contracts';
import type { Clock } from '../../lib/clock.ts';
import { metaOf as meta } from '../../lib/request-meta.ts';
import { principalOf, requireRole } from '../../plugins/auth.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { createImpersonationService } from './impersonation.service.ts';

/** Start (admins) and end (the impersonated session) of working as another user. */
export function impersonationRoutes(deps: {
  clock: Clock;
  audit: AuditService;
  auth: AuthService;
  users: UsersService;
  companies: CompaniesService;
}): FastifyPluginAsyncZod {
  const service = createImpersonationService(deps);
  return async (app) => {
    const tags = ['admin', 'impersonation'];

    app.post('/admin/impersonate', {
      onRequest: requireRole('admin'),
      schema: {
        tags,
        summary: 'Start a session as a user (not an admin, disabled or unverified); answers like login',
        body: ImpersonateRequestSchema,
        response: { 200: LoginResponseSchema },
      },
      handler: (request) => service.start(principalOf(request), request.body.userId, meta(request)),
    });

    // Any signed-in caller: the impersonated session has no admin role, and the service checks the claim.
    app.post('/users/endImpersonation', {
      schema: {
        tags,
        summary: 'End the impersonated session of the calling token; the web app restores the admin tokens',
        body: EndImpersonationRequestSchema,
        response: { 200: SuccessResponseSchema },
      },
      handler: async (request) => {
        await service.end(principalOf(request), request.body.refreshToken, meta(request));
        return { success: true };
      },
    });
  };
}
