import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppConfigEntrySchema,
  AppConfigParamsSchema,
  AppConfigQuerySchema,
  AppConfigResponseSchema,
  PaymentReminderContentSchema,
  PaymentReminderDueResponseSchema,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { principalOf, requireRole } from '../../plugins/auth.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import { createAppConfigRepository } from './app-config.repository.ts';
import { createAppConfigService } from './app-config.service.ts';

const tags = ['app-config'];

/** The payment reminder: its texts per language, whether it is due for the caller, and the admins' editor. */
export function appConfigRoutes(deps: { db: Db; clock: Clock; companies: CompaniesService }): FastifyPluginAsyncZod {
  const service = createAppConfigService({
    repo: createAppConfigRepository(deps.db),
    companies: deps.companies,
    clock: deps.clock,
  });
  return async (app) => {
    app.get('/AppConfig', {
      schema: {
        tags,
        summary: 'App config entries of a type, one per language',
        querystring: AppConfigQuerySchema,
        response: { 200: AppConfigResponseSchema },
      },
      handler: async () => ({ httpResponse: { body: await service.listPaymentReminders() } }),
    });

    app.get('/users/paymentReminder', {
      schema: {
        tags,
        summary: "Whether the payment reminder is due today for the caller's company",
        response: { 200: PaymentReminderDueResponseSchema },
      },
      handler: async (request) => ({ due: await service.isPaymentReminderDue(principalOf(request).companyId) }),
    });

    app.put('/admin/app-config/:type/:lang', {
      onRequest: requireRole('admin'),
      schema: {
        tags: [...tags, 'admin'],
        summary: "Replace one language's entry of an app config type (admins)",
        params: AppConfigParamsSchema,
        body: PaymentReminderContentSchema,
        response: { 200: AppConfigEntrySchema },
      },
      handler: (request) => service.setPaymentReminder(request.params.lang, request.body, principalOf(request).userId),
    });
  };
}
