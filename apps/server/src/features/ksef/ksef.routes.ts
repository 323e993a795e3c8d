import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  isStorableText,
  KSEF_CERTIFICATE_MAX_BYTES,
  KsefConnectionTestSchema,
  KsefConnectionSchema,
  KsefReceiveAcceptedSchema,
  KsefSettingsUpdateSchema,
  KsefSubmissionViewSchema,
  IdParamsSchema,
} from '@portal/contracts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { AppError } from '../../lib/app-error.ts';
import { documentedBody } from '../../lib/openapi.ts';
import { metaOf } from '../../lib/request-meta.ts';
import { principalOf, requirePermission } from '../../plugins/auth.ts';
import type { KsefService } from './ksef.service.ts';

const PASSWORD_MAX = 1000;

/** The certificate form: one file part and an optional `password` field, in either order, within the limits. */
async function readCertificateForm(request: FastifyRequest): Promise<{ data: Uint8Array; password: string }> {
  let data: Uint8Array | null = null;
  let password = '';
  try {
    for await (const part of request.parts({
      limits: { fileSize: KSEF_CERTIFICATE_MAX_BYTES, files: 1, fields: 2, parts: 3, fieldSize: PASSWORD_MAX },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          await part.toBuffer();
          continue;
        }
        const bytes = await part.toBuffer();
        data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      } else if (part.fieldname === 'password') {
        password = String(part.value ?? '');
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('validation.failed', { details: [{ field: 'file', code: 'fileTooLarge' }] });
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('request.unsupported_media_type');
    throw new AppError('request.malformed', { message: 'Malformed multipart body' });
  }
  if (!isStorableText(password)) {
    throw new AppError('validation.failed', { details: [{ field: 'password', code: 'characters' }] });
  }
  if (!data || data.length === 0) {
    throw new AppError('validation.failed', { details: [{ field: 'file', code: 'required' }] });
  }
  return { data, password };
}

/**
 * The company's KSeF connection on the profile's company panel (issue 13, part 3): company administrators in a
 * company with the KSeF toggle. The permission is checked before any body is read.
 */
export function ksefRoutes(service: KsefService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['company'];
    const onRequest = requirePermission('COMPANY_PROFILE_MODIFY');

    app.get('/company/ksef', {
      onRequest,
      schema: {
        tags,
        summary: "The company's KSeF connection: NIP, environment, login method (never the token or the key)",
        response: { 200: KsefConnectionSchema },
      },
      handler: (request) => service.get(principalOf(request)),
    });

    app.put('/company/ksef', {
      onRequest,
      schema: {
        tags,
        summary: 'Set the NIP, the environment and the login method; a token given replaces the one kept',
        body: KsefSettingsUpdateSchema,
        response: { 200: KsefConnectionSchema },
      },
      handler: (request) => service.update(principalOf(request), request.body, metaOf(request)),
    });

    app.post('/company/ksef/test', {
      onRequest,
      schema: {
        tags,
        summary: "Log in to the company's KSeF and out again: whether the settings work, or what KSeF answered",
        response: { 200: KsefConnectionTestSchema },
      },
      handler: (request) => service.test(principalOf(request)),
    });

    app.post('/company/ksef/receive', {
      onRequest,
      schema: {
        tags,
        summary:
          "Receive the company's purchase invoices from KSeF now (they also arrive periodically); they land in the inbox",
        response: { 202: KsefReceiveAcceptedSchema },
      },
      handler: async (request, reply) => {
        await service.receiveNow(principalOf(request));
        return reply.code(202).send({ queued: true });
      },
    });

    app.get('/documents/:id/ksef', {
      schema: {
        tags: ['documents'],
        summary:
          "An outbox invoice's way to KSeF: state, KSeF number, acquisition timestamp, session, element and token references, the Ministry's reasons (null: never submitted)",
        params: IdParamsSchema,
        response: { 200: KsefSubmissionViewSchema.nullable() },
      },
      handler: (request) => service.submissionOf(principalOf(request), request.params.id),
    });

    app.get('/documents/:id/ksef/upo', {
      schema: {
        tags: ['documents'],
        summary: "The invoice's UPO (the official receipt), as KSeF signed it",
        params: IdParamsSchema,
      },
      handler: async (request, reply) => {
        const upo = await service.upoOf(principalOf(request), request.params.id);
        return reply
          .type('application/xml; charset=utf-8')
          .header('content-disposition', contentDisposition(`UPO_${upo.ksefNumber}.xml`))
          .send(upo.xml);
      },
    });

    await app.register(async (scope) => {
      await scope.register(fastifyMultipart, { limits: { fileSize: KSEF_CERTIFICATE_MAX_BYTES } });
      scope.post('/company/ksef/certificate', {
        onRequest,
        bodyLimit: KSEF_CERTIFICATE_MAX_BYTES + 16 * 1024,
        config: documentedBody(
          ['multipart/form-data'],
          z.object({
            file: z.string().describe('A PKCS#12 file, or PEM with the certificate and its private key'),
            password: z.string().optional().describe("The file's or the key's password"),
          }),
        ),
        schema: {
          tags,
          summary: 'Set the certificate the company logs in to KSeF with (XAdES); its key is kept sealed',
          response: { 200: KsefConnectionSchema },
        },
        handler: async (request) =>
          service.setCertificate(principalOf(request), await readCertificateForm(request), metaOf(request)),
      });
    });
  };
}
