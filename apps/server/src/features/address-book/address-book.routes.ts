import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
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
import { registerCsvImportRoute, sendCsv } from '../../lib/csv-routes.ts';
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
      handler: (request, reply) => sendCsv(reply, service.exportRows(principalOf(request)), 'address-book.csv'),
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

    await registerCsvImportRoute(app, {
      url: '/address-book/import',
      maxBytes: ADDRESS_BOOK_IMPORT_MAX_BYTES,
      onRequest: modify,
      tags,
      summary:
        'Import entries from CSV (multipart, one file part): with dryRun=true the preview and every problem, ' +
        'nothing saved; otherwise all rows or none',
      querystring: AddressBookImportQuerySchema,
      response: AddressBookImportResultSchema,
      handler: (request, bytes, query) => service.import(principalOf(request), bytes, query.dryRun, metaOf(request)),
    });
  };
}
