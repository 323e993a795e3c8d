import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PublicConfigSchema, type PublicConfig } from '@portal/contracts';
import { pingDatabase, type Db } from '../../db/client.ts';
import type { TokenService } from '../auth/tokens.service.ts';

const VERSION = '0.1.0';

/** Health, signing keys and the public configuration the login page needs. */
export function systemRoutes(deps: { db: Db; tokens: TokenService; legacyEdiUrl: string }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/health', {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
          503: z.object({ status: z.literal('error'), database: z.literal('error') }),
        },
      },
      handler: async (_request, reply) => {
        try {
          await pingDatabase(deps.db);
          return { status: 'ok' as const, database: 'ok' as const };
        } catch {
          return reply.status(503).send({ status: 'error' as const, database: 'error' as const });
        }
      },
    });

    app.get('/.well-known/jwks.json', {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Public keys that verify access tokens',
        response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
      },
      handler: () => deps.tokens.jwks(),
    });

    app.get('/public-config', {
      config: { public: true },
      schema: { tags: ['system'], summary: 'Settings the public pages need', response: { 200: PublicConfigSchema } },
      handler: (): PublicConfig => ({ legacyEdiUrl: deps.legacyEdiUrl, version: VERSION }),
    });
  };
}
