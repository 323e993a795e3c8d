/** The HTTP side of a feature's CSV import and export (lib/csv-import.ts): the multipart upload and the download. */
import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestAsyncHookHandler } from 'fastify';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import { AppError } from './app-error.ts';
import { documentedBody } from './openapi.ts';

/** The CSV file of an import form: its one file part, cut off at the size limit. */
async function readCsvUpload(request: FastifyRequest, maxBytes: number): Promise<Uint8Array> {
  let file;
  try {
    file = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6 } });
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
 * `POST <url>`: a CSV file in a multipart body (one file part, at most `maxBytes`), with a query such as `dryRun`.
 * Registered in a scope of its own, so that every other route keeps refusing multipart bodies.
 */
export async function registerCsvImportRoute<Q extends z.ZodType, R extends z.ZodType>(
  app: FastifyInstance,
  route: {
    url: string;
    maxBytes: number;
    onRequest: onRequestAsyncHookHandler;
    tags: string[];
    summary: string;
    querystring: Q;
    response: R;
    handler: (request: FastifyRequest, bytes: Uint8Array, query: z.output<Q>) => Promise<z.input<R>>;
  },
): Promise<void> {
  // Typed as a plain schema: the app's zod compilers still validate the query and serialize the answer, and
  // `route.handler`'s signature carries the types (Fastify cannot resolve a reply type over generic schemas).
  const schema: FastifySchema = {
    tags: route.tags,
    summary: route.summary,
    querystring: route.querystring,
    response: { 200: route.response },
  };
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: route.maxBytes } });
    scope.post(route.url, {
      // Before the body is read: a caller without the permission uploads nothing.
      onRequest: route.onRequest,
      bodyLimit: route.maxBytes + 64 * 1024,
      config: documentedBody(['multipart/form-data'], z.object({ file: z.string().describe('The CSV file') })),
      schema,
      handler: async (request) => {
        const bytes = await readCsvUpload(request, route.maxBytes);
        return route.handler(request, bytes, request.query as z.output<Q>);
      },
    });
  });
}

/** Sends CSV rows as a download (UTF-8 with BOM, CRLF line ends, as spreadsheets read it) named `filename`. */
export function sendCsv(reply: FastifyReply, rows: AsyncIterable<string[]>, filename: string): FastifyReply {
  const source = Readable.from(rows);
  const csv = source.pipe(stringify({ bom: true, record_delimiter: 'windows' }));
  // A database failure mid-stream ends the download short rather than leaving the socket open.
  source.on('error', (error) => csv.destroy(error));
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv);
}
