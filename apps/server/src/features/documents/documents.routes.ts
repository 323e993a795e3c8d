import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  DOCUMENT_UPLOAD_MAX_BYTES,
  DOCUMENT_UPLOAD_MAX_FILES,
  DocumentChainSchema,
  DocumentCodesSchema,
  DocumentDetailSchema,
  DocumentListQuerySchema,
  DocumentOriginalQuerySchema,
  DocumentPdfQuerySchema,
  DocumentPageSchema,
  IdParamsSchema,
  UploadDocumentsQuerySchema,
  UploadDocumentsResponseSchema,
  type DocumentDirection,
  type FeaturePermission,
} from '@portal/contracts';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import type { JobEnqueuer } from '../../jobs/queue.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { documentedBody } from '../../lib/openapi.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { EdifactService } from '../edifact/edifact.service.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { createDocumentsService, type DocumentsService, type UploadedFile } from './documents.service.ts';
import type {
  DocumentCompanies,
  DocumentKsef,
  DocumentOutbox,
  DocumentPartners,
  DocumentProducts,
  DocumentUsers,
} from './documents.dependencies.ts';
import type { DocumentEnrichment } from './documents.enrichment.ts';
import { documentActionsRoutes } from './document-actions.routes.ts';
import { createDocumentActionsService } from './document-actions.service.ts';
import { createDocumentChainService } from './document-chain.service.ts';
import { documentResponseRoutes } from './document-response.routes.ts';
import { createDocumentResponseService, type ResponsePartners } from './document-response.service.ts';

const tags = ['documents'];

/** Uploading into the inbox takes inbox modify; into the outbox, outbox create (description, section 6). */
const UPLOAD_PERMISSION: Record<DocumentDirection, FeaturePermission> = { in: 'INBOX_MODIFY', out: 'OUTBOX_CREATE' };

