import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CreatePartnerRequestSchema,
  IdParamsSchema,
  PartnerDetailSchema,
  PartnerLookupQuerySchema,
  PartnerLookupSchema,
  PartnerNotificationsRequestSchema,
  PartnersPageSchema,
  PartnersQuerySchema,
  UpdatePartnerRequestSchema,
  type FeaturePermission,
} from '@portal/contracts';
import { metaOf } from '../../lib/request-meta.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { PartnersService } from './partners.service.ts';

const tags = ['partners'];

/** Every permission of the list: seeing partners always needs PARTNERS_READ, changing them one more. */
function allow(...permissions: FeaturePermission[]) {
  const checks = ['PARTNERS_READ' as const, ...permissions].map(requirePermission);
  return async (request: FastifyRequest) => {
    for (const check of checks) await check(request);
  };
}

/**
 * Trading partners: PARTNERS_READ to see (restrictions that name partners narrow the list), the company-admin
 * permission COMPANY_PROFILE_MODIFY to add, change and delete, PARTNERS_NOTIFICATIONS for the notification e-mails.
 */
export function partnersRoutes(service: PartnersService): FastifyPluginAsyncZod {
  return async (app) => {
    const read = allow();
    const modify = allow('COMPANY_PROFILE_MODIFY');
    const notifications = allow('PARTNERS_NOTIFICATIONS');

    app.get('/partners', {
      onRequest: read,
      schema: {
        tags,
        summary:
          "The company's trading partners: search (name, GLN, VAT ID), status and test-mode filters, keyset pages",
        querystring: PartnersQuerySchema,
        response: { 200: PartnersPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.get('/partners/lookup', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'What adding a partner of this GLN would do: the platform company it links to, an existing partner',
        querystring: PartnerLookupQuerySchema,
        response: { 200: PartnerLookupSchema },
      },
      handler: (request) => service.lookup(principalOf(request), request.query.gln),
    });

    app.get('/partners/:id', {
      onRequest: read,
      schema: {
        tags,
        summary: 'One partner (its notification recipients only with PARTNERS_NOTIFICATIONS)',
        params: IdParamsSchema,
        response: { 200: PartnerDetailSchema },
      },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.post('/partners', {
      onRequest: modify,
      schema: {
        tags,
        summary:
          'Add a partner by GLN: linked to the platform company of that GLN, else a party off the platform (name ' +
          'required); a GLN is once per company',
        body: CreatePartnerRequestSchema,
        response: { 201: PartnerDetailSchema },
      },
      handler: async (request, reply) => {
        const partner = await service.create(principalOf(request), request.body, metaOf(request));
        return reply.code(201).send(partner);
      },
    });

    app.put('/partners/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: "Replace a partner's fields (its GLN stays; a linked partner's name is its company's)",
        params: IdParamsSchema,
        body: UpdatePartnerRequestSchema,
        response: { 200: PartnerDetailSchema },
      },
      handler: (request) => service.update(principalOf(request), request.params.id, request.body, metaOf(request)),
    });

    app.put('/partners/:id/notifications', {
      onRequest: notifications,
      schema: {
        tags,
        summary: 'Replace the e-mail recipients told, in their language, of documents received from or failed with it',
        params: IdParamsSchema,
        body: PartnerNotificationsRequestSchema,
        response: { 200: PartnerDetailSchema },
      },
      handler: (request) =>
        service.setNotifications(principalOf(request), request.params.id, request.body, metaOf(request)),
    });

    app.delete('/partners/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Delete a partner',
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
