import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify';
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
import { AppError } from '../../lib/app-error.ts';
import { documentedBody } from '../../lib/openapi.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { ProductsService } from './products.service.ts';

const tags = ['products'];

/**
 * There is no products permission yet: the catalogue fills outgoing documents, so it is read with the outbox's
 * create permission and changed with its modify permission.
 */
const read = requirePermission('OUTBOX_CREATE');
const modify = requirePermission('OUTBOX_MODIFY');

/** The CSV file of an import form: its one file part, cut off at the size limit. */
async function readCsvUpload(request: FastifyRequest): Promise<Uint8Array> {
  let file;
  try {
    file = await request.file({ limits: { fileSize: PRODUCTS_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('request.unsupported_media_type');
    throw new AppError('request.malformed', { message: 'Malformed multipart body' });
  }
  if (!file) throw new AppError('validation.failed', { details: [{ field: 'file', code: 'required' }] });
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('validation.failed', {
        details: [{ field: 'file', code: 'fileTooLarge', params: { name: file.filename || 'file' } }],
      });
    }
    throw new AppError('request.malformed', { message: 'Malformed multipart body' });
  }
  if (bytes.length === 0) {
    throw new AppError('validation.failed', {
      details: [{ field: 'file', code: 'fileEmpty', params: { name: file.filename || 'file' } }],
    });
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

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
      handler: async (request, reply) => {
        const rows = Readable.from(service.exportRows(principalOf(request)));
        const csv = rows.pipe(stringify({ bom: true, record_delimiter: 'windows' }));
        // A database failure mid-stream ends the download short rather than leaving the socket open.
        rows.on('error', (error) => csv.destroy(error));
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="products.csv"')
          .send(csv);
      },
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

    await app.register(async (scopeRaw) => {
      // The multipart parser lives in this scope only; every other route keeps refusing multipart bodies.
      await scopeRaw.register(fastifyMultipart, { limits: { fileSize: PRODUCTS_IMPORT_MAX_BYTES } });
      const scope = scopeRaw.withTypeProvider<ZodTypeProvider>();
      scope.post('/products/import', {
        // Before the body is read: a caller without the permission uploads nothing.
        onRequest: modify,
        bodyLimit: PRODUCTS_IMPORT_MAX_BYTES + 64 * 1024,
        config: documentedBody(['multipart/form-data'], z.object({ file: z.string().describe('The CSV file') })),
        schema: {
          tags,
          summary:
            'Import products from CSV (multipart, one file part): with dryRun=true the preview and every problem, ' +
            'nothing saved; otherwise all rows or none',
          querystring: ProductsImportQuerySchema,
          response: { 200: ProductsImportResultSchema },
        },
        handler: async (request) => {
          const bytes = await readCsvUpload(request);
          return service.import(principalOf(request), bytes, request.query.dryRun);
        },
      });
    });
  };
}
