import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ContrlReportSchema,
  DownloadDirectoryRequestSchema,
  EDIFACT_DIRECTORY_ZIP_MAX_BYTES,
  EDIFACT_MAX_BYTES,
  EdifactDirectoriesResponseSchema,
  EdifactDirectoryInfoSchema,
  EdifactDirectoryUploadQuerySchema,
  EdifactDirectoryZipSchema,
  ValidateEdifactRequestSchema,
  ValidateEdifactResponseSchema,
} from '@portal/contracts';
import { AppError } from '../../lib/app-error.ts';
import { documentedBody } from '../../lib/openapi.ts';
import { requirePermission, requireRole } from '../../plugins/auth.ts';
import type { EdifactService } from './edifact.service.ts';

// JSON escaping can grow the text (\" and \uXXXX); the content itself is measured after parsing.
const JSON_BODY_LIMIT = EDIFACT_MAX_BYTES * 2 + 1024;
const ZIP_LIMIT = EDIFACT_DIRECTORY_ZIP_MAX_BYTES;

function checkSize(content: string): void {
  if (Buffer.byteLength(content, 'utf8') > EDIFACT_MAX_BYTES) {
    throw new AppError('request.too_large', {
      data: { maxBytes: EDIFACT_MAX_BYTES },
      details: [{ field: 'content', code: 'tooLarge', params: { max: EDIFACT_MAX_BYTES } }],
    });
  }
}

export function edifactRoutes(service: EdifactService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/validation/edifact', {
      bodyLimit: JSON_BODY_LIMIT,
      preHandler: requirePermission('DOCUMENT_VALIDATION_CREATE'),
      schema: {
        tags: ['validation'],
        summary: 'Validate EDIFACT text: syntax, UN/EDIFACT directory, EANCOM guide',
        body: ValidateEdifactRequestSchema,
        response: { 200: ValidateEdifactResponseSchema },
      },
      handler: async (request) => {
        checkSize(request.body.content);
        return service.validate(request.body.content, request.body.strict ?? false);
      },
    });

    app.post('/validation/edifact/contrl', {
      bodyLimit: JSON_BODY_LIMIT,
      preHandler: requirePermission('DOCUMENT_VALIDATION_CREATE'),
      schema: {
        tags: ['validation'],
        summary: 'The CONTRL syntax and service report for EDIFACT text',
        body: ValidateEdifactRequestSchema,
        response: { 200: ContrlReportSchema },
      },
      handler: async (request, reply) => {
        checkSize(request.body.content);
        const text = await service.contrl(request.body.content, request.body.strict ?? false);
        return reply
          .type('application/edifact; charset=utf-8')
          .header('content-disposition', 'attachment; filename="CONTRL.edi"')
          .send(text);
      },
    });

    app.get('/admin/edifact/directories', {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['admin'],
        summary: 'The imported UN/EDIFACT directories',
        response: { 200: EdifactDirectoriesResponseSchema },
      },
      handler: async () => ({ directories: await service.listDirectories() }),
    });

    await app.register(async (scope) => {
      // A scope of its own so the zip parser applies to this route only.
      const upload = scope.withTypeProvider<ZodTypeProvider>();
      upload.addContentTypeParser(
        ['application/zip', 'application/octet-stream'],
        { parseAs: 'buffer', bodyLimit: ZIP_LIMIT },
        (_req, body, done) => done(null, body),
      );
      upload.post('/admin/edifact/directories', {
        bodyLimit: ZIP_LIMIT,
        // Before the body is read: a non-admin uploads nothing.
        onRequest: requireRole('admin'),
        config: documentedBody(['application/zip', 'application/octet-stream'], EdifactDirectoryZipSchema),
        schema: {
          tags: ['admin'],
          summary: 'Import a UNECE directory zip (the request body is the zip, as published)',
          querystring: EdifactDirectoryUploadQuerySchema,
          response: { 200: EdifactDirectoryInfoSchema },
        },
        handler: async (request) => {
          const body = request.body;
          if (!Buffer.isBuffer(body)) throw new AppError('request.unsupported_media_type');
          return service.importZip(new Uint8Array(body), `upload:${request.query.filename ?? 'directory.zip'}`);
        },
      });
    });

    app.post('/admin/edifact/directories/download', {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['admin'],
        summary: "Download a directory by name from UNECE's published location and import it",
        body: DownloadDirectoryRequestSchema,
        response: { 200: EdifactDirectoryInfoSchema },
      },
      handler: (request) => service.download(request.body.name),
    });
  };
}
