import fastifyMultipart from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AliasRegistrationGetRequestSchema,
  AliasRegistrationResponseSchema,
  AliasRegistrationSetFormSchema,
  DocumentPdfRequestSchema,
  DocumentViewRequestSchema,
  DownloadSignedEttnFormSchema,
  ETTN_FORM_MAX_BYTES,
  ETTN_SUPPORTING_DOCUMENT_MAX_BYTES,
  ETTN_XML_MAX_BYTES,
  EttnAliasSchema,
  EttnComposeDraftSchema,
  EttnComposeFormSchema,
  EttnSupportingDocumentActionSchema,
  EttnSupportingDocumentFormSchema,
  EttnSupportingDocumentSchema,
  EttnEventPageSchema,
  EttnEventsQuerySchema,
  EttnListQuerySchema,
  EttnPageSchema,
  EttnPartResponseSchema,
  EttnViewSchema,
  PendingPartGetRequestSchema,
  ProcessDocumentPartGetRequestSchema,
  RegisterEttnFormSchema,
  RegisterEttnResponseSchema,
  SignAndSendFormSchema,
  SignAndSendResponseSchema,
  isStorableText,
  type ErrorDetail,
} from '@portal/contracts';
import { AppError } from '../../lib/app-error.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { documentedBody } from '../../lib/openapi.ts';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { createEttnRegistrySimulator } from './ettn-registry.simulator.ts';
import { createEttnRepository } from './ettn.repository.ts';
import { createEttnService, type EttnCaller, type EttnDocumentsSource, type EttnService } from './ettn.service.ts';

const tags = ['ettn'];
const SIMULATOR_NOTE =
  'The registry behind these calls is the portal’s embedded e-TTN registry SIMULATOR (the central registry’s API ' +
  'is not public): its ids and registrations are not real. ';
const REFUSALS =
  'A refusal answers `ettn.<code>` (the description’s e-TTN codes) with `data.ettnCode` and `data.messages`, the ' +
  'text in each of the eleven languages; 29 carries the validator’s findings as `details`.';

/**
 * e-TTN for users holding the role `ettn` and the permission ETTN (which only a company with the toggle ETTN can
 * grant): the description, sections 2 and 7.
 */
async function requireEttn(request: FastifyRequest) {
  const p = principalOf(request);
  if (!p.roles.includes('ettn') || !p.permissions.includes('ETTN') || !p.toggles.includes('ETTN') || !p.companyId) {
    throw new AppError('auth.forbidden');
  }
}

const callerOf = (request: FastifyRequest): EttnCaller => {
  const p = principalOf(request);
  return {
    userId: p.userId,
    companyId: p.companyId!,
    roles: p.roles,
    language: p.language,
    permissions: p.permissions,
    sessionId: p.sessionId,
  };
};

const IdParamsSchema = z.object({ id: z.uuid({ error: 'uuid' }) });
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

type MultipartError = Error & { code?: string };

/**
 * The fields of a call the description sends as multipart (the text fields and at most one `file` part of at most
 * ETTN_XML_MAX_BYTES), or as JSON (the same fields, without a file), checked against the call's schema.
 */
