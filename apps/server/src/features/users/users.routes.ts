import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import {
  PermissionsResponseSchema,
  SetLanguageRequestSchema,
  SuccessResponseSchema,
  UserDataSchema,
  isLanguage,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/app-error.ts';
import { principalOf } from '../../plugins/auth.ts';
import { companies } from '../companies/companies.table.ts';
import { users } from './users.table.ts';

const tags = ['account'];

/** The signed-in user's own data: permissions, profile basics, language. */
export function usersRoutes(deps: { db: Db; clock: Clock }): FastifyPluginAsyncZod {
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
        const [row] = await deps.db
          .select({ user: users, companyName: companies.name })
          .from(users)
          .leftJoin(companies, eq(companies.id, users.companyId))
          .where(eq(users.id, p.userId));
        if (!row) throw notFound();
        return {
          id: row.user.id,
          email: row.user.email,
          firstName: row.user.firstName,
          lastName: row.user.lastName,
          language: isLanguage(row.user.language) ? row.user.language : 'en',
          telephone: row.user.telephone,
          companyId: row.user.companyId,
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
        await deps.db
          .update(users)
          .set({ language: request.body.language, updatedAt: deps.clock.now() })
          .where(eq(users.id, p.userId));
        return { success: true };
      },
    });
  };
}
