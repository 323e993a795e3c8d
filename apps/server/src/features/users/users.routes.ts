import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PermissionsResponseSchema,
  SetLanguageRequestSchema,
  SuccessResponseSchema,
  UserDataSchema,
  isLanguage,
} from '@portal/contracts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/app-error.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { UsersService } from './users.service.ts';

const tags = ['account'];

/** The signed-in user's own data: permissions, profile basics, language. */
export function usersRoutes(deps: { users: UsersService; clock: Clock }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/users/permissions', {
      schema: {
        tags,
        summary: "The caller's feature permissions and company toggles",
        response: { 200: PermissionsResponseSchema },
      },
      handler: (request) => {
        const p = principalOf(request);
        return { permissions: [...p.permissions], toggles: [...p.toggles] };
      },
    });

    app.get('/users/getUserData', {
      schema: { tags, summary: "The caller's user data", response: { 200: UserDataSchema } },
      handler: async (request) => {
        const p = principalOf(request);
        const row = await deps.users.findWithCompanyName(p.userId);
        if (!row) throw notFound();
        return {
          id: row.id,
          email: row.email,
          firstName: row.firstName,
          lastName: row.lastName,
          language: isLanguage(row.language) ? row.language : 'en',
          telephone: row.telephone,
          companyId: row.companyId,
          companyName: row.companyName,
          roles: [...p.roles],
        };
      },
    });

    app.post('/users/setLanguage', {
      schema: {
        tags,
        summary: "Store the caller's language (used for e-mails and the next login)",
        body: SetLanguageRequestSchema,
        response: { 200: SuccessResponseSchema },
      },
      handler: async (request) => {
        const p = principalOf(request);
        await deps.users.update(p.userId, { language: request.body.language, updatedAt: deps.clock.now() });
        return { success: true };
      },
    });
  };
}