async function readForm<S extends z.ZodType>(
  request: FastifyRequest,
  schema: S,
  /** A binary file (a supporting document's PDF) of at most this many bytes, instead of the XML. */
  binary?: { maxBytes: number },
): Promise<{ fields: z.infer<S>; file: string | undefined; upload: { fileName: string; bytes: Buffer } | undefined }> {
  const fileMaxBytes = binary?.maxBytes ?? ETTN_XML_MAX_BYTES;
  const formMaxBytes = fileMaxBytes + (ETTN_FORM_MAX_BYTES - ETTN_XML_MAX_BYTES);
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > formMaxBytes) throw new AppError('request.too_large', { data: { maxBytes: fileMaxBytes } });
  const raw: Record<string, unknown> = {};
  let file: string | undefined;
  let upload: { fileName: string; bytes: Buffer } | undefined;
  const details: ErrorDetail[] = [];
  if (request.isMultipart()) {
    try {
      for await (const part of request.parts({
        limits: { fileSize: fileMaxBytes, files: 1, fields: 30, fieldSize: 4096, parts: 31 },
      })) {
        if (part.type === 'field') {
          if (part.valueTruncated) details.push({ field: part.fieldname, code: 'tooLong' });
          else if (!(part.fieldname in raw)) raw[part.fieldname] = String(part.value);
          continue;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.file.truncated) {
          throw new AppError('request.too_large', { data: { maxBytes: fileMaxBytes } });
        }
        const bytes = Buffer.concat(chunks);
        if (bytes.length > 0 && binary) upload = { fileName: part.filename, bytes };
        else if (bytes.length > 0) file = bytes.toString('utf8');
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      const code = (error as MultipartError).code;
      if (code === 'FST_FILES_LIMIT') details.push({ field: 'file', code: 'tooManyFiles' });
      else if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new AppError('request.unsupported_media_type');
      else
        throw new AppError('request.malformed', { message: `Malformed multipart body: ${(error as Error).message}` });
    }
  } else if (request.body !== undefined && request.body !== null) {
    if (typeof request.body !== 'object' || Array.isArray(request.body)) {
      throw new AppError('validation.failed', { details: [{ field: 'body', code: 'type' }] });
    }
    Object.assign(raw, request.body);
  }
  // The XML may also come as a text field (JSON clients): text the portal keeps, so the storable-text rule holds.
  if ('file' in raw && binary) {
    delete raw['file'];
    details.push({ field: 'file', code: 'type' });
  } else if ('file' in raw) {
    const value = raw['file'];
    delete raw['file'];
    if (typeof value !== 'string') details.push({ field: 'file', code: 'type' });
    else if (!isStorableText(value)) details.push({ field: 'file', code: 'characters' });
    else if (value.length > 0) file ??= value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    details.push(...parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', code: i.message })));
  }
  if (details.length || !parsed.success) throw new AppError('validation.failed', { details });
  return { fields: parsed.data, file, upload };
}

/**
 * The e-TTN feature's parts: its repository, the embedded registry SIMULATOR behind the registry interface (where a
 * connector to the real registry plugs in), the service and its routes.
 */
export function ettnFeature(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  log: FastifyBaseLogger;
  identityOf: (userId: string, companyId: string) => Promise<{ name: string; organization: string }>;
  /** The documents feature's service: a despatch advice is read through its access scope. */
  documents: EttnDocumentsSource;
  /** The server's BlobStore: supporting documents' PDFs. */
  blobs: BlobStore;
  /** The company's own GLNs (the companies feature), for the consignor of a composed note. */
  companyGlns: (companyId: string) => Promise<string[]>;
}) {
  const repo = createEttnRepository(deps.db);
  const registry = createEttnRegistrySimulator({ repo, clock: deps.clock, log: deps.log });
  const service = createEttnService({ ...deps, repo, registry });
  return { service, routes: ettnRoutes(service) };
}

