import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  EndImpersonationRequestSchema,
  ImpersonateRequestSchema,
  LoginResponseSchema,
  SuccessResponseSchema,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { metaOf as meta } from '../../lib/request-meta.ts';
import { principalOf, requireRole } from '../../plugins/auth.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { createImpersonationRepository } from './impersonation.repository.ts';
import { createImpersonationService } from './impersonation.service.ts';

/** Start (admins) and end (the impersonated session) of working as another user. */
export function impersonationRoutes(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  auth: AuthService;
}): FastifyPluginAsyncZod {
  const service = createImpersonationService({
    repo: createImpersonationRepository(deps.db),
    auth: deps.auth,
    audit: deps.audit,
    clock: deps.clock,
  });
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
