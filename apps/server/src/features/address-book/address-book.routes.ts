import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import {
  ADDRESS_BOOK_IMPORT_MAX_BYTES,
  AddressBookEntryRequestSchema,
  AddressBookEntrySchema,
  AddressBookImportQuerySchema,
  AddressBookImportResultSchema,
  AddressBookPageSchema,
  AddressBookQuerySchema,
  IdParamsSchema,
  type FeaturePermission,
} from '@portal/contracts';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { documentedBody } from '../../lib/openapi.ts';
import { metaOf } from '../../lib/request-meta.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { createAddressBookRepository } from './address-book.repository.ts';
import { createAddressBookService } from './address-book.service.ts';

const tags = ['address-book'];

/** The description hides the address book from role demo; the server refuses it too, whatever the permissions. */
function allow(permission: FeaturePermission) {
  const hasPermission = requirePermission(permission);
  return async (request: FastifyRequest) => {
    await hasPermission(request);
    if (principalOf(request).roles.includes('demo')) throw new AppError('auth.forbidden');
  };
}

/** The CSV file of an import form: its one file part, cut off at the size limit. */
async function readCsvUpload(request: FastifyRequest): Promise<Uint8Array> {
  let file;
  try {
    file = await request.file({
      limits: { fileSize: ADDRESS_BOOK_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 },
    });
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
 * The address book (`ADDRESS_BOOK_READ` to see, `ADDRESS_BOOK_MODIFY` to change, never role demo): list, one entry,
 * create, update, delete, CSV import with a dry run for the preview, CSV export.
 */
export function addressBookRoutes(deps: {
  db: Db;
  clock: Clock;
  audit: AuditService;
  cpu: CpuPool;
}): FastifyPluginAsyncZod {
  const service = createAddressBookService({ ...deps, repo: createAddressBookRepository(deps.db) });
  return async (app) => {
    const read = allow('ADDRESS_BOOK_READ');
    const modify = allow('ADDRESS_BOOK_MODIFY');

    app.get('/address-book', {
      onRequest: read,
      schema: {
        tags,
        summary:
          "The company's address book: search (name, displayed name, GLN, tax ID, city), filters, sort, keyset pages",
        querystring: AddressBookQuerySchema,
        response: { 200: AddressBookPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.get('/address-book/export', {
      onRequest: read,
      schema: { tags, summary: 'The whole address book as CSV (UTF-8 with BOM, a header row of field names)' },
      handler: async (request, reply) => {
        const rows = Readable.from(service.exportRows(principalOf(request)));
        const csv = rows.pipe(stringify({ bom: true, record_delimiter: 'windows' }));
        // A database failure mid-stream ends the download short rather than leaving the socket open.
        rows.on('error', (error) => csv.destroy(error));
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="address-book.csv"')
          .send(csv);
      },
    });

    app.get('/address-book/:id', {
      onRequest: read,
      schema: { tags, summary: 'One entry', params: IdParamsSchema, response: { 200: AddressBookEntrySchema } },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.post('/address-book', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Add an entry (a GLN appears once in the book)',
        body: AddressBookEntryRequestSchema,
        response: { 201: AddressBookEntrySchema },
      },
      handler: async (request, reply) => {
        const entry = await service.create(principalOf(request), request.body, metaOf(request));
        return reply.code(201).send(entry);
      },
    });

    app.put('/address-book/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Replace an entry',
        params: IdParamsSchema,
        body: AddressBookEntryRequestSchema,
        response: { 200: AddressBookEntrySchema },
      },
      handler: (request) => service.update(principalOf(request), request.params.id, request.body, metaOf(request)),
    });

    app.delete('/address-book/:id', {
      onRequest: modify,
      schema: {
        tags,
        summary: 'Delete an entry',
        params: IdParamsSchema,
        response: { 204: z.null().describe('Deleted') },
      },
      handler: async (request, reply) => {
        await service.remove(principalOf(request), request.params.id, metaOf(request));
        return reply.code(204).send(null);
      },
    });

    await app.register(async (scopeRaw) => {
      // The multipart parser lives in this scope only; every other route keeps refusing multipart bodies.
      await scopeRaw.register(fastifyMultipart, { limits: { fileSize: ADDRESS_BOOK_IMPORT_MAX_BYTES } });
      const scope = scopeRaw.withTypeProvider<ZodTypeProvider>();
      scope.post('/address-book/import', {
        // Before the body is read: a caller without the permission uploads nothing.
        onRequest: modify,
        bodyLimit: ADDRESS_BOOK_IMPORT_MAX_BYTES + 64 * 1024,
        config: documentedBody(['multipart/form-data'], z.object({ file: z.string().describe('The CSV file') })),
        schema: {
          tags,
          summary:
            'Import entries from CSV (multipart, one file part): with dryRun=true the preview and every problem, ' +
            'nothing saved; otherwise all rows or none',
          querystring: AddressBookImportQuerySchema,
          response: { 200: AddressBookImportResultSchema },
        },
        handler: async (request) => {
          const bytes = await readCsvUpload(request);
          return service.import(principalOf(request), bytes, request.query.dryRun, metaOf(request));
        },
      });
    });
  };
}