/** `/api/ettns/...`: the description's calls (section 7) and the lists of the Registered and Pending screens. */
export function ettnRoutes(service: EttnService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/ettns/aliasRegistrationGet', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'The company’s aliases (EDRPOU) and subscriptions with their expiry (registry simulator)',
        description: SIMULATOR_NOTE + '`expiresSoon` is the earliest expiry within 14 days, for the expiry dialog.',
        body: AliasRegistrationGetRequestSchema.default({}),
        response: { 200: AliasRegistrationResponseSchema },
      },
      handler: (request) => service.aliasGet(callerOf(request), request.body),
    });

    app.get('/ettns', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'Registered e-TTNs of the company (the notes naming one of its aliases), newest change first',
        description:
          SIMULATOR_NOTE +
          'Filters: status, search (number, party name or EDRPOU), role (the company’s role), dateFrom/dateTo (issue ' +
          'date). `currentStep` and `mustAct` say what the note waits for and which party roles must act.',
        querystring: EttnListQuerySchema,
        response: { 200: EttnPageSchema },
      },
      handler: (request) => service.list(callerOf(request), request.query),
    });

    app.get('/ettns/pending', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'Pending e-TTNs: the company’s uploads (registerEttn) not yet signed and sent',
        querystring: EttnListQuerySchema,
        response: { 200: EttnPageSchema },
      },
      handler: (request) => service.listPending(callerOf(request), request.query),
    });

    app.get('/ettns/events', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'Events the registry simulator sent to the company (its subscriptions), newest first',
        querystring: EttnEventsQuerySchema,
        response: { 200: EttnEventPageSchema },
      },
      handler: (request) => service.events(callerOf(request), request.query),
    });

    app.post('/ettns/processDocumentPartGet', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'A registered transaction’s part BODY (the signed XML) or META (the registry’s facts), base64',
        description: SIMULATOR_NOTE + 'Another company’s note is a 404.',
        body: ProcessDocumentPartGetRequestSchema,
        response: { 200: EttnPartResponseSchema },
      },
      handler: (request) => service.processPart(callerOf(request), request.body),
    });

    app.post('/ettns/pendingPartGet', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'An uploaded, not yet sent e-TTN’s part BODY or META, base64',
        body: PendingPartGetRequestSchema,
        response: { 200: EttnPartResponseSchema },
      },
      handler: (request) => service.pendingPart(callerOf(request), request.body),
    });

    app.post('/ettns/documentView', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'A readable view of a note or act: parties, route, cargo, vehicles, signatures, acts, history',
        description: SIMULATOR_NOTE,
        body: DocumentViewRequestSchema,
        response: { 200: EttnViewSchema },
      },
      handler: (request) => service.view(callerOf(request), request.body),
    });

    app.post('/ettns/compose', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'Write a note from the create form (the company as consignor) and keep it as a pending upload',
        description:
          'The server writes the v3 note (transaction 0, unsigned) with the company’s registered alias as consignor ' +
          '(none registered: `ettn.5`), holds it to the v3 table (`ettn.29` with the findings) and keeps it in the ' +
          'Pending list, to be sent with `signAndSend {registeredFileId, signingPartyRoleCode: CZ}`. Needs ETTN_CZ ' +
          '(`ettn.20`). Fields the form does not ask (the driver’s RNOKPP and licence, КАТОТТГ codes and GLNs of the ' +
          'places, the truck’s brand and model) are written as plain stand-ins the simulator takes. ' +
          REFUSALS,
        body: EttnComposeFormSchema,
        response: { 200: RegisterEttnResponseSchema },
      },
      handler: (request) => service.compose(callerOf(request), request.body),
    });

    app.get('/ettns/compose/fromDespatchAdvice/:documentId', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'The create form filled from a despatch advice (DESADV) the user may read',
        description:
          'Number, date, lines and the consignee (buyer and delivery point) as far as the document states them. A ' +
          'document the user may not read is a 404; one that is not a despatch advice a 400 on `documentId`.',
        params: z.object({ documentId: z.uuid({ error: 'uuid' }) }),
        response: { 200: EttnComposeDraftSchema },
      },
      handler: (request) => service.composeFromDespatchAdvice(callerOf(request), request.params.documentId),
    });

    app.post('/ettns/supportingDocuments/:id/sign', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'Countersign a supporting document of a note as one of its parties',
        description:
          'A withdrawn document, or a second signature of the same role, is `ettn.12`; a note status that takes ' +
          'no supporting documents `ettn.24`; a role the user or the company does not hold `ettn.21`. ' +
          REFUSALS,
        params: IdParamsSchema,
        body: EttnSupportingDocumentActionSchema,
        response: { 200: EttnSupportingDocumentSchema },
      },
      handler: (request) =>
        service.signSupporting(callerOf(request), request.params.id, request.body.signingPartyRoleCode),
    });

    app.post('/ettns/supportingDocuments/:id/cancel', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'Withdraw a supporting document (the party that attached it)',
        description:
          'Another party is `ettn.21`; a document withdrawn already `ettn.12`; a note status that takes no ' +
          'supporting documents `ettn.24`. ' +
          REFUSALS,
        params: IdParamsSchema,
        body: EttnSupportingDocumentActionSchema,
        response: { 200: EttnSupportingDocumentSchema },
      },
      handler: (request) =>
        service.cancelSupporting(callerOf(request), request.params.id, request.body.signingPartyRoleCode),
    });

    app.get('/ettns/supportingDocuments/:id/file', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'A supporting document’s PDF, as an attachment',
        description: 'Another company’s note is a 404.',
        params: IdParamsSchema,
        response: { 200: z.any().describe('The PDF (application/pdf)') },
      },
      handler: async (request, reply) => {
        const file = await service.supportingFile(callerOf(request), request.params.id);
        return reply
          .type('application/pdf')
          .header('content-length', file.size)
          .header('content-disposition', contentDisposition(file.fileName))
          .send(file.body);
      },
    });

    await app.register(async (scopeRaw) => {
      // The multipart parser lives in this scope only; every other route keeps refusing multipart bodies.
      await scopeRaw.register(fastifyMultipart, { throwFileSizeLimit: false });
      const scope = scopeRaw.withTypeProvider<ZodTypeProvider>();
      const form = <S extends z.ZodType>(schema: S, withFile: boolean) =>
        documentedBody(
          ['multipart/form-data', 'application/json'],
          withFile && schema instanceof z.ZodObject ? schema.extend({ file: z.string().optional() }) : schema,
        );

      scope.post('/ettns/aliasRegistrationSet', {
        onRequest: requireEttn,
        config: form(AliasRegistrationSetFormSchema, false),
        schema: {
          tags,
          summary: 'Register or renew the company’s alias (EDRPOU) and its subscription, for a year (multipart)',
          description: SIMULATOR_NOTE + 'Another company’s alias is `ettn.25`. ' + REFUSALS,
          response: { 200: EttnAliasSchema },
        },
        handler: async (request) => {
          const { fields } = await readForm(request, AliasRegistrationSetFormSchema);
          return service.aliasSet(callerOf(request), fields);
        },
      });

      scope.post('/ettns/registerEttn', {
        onRequest: requireEttn,
        config: form(RegisterEttnFormSchema, true),
        schema: {
          tags,
          summary: 'Upload an e-TTN XML (multipart: file, fileName, signingPartyRoleCode) to sign and send later',
          description:
            `The XML at most ${ETTN_XML_MAX_BYTES} bytes. A document the v3 table refuses is \`ettn.29\`, a signature ` +
            'that does not verify `ettn.30`, a role the user does not hold or the company is not `ettn.20`. ' +
            REFUSALS,
          response: { 200: RegisterEttnResponseSchema },
        },
        handler: async (request) => {
          const { fields, file } = await readForm(request, RegisterEttnFormSchema);
          if (file === undefined)
            throw new AppError('validation.failed', { details: [{ field: 'file', code: 'required' }] });
          return service.registerEttn(callerOf(request), fields, file);
        },
      });

      scope.post('/ettns/signAndSend', {
        onRequest: requireEttn,
        config: form(SignAndSendFormSchema, true),
        schema: {
          tags,
          summary: 'Sign (demo signer) and send a note, its next step or an act to the registry simulator (multipart)',
          description:
            SIMULATOR_NOTE +
            'Without processId: a new note (registeredFileId or file). With processId: the next step of the note for ' +
            'signingPartyRoleCode (written by the server unless a file is given); actType starts an act; documentId ' +
            'of an act countersigns it, or rejects it with decision=reject. A step out of order is `ettn.7`, a role ' +
            'the user does not hold `ettn.20` (note) or `ettn.21` (act). ' +
            REFUSALS,
          response: { 200: SignAndSendResponseSchema },
        },
        handler: async (request) => {
          const { fields, file } = await readForm(request, SignAndSendFormSchema);
          return service.signAndSend(callerOf(request), fields, file);
        },
      });

      scope.post('/ettns/supportingDocuments', {
        onRequest: requireEttn,
        config: form(EttnSupportingDocumentFormSchema, true),
        schema: {
          tags,
          summary: 'Attach a supporting document (a PDF) to a note, signed by the attaching party (multipart)',
          description:
            `The PDF at most ${ETTN_SUPPORTING_DOCUMENT_MAX_BYTES} bytes (larger: 413); a file that is not a PDF is a ` +
            '400 on `file`. Another company’s note is a 404; a note status that takes no supporting documents ' +
            '`ettn.24`, a role the user or the company does not hold `ettn.21`. ' +
            REFUSALS,
          response: { 200: EttnSupportingDocumentSchema },
        },
        handler: async (request) => {
          const { fields, upload } = await readForm(request, EttnSupportingDocumentFormSchema, {
            maxBytes: ETTN_SUPPORTING_DOCUMENT_MAX_BYTES,
          });
          if (upload === undefined)
            throw new AppError('validation.failed', { details: [{ field: 'file', code: 'required' }] });
          // Only PDFs: the registry's supporting documents are PDF files, and the download is served as one.
          if (!upload.bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC))
            throw new AppError('validation.failed', { details: [{ field: 'file', code: 'pdf' }] });
          // The browser's name of the file, kept as text: no control characters (PostgreSQL refuses NUL).
          const printable = [...upload.fileName].filter((c) => c >= ' ' && c !== '\u007f').join('');
          const fileName = printable.trim().slice(0, 255) || 'document.pdf';
          return service.attachSupporting(callerOf(request), fields, { fileName, bytes: upload.bytes });
        },
      });

      scope.post('/ettns/downloadSignedEttn', {
        onRequest: requireEttn,
        config: form(DownloadSignedEttnFormSchema, false),
        schema: {
          tags,
          summary: 'Download a registered transaction’s signed XML (fileUrl: a transaction’s fileUrl of the view)',
          response: { 200: z.string().describe('The signed XML (application/xml)') },
        },
        handler: async (request, reply) => {
          const { fields } = await readForm(request, DownloadSignedEttnFormSchema);
          const { xml, fileName } = await service.download(callerOf(request), fields);
          return reply
            .type('application/xml; charset=utf-8')
            .header('content-disposition', contentDisposition(fileName))
            .send(xml);
        },
      });
    });

    app.post('/ettns/documentPdf', {
      onRequest: requireEttn,
      schema: {
        tags,
        summary: 'The note’s paper copy (PDF) with a QR code of its id',
        description: SIMULATOR_NOTE + 'Another company’s note is a 404.',
        body: DocumentPdfRequestSchema,
        response: { 200: z.any().describe('The PDF (application/pdf)') },
      },
      handler: async (request, reply) => {
        const view = await service.view(callerOf(request), { ...request.body, act: false });
        const pdf = await service.pdfOf(view);
        return reply
          .type('application/pdf')
          .header('content-disposition', contentDisposition(`ettn_${view.number ?? view.processId}.pdf`))
          .send(Buffer.from(pdf));
      },
    });
  };
}
