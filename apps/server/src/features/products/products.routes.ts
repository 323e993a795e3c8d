import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdParamsSchema,
  PRODUCTS_IMPORT_MAX_BYTES,
  ProductRequestSchema,
  ProductSchema,
  ProductsImportQuerySchema,
  ProductsImportResultSchema,
  ProductsPageSchema,
  ProductsQuerySchema,
} from '@portal/contracts';
import { registerCsvImportRoute, sendCsv } from '../../lib/csv-routes.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { ProductsService } from './products.service.ts';

const tags = ['products'];

/**
 * There is no products permission yet: the catalogue fills outgoing documents, so it is read with the outbox's
 * create permission and changed with its modify permission.
 */
const read = requirePermission('OUTBOX_CREATE');
const modify = requirePermission('OUTBOX_MODIFY');

/**
 * The company's products (`OUTBOX_CREATE` to see, `OUTBOX_MODIFY` to change): list with search, one product,
 * create, update, delete, CSV import with a dry run for the preview, CSV export.
 */
export function productsRoutes(service: ProductsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/products', {
      onRequest: read,
      schema: {
        tags,
        summary: "The company's products: search (GTIN, article numbers, description), sort, keyset pages",
        querystring: ProductsQuerySchema,
        response: { 200: ProductsPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.get('/products/export', {
      onRequest: read,
      schema: { tags, summary: 'Every product as CSV (UTF-8 with BOM, a header row of field names)' },
      handler: (request, reply) => sendCsv(reply, service.exportRows(principalOf(request)), 'products.csv'),
    });

    app.get('/products/:id', {
      onRequest: read,
      schema: { tags, summary: 'One product', params: IdParamsSchema, response: { 200: ProductSchema } },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.post('/products', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Add a product (a GTIN appears once in the catalogue)',
        body: ProductRequestSchema,
        response: { 201: ProductSchema },
      },
      handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body)),
    });

    app.put('/products/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Replace a product',
        params: IdParamsSchema,
        body: ProductRequestSchema,
        response: { 200: ProductSchema },
      },
      handler: (request) => service.update(principalOf(request), request.params.id, request.body),
    });

    app.delete('/products/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Delete a product',
        params: IdParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
      handler: async (request, reply) => {
        await service.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    });

    await registerCsvImportRoute(app, {
      url: '/products/import',
      maxBytes: PRODUCTS_IMPORT_MAX_BYTES,
      onRequest: modify,
      tags,
      summary:
        'Import products from CSV (multipart, one file part): with dryRun=true the preview and every problem, ' +
        'nothing saved; otherwise all rows or none',
      querystring: ProductsImportQuerySchema,
      response: ProductsImportResultSchema,
      handler: (request, bytes, query) => service.import(principalOf(request), bytes, query.dryRun),
    });
  };
}