/** The file parts of an upload, each cut off at the size limit: an oversized file is a 413 naming it. */
async function readFiles(request: FastifyRequest): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  try {
    const parts = request.parts({
      limits: {
        fileSize: DOCUMENT_UPLOAD_MAX_BYTES,
        files: DOCUMENT_UPLOAD_MAX_FILES,
        fields: 5,
        parts: DOCUMENT_UPLOAD_MAX_FILES + 5,
      },
    });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      const bytes = await part.toBuffer();
      if (part.fieldname !== 'file') continue;
      if (!part.filename && bytes.length === 0) continue;
      const fileName = (part.filename || 'file').slice(0, 255);
      if (bytes.length === 0) {
        throw new AppError('validation.failed', {
          details: [{ field: 'file', code: 'fileEmpty', params: { name: fileName } }],
        });
      }
      files.push({ fileName, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('request.too_large', {
        details: [{ field: 'file', code: 'fileTooLarge', params: { max: DOCUMENT_UPLOAD_MAX_BYTES } }],
        data: { maxBytes: DOCUMENT_UPLOAD_MAX_BYTES },
      });
    }
    if (code === 'FST_FILES_LIMIT') {
      throw new AppError('validation.failed', {
        details: [{ field: 'file', code: 'tooManyFiles', params: { max: DOCUMENT_UPLOAD_MAX_FILES } }],
      });
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('request.unsupported_media_type');
    throw new AppError('request.malformed', { message: 'Malformed multipart body' });
  }
  if (files.length === 0) throw new AppError('validation.failed', { details: [{ field: 'file', code: 'required' }] });
  return files;
}

/**
 * Documents (issue 11): upload EDIFACT into the inbox or the outbox, the inbox and outbox lists, one document, its
 * original bytes. Returns the routes and the service (the job handlers run its ingest). Every read goes through the document access scope (decision 0010): a foreign or restricted id is 404.
 */
export function documentsFeature(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  blobs: BlobStore;
  jobs: JobEnqueuer;
  edifact: Pick<EdifactService, 'directoryRef'>;
  companies: DocumentCompanies;
  partners: DocumentPartners & ResponsePartners;
  users: DocumentUsers;
  products?: DocumentProducts | undefined;
  enrichment?: DocumentEnrichment | undefined;
  outbox?: DocumentOutbox | undefined;
  ksef?: DocumentKsef | undefined;
  inlineMaxBytes: number;
  ingestBatchMessages?: number | undefined;
  log?: { warn(details: object, message: string): void } | undefined;
}): { routes: FastifyPluginAsyncZod; service: DocumentsService } {
  const service = createDocumentsService(deps);
  const actions = createDocumentActionsService({ ...deps, documents: service });
  const chain = createDocumentChainService({ db: deps.db });
  const responses = createDocumentResponseService({ ...deps, documents: service });
  const routes: FastifyPluginAsyncZod = async (app) => {
    await app.register(documentActionsRoutes(actions));
    await app.register(documentResponseRoutes(responses));
    app.get('/documents', {
      schema: {
        tags,
        summary:
          'The inbox (direction=in, INBOX_READ) or the outbox (direction=out, OUTBOX_READ): every filter of the ' +
          'description, sort on any column, keyset pages, the total on request',
        querystring: DocumentListQuerySchema,
        response: { 200: DocumentPageSchema },
      },
      handler: (request) => service.list(principalOf(request), request.query),
    });

    app.get('/documents/:id', {
      schema: {
        tags,
        summary:
          'One document: its row, canonical body, findings, status history and links (an inbox copy opened the first time becomes Read)',
        params: IdParamsSchema,
        response: { 200: DocumentDetailSchema },
      },
      handler: (request) => service.get(principalOf(request), request.params.id),
    });

    app.get('/documents/:id/chain', {
      schema: {
        tags,
        summary:
          "The document's chain: the documents its references connect it with (order, responses, despatch advices, " +
          'invoices…), with their statuses, oldest first; what the reader may see',
        params: IdParamsSchema,
        response: { 200: DocumentChainSchema },
      },
      handler: (request) => chain.chain(principalOf(request), request.params.id),
    });

    app.get('/documents/:id/codes', {
      schema: {
        tags,
        summary:
          "The names of the document's codes (element → code → name) and of its segments' elements, from the " +
          'UN/EDIFACT directory of its version; `directory: null` when that directory is not imported',
        params: IdParamsSchema,
        response: { 200: DocumentCodesSchema },
      },
      handler: (request) => service.codes(principalOf(request), request.params.id),
    });

    app.get('/documents/:id/original', {
      schema: {
        tags,
        summary:
          "The original, named by the user's file naming format and in the user's file encoding (or `encoding`; " +
          '`original` keeps the bytes as received); 422 `documents.unencodable` names a character the encoding lacks',
        params: IdParamsSchema,
        querystring: DocumentOriginalQuerySchema,
      },
      handler: async (request, reply) => {
        const original = await service.original(principalOf(request), request.params.id, request.query);
        return reply
          .type('application/edifact')
          .header('content-disposition', contentDisposition(original.fileName))
          .header('content-length', String(original.size))
          .send(original.body instanceof Uint8Array ? Buffer.from(original.body) : original.body);
      },
    });

    app.get('/documents/:id/pdf', {
      schema: {
        tags,
        summary:
          "The document as a PDF in the reader's language (or `language`); sets the additional status Printed when " +
          'the reader may modify it (INBOX_MODIFY / OUTBOX_MODIFY)',
        params: IdParamsSchema,
        querystring: DocumentPdfQuerySchema,
      },
      handler: async (request, reply) => {
        const pdf = await service.pdf(principalOf(request), request.params.id, request.query);
        return reply
          .type('application/pdf')
          .header('content-disposition', contentDisposition(pdf.fileName))
          .header('cache-control', 'no-store')
          .send(Buffer.from(pdf.bytes.buffer, pdf.bytes.byteOffset, pdf.bytes.byteLength));
      },
    });

    await app.register(async (scopeRaw) => {
      // The multipart parser lives in this scope only; every other route keeps refusing multipart bodies.
      await scopeRaw.register(fastifyMultipart, { limits: { fileSize: DOCUMENT_UPLOAD_MAX_BYTES } });
      const scope = scopeRaw.withTypeProvider<ZodTypeProvider>();
      scope.post('/documents/upload', {
        // Before the body is read: a caller without the permission uploads nothing. A bad direction is left to the
        // schema (400 on `direction`).
        onRequest: async (request) => {
          const direction = (request.query as { direction?: unknown }).direction;
          if (direction === 'in' || direction === 'out') await requirePermission(UPLOAD_PERMISSION[direction])(request);
        },
        bodyLimit: DOCUMENT_UPLOAD_MAX_FILES * (DOCUMENT_UPLOAD_MAX_BYTES + 64 * 1024),
        config: documentedBody(
          ['multipart/form-data'],
          z.object({ file: z.string().describe('An EDIFACT interchange; the part may repeat') }),
        ),
        schema: {
          tags,
          summary:
            'Upload EDIFACT interchanges (multipart, one or more `file` parts, 20 MB each) into the inbox or the ' +
            'outbox; per file the documents created (or, for a duplicate, those of the first upload) and the findings',
          querystring: UploadDocumentsQuerySchema,
          response: { 200: UploadDocumentsResponseSchema },
        },
        handler: async (request) => {
          const files = await readFiles(request);
          return { files: await service.upload(principalOf(request), request.query.direction, files) };
        },
      });
    });
  };
  return { routes, service };
}
