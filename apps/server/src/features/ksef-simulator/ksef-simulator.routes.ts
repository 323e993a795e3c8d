/**
 * The KSeF simulator's HTTP surface at `/ksef-simulator/v2` (outside `/api`: no portal login, its own Bearer
 * tokens): the paths, bodies, status codes and error formats of `ksef-api-subset-simulator.json`. Errors are written
 * in KSeF's formats by this scope's own handler; every route is rate-limited per (context, client IP) except the
 * pre-signed downloads, which KSeF does not limit either.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { badRequest, KSEF_CODES, KsefError, sendKsefError } from './ksef-errors.ts';
import type { KsefSimulatorService } from './ksef-simulator.service.ts';
import type { RateLimitGroup } from './sim-rate-limits.ts';
import { MAX_INVOICE_BYTES } from './sim-shared.ts';

const TAGS = ['KSeF simulator'];
const XML_BODY_BYTES = 256 * 1024;
/** An invoice of 1 MB, encrypted (+16 B) and in Base64 (4/3), with the JSON around it. */
const INVOICE_BODY_BYTES = Math.ceil(((MAX_INVOICE_BYTES + 16) * 4) / 3) + 16 * 1024;

const Reference = z.string().min(1).max(36);
const Base64 = z.string().max(4096);
const ContextIdentifier = z.object({
  type: z.enum(['Nip', 'InternalId', 'NipVatUe', 'PeppolId']),
  value: z.string().min(1).max(64),
});
const Encryption = z.object({
  encryptedSymmetricKey: Base64,
  initializationVector: z.string().max(64),
  publicKeyId: z.string().max(44).nullish(),
});
const FormCode = z.object({
  systemCode: z.string().max(64),
  schemaVersion: z.string().max(64),
  value: z.string().max(64),
});
const Hash = z.string().max(44);
const DateRange = z.object({
  dateType: z.enum(['Issue', 'Invoicing', 'PermanentStorage']),
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }).nullish(),
  restrictToPermanentStorageHwmDate: z.boolean().nullish(),
});
const Filters = z.object({
  subjectType: z.enum(['Subject1', 'Subject2', 'Subject3', 'SubjectAuthorized']),
  dateRange: DateRange,
});
const PageSize = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
const TokenPermission = z.enum([
  'InvoiceRead',
  'InvoiceWrite',
  'CredentialsRead',
  'CredentialsManage',
  'SubunitManage',
  'EnforcementOperations',
  'Introspection',
]);

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting Fastify's interface
  interface FastifyContextConfig {
    /** The KSeF simulator's rate-limit group of a route (NOTES §10); absent: not limited. */
    ksefGroup?: RateLimitGroup;
  }
}

const continuationOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers['x-continuation-token'];
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
};

export function ksefSimulatorRoutes(service: KsefSimulatorService): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();

    // KSeF's clients post empty bodies with a JSON content type (redeem, close): an empty body is no body here.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text) as unknown);
      } catch {
        done(badRequest(KSEF_CODES.inputValidation, 'Nieprawidłowy JSON.'), undefined);
      }
    });
    // Batch parts arrive as raw bytes; the route streams them to the blob store (bounded by the declared size).
    app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
    app.addContentTypeParser(
      ['application/xml', 'text/xml'],
      { parseAs: 'string', bodyLimit: XML_BODY_BYTES },
      (_request, body, done) => done(null, body),
    );

    app.setErrorHandler((error: unknown, request, reply) => {
      const now = new Date();
      if (error instanceof KsefError) return sendKsefError(error, request, reply, now);
      const e = error as { validation?: { message?: string }[]; code?: string; statusCode?: number; message?: string };
      if (e.validation) {
        const details = e.validation.slice(0, 20).map((v) => v.message ?? 'invalid');
        return sendKsefError(
          badRequest(KSEF_CODES.inputValidation, 'Błąd walidacji danych wejściowych.', details),
          request,
          reply,
          now,
        );
      }
      if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendKsefError(
          badRequest(KSEF_CODES.inputValidation, 'Przekroczono dopuszczalny rozmiar żądania.'),
          request,
          reply,
          now,
        );
      }
      if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
        return sendKsefError(badRequest(KSEF_CODES.unreadable, 'Nieobsługiwany format treści.'), request, reply, now);
      }
      if (error instanceof AppError && (error.code === 'server.busy' || error.code === 'request.processing_limit')) {
        request.log.warn({ err: error }, 'KSeF simulator: CPU pool refused');
        return reply
          .code(503)
          .header('retry-after', '5')
          .send({
            exception: {
              exceptionDetailList: [{ exceptionCode: 0, exceptionDescription: 'Usługa chwilowo niedostępna.' }],
            },
          });
      }
      request.log.error({ err: error }, 'KSeF simulator: unexpected error');
      return reply.code(500).send({
        exception: {
          exceptionDetailList: [{ exceptionCode: 0, exceptionDescription: 'Wystąpił nieoczekiwany błąd.' }],
          serviceName: 'KSeF simulator',
        },
      });
    });
    app.setNotFoundHandler((request, reply) =>
      sendKsefError(
        new KsefError('not-found', 0, `Nie znaleziono zasobu ${request.method} ${request.url.split('?')[0] ?? ''}.`),
        request,
        reply,
        new Date(),
      ),
    );

    app.addHook('onRequest', async (request) => {
      const group = request.routeOptions.config.ksefGroup;
      if (!group) return;
      const context = (await service.contextOf(request.headers.authorization)) ?? 'anonymous';
      service.rateLimit(group, `${context}|${request.ip}`);
    });

    const caller = (request: FastifyRequest) => service.authenticate(request.headers.authorization);
    const xml = (reply: FastifyReply, body: { xml: string; hash: string }) =>
      reply.type('application/xml; charset=utf-8').header('x-ms-meta-hash', body.hash).send(body.xml);

    // ---------- security and authentication ----------
    r.get('/security/public-key-certificates', { schema: { tags: TAGS }, config: { ksefGroup: 'auth' } }, () =>
      service.publicKeyCertificates(),
    );
    r.post('/auth/challenge', { schema: { tags: TAGS }, config: { ksefGroup: 'auth' } }, (request) =>
      service.challenge(request.ip),
    );
    r.post(
      '/auth/ksef-token',
      {
        schema: {
          tags: TAGS,
          body: z.object({
            challenge: z.string().max(36),
            contextIdentifier: ContextIdentifier,
            encryptedToken: Base64,
            publicKeyId: z.string().max(44).nullish(),
          }),
        },
        config: { ksefGroup: 'auth' },
      },
      async (request, reply) => reply.code(202).send(await service.authWithKsefToken(request.body)),
    );
    r.post(
      '/auth/xades-signature',
      {
        bodyLimit: XML_BODY_BYTES,
        schema: { tags: TAGS, querystring: z.object({ verifyCertificateChain: z.string().max(5).optional() }) },
        config: { ksefGroup: 'auth' },
      },
      async (request, reply) => {
        if (typeof request.body !== 'string') throw badRequest(KSEF_CODES.unreadable, 'Oczekiwano dokumentu XML.');
        return reply.code(202).send(await service.authWithXades(request.body));
      },
    );
    r.post('/auth/token/redeem', { schema: { tags: TAGS }, config: { ksefGroup: 'auth' } }, (request) =>
      service.redeem(request.headers.authorization),
    );
    r.post('/auth/token/refresh', { schema: { tags: TAGS }, config: { ksefGroup: 'auth' } }, (request) =>
      service.refresh(request.headers.authorization),
    );
    r.get(
      '/auth/sessions',
      {
        schema: { tags: TAGS, querystring: z.object({ pageSize: PageSize(10, 100, 10) }) },
        config: { ksefGroup: 'other' },
      },
      async (request) =>
        service.listAuthSessions(await caller(request), request.query.pageSize, continuationOf(request)),
    );
    r.delete(
      '/auth/sessions/current',
      { schema: { tags: TAGS }, config: { ksefGroup: 'other' } },
      async (request, reply) => {
        await service.revokeCurrent(await caller(request));
        return reply.code(204).send();
      },
    );
    r.get(
      '/auth/:referenceNumber',
      { schema: { tags: TAGS, params: z.object({ referenceNumber: Reference }) }, config: { ksefGroup: 'auth' } },
      (request) => service.authStatus(request.params.referenceNumber, request.headers.authorization),
    );

    // ---------- KSeF tokens ----------
    r.post(
      '/tokens',
      {
        schema: {
          tags: TAGS,
          body: z.object({
            permissions: z.array(TokenPermission).min(1).max(10),
            description: z.string().min(5).max(256),
          }),
        },
        config: { ksefGroup: 'other' },
      },
      async (request, reply) => reply.code(202).send(await service.generateToken(await caller(request), request.body)),
    );
    r.get(
      '/tokens',
      {
        schema: {
          tags: TAGS,
          querystring: z.object({
            pageSize: PageSize(10, 100, 10),
            status: z.union([z.string().max(20), z.array(z.string().max(20)).max(5)]).optional(),
          }),
        },
        config: { ksefGroup: 'other' },
      },
      async (request) => {
        const statuses = request.query.status === undefined ? [] : [request.query.status].flat();
        return service.listTokens(await caller(request), request.query.pageSize, continuationOf(request), statuses);
      },
    );
    r.get(
      '/tokens/:referenceNumber',
      { schema: { tags: TAGS, params: z.object({ referenceNumber: Reference }) }, config: { ksefGroup: 'other' } },
      async (request) => service.getToken(await caller(request), request.params.referenceNumber),
    );
    r.delete(
      '/tokens/:referenceNumber',
      { schema: { tags: TAGS, params: z.object({ referenceNumber: Reference }) }, config: { ksefGroup: 'other' } },
      async (request, reply) => {
        await service.revokeToken(await caller(request), request.params.referenceNumber);
        return reply.code(204).send();
      },
    );

    // ---------- sessions ----------
    r.post(
      '/sessions/online',
      {
        schema: { tags: TAGS, body: z.object({ formCode: FormCode, encryption: Encryption }) },
        config: { ksefGroup: 'onlineSession' },
      },
      async (request, reply) => reply.code(201).send(await service.openOnline(await caller(request), request.body)),
    );
    r.post(
      '/sessions/online/:referenceNumber/invoices',
      {
        bodyLimit: INVOICE_BODY_BYTES,
        schema: {
          tags: TAGS,
          params: z.object({ referenceNumber: Reference }),
          body: z.object({
            invoiceHash: Hash,
            invoiceSize: z.number().int().min(1),
            encryptedInvoiceHash: Hash,
            encryptedInvoiceSize: z.number().int().min(1),
            encryptedInvoiceContent: z.string().min(1).max(INVOICE_BODY_BYTES),
            offlineMode: z.boolean().optional(),
            hashOfCorrectedInvoice: Hash.nullish(),
          }),
        },
        config: { ksefGroup: 'invoiceSend' },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(await service.sendInvoice(await caller(request), request.params.referenceNumber, request.body)),
    );
    r.post(
      '/sessions/online/:referenceNumber/close',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference }) },
        config: { ksefGroup: 'onlineSession' },
      },
      async (request, reply) => {
        await service.closeOnline(await caller(request), request.params.referenceNumber);
        return reply.code(204).send();
      },
    );
    r.post(
      '/sessions/batch',
      {
        schema: {
          tags: TAGS,
          body: z.object({
            formCode: FormCode,
            batchFile: z.object({
              fileSize: z.number().int().min(1),
              fileHash: Hash,
              compressionType: z.enum(['Zip', 'TarGz']).optional(),
              fileParts: z
                .array(z.object({ ordinalNumber: z.number().int(), fileSize: z.number().int().min(1), fileHash: Hash }))
                .min(1)
                .max(50),
            }),
            encryption: Encryption,
            offlineMode: z.boolean().optional(),
          }),
        },
        config: { ksefGroup: 'batchSession' },
      },
      async (request, reply) => reply.code(201).send(await service.openBatch(await caller(request), request.body)),
    );
    r.post(
      '/sessions/batch/:referenceNumber/close',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference }) },
        config: { ksefGroup: 'batchSession' },
      },
      async (request, reply) => {
        await service.closeBatch(await caller(request), request.params.referenceNumber);
        return reply.code(204).send();
      },
    );

    r.get(
      '/sessions',
      {
        schema: {
          tags: TAGS,
          querystring: z.object({
            pageSize: PageSize(10, 1000, 10),
            sessionType: z.enum(['Online', 'Batch']),
            referenceNumber: Reference.optional(),
          }),
        },
        config: { ksefGroup: 'sessionList' },
      },
      async (request) =>
        service.listSessions(await caller(request), {
          sessionType: request.query.sessionType,
          referenceNumber: request.query.referenceNumber,
          pageSize: request.query.pageSize,
          continuationToken: continuationOf(request),
        }),
    );
    r.get(
      '/sessions/:referenceNumber',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference }) },
        config: { ksefGroup: 'sessionMisc' },
      },
      async (request) => service.getSession(await caller(request), request.params.referenceNumber),
    );
    for (const failed of [false, true]) {
      r.get(
        `/sessions/:referenceNumber/invoices${failed ? '/failed' : ''}`,
        {
          schema: {
            tags: TAGS,
            params: z.object({ referenceNumber: Reference }),
            querystring: z.object({ pageSize: PageSize(10, 1000, 10) }),
          },
          config: { ksefGroup: 'sessionInvoiceList' },
        },
        async (request) =>
          service.sessionInvoices(
            await caller(request),
            request.params.referenceNumber,
            failed,
            request.query.pageSize,
            continuationOf(request),
          ),
      );
    }
    r.get(
      '/sessions/:referenceNumber/invoices/:invoiceReferenceNumber',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference, invoiceReferenceNumber: Reference }) },
        config: { ksefGroup: 'invoiceStatus' },
      },
      async (request) =>
        service.invoiceStatus(
          await caller(request),
          request.params.referenceNumber,
          request.params.invoiceReferenceNumber,
        ),
    );
    r.get(
      '/sessions/:referenceNumber/invoices/ksef/:ksefNumber/upo',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference, ksefNumber: z.string().max(36) }) },
        config: { ksefGroup: 'sessionMisc' },
      },
      async (request, reply) =>
        xml(
          reply,
          await service.invoiceUpo(await caller(request), request.params.referenceNumber, {
            ksefNumber: request.params.ksefNumber,
          }),
        ),
    );
    r.get(
      '/sessions/:referenceNumber/invoices/:invoiceReferenceNumber/upo',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference, invoiceReferenceNumber: Reference }) },
        config: { ksefGroup: 'sessionMisc' },
      },
      async (request, reply) =>
        xml(
          reply,
          await service.invoiceUpo(await caller(request), request.params.referenceNumber, {
            invoiceRef: request.params.invoiceReferenceNumber,
          }),
        ),
    );
    r.get(
      '/sessions/:referenceNumber/upo/:upoReferenceNumber',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference, upoReferenceNumber: Reference }) },
        config: { ksefGroup: 'sessionMisc' },
      },
      async (request, reply) =>
        xml(
          reply,
          await service.sessionUpo(
            await caller(request),
            request.params.referenceNumber,
            request.params.upoReferenceNumber,
          ),
        ),
    );

    // ---------- receiving ----------
    r.get(
      '/invoices/ksef/:ksefNumber',
      {
        schema: { tags: TAGS, params: z.object({ ksefNumber: z.string().max(36) }) },
        config: { ksefGroup: 'invoiceDownload' },
      },
      async (request, reply) =>
        xml(reply, await service.invoiceByKsefNumber(await caller(request), request.params.ksefNumber)),
    );
    r.post(
      '/invoices/query/metadata',
      {
        schema: {
          tags: TAGS,
          body: Filters.passthrough(),
          querystring: z.object({
            sortOrder: z.enum(['Asc', 'Desc']).default('Asc'),
            pageOffset: z.coerce.number().int().min(0).max(10_000).default(0),
            pageSize: PageSize(10, 250, 10),
          }),
        },
        config: { ksefGroup: 'invoiceMetadata' },
      },
      async (request) => service.queryMetadata(await caller(request), request.body, request.query),
    );
    r.post(
      '/invoices/exports',
      {
        schema: {
          tags: TAGS,
          body: z.object({
            encryption: Encryption,
            onlyMetadata: z.boolean().optional(),
            filters: Filters.passthrough(),
            compressionType: z.enum(['Zip', 'TarGz']).optional(),
          }),
        },
        config: { ksefGroup: 'invoiceExport' },
      },
      async (request, reply) => reply.code(201).send(await service.createExport(await caller(request), request.body)),
    );
    r.get(
      '/invoices/exports/:referenceNumber',
      {
        schema: { tags: TAGS, params: z.object({ referenceNumber: Reference }) },
        config: { ksefGroup: 'invoiceExportStatus' },
      },
      async (request) => service.exportStatus(await caller(request), request.params.referenceNumber),
    );

    // ---------- limits ----------
    r.get('/rate-limits', { schema: { tags: TAGS }, config: { ksefGroup: 'other' } }, async (request) => {
      await caller(request);
      return service.rateLimits();
    });
    r.get('/limits/context', { schema: { tags: TAGS }, config: { ksefGroup: 'other' } }, async (request) => {
      await caller(request);
      return service.contextLimits();
    });

    // ---------- pre-signed uploads and downloads (no token, not limited) ----------
    r.put(
      '/presigned/batch-part/:a/:b',
      {
        schema: {
          tags: TAGS,
          hide: true,
          params: z.object({ a: Reference, b: z.string().max(3) }),
          querystring: z.object({ se: z.string().max(12), sig: z.string().max(64) }),
        },
      },
      async (request, reply) => {
        const body = request.body as AsyncIterable<Uint8Array> | undefined;
        if (!body || typeof (body as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function') {
          throw badRequest(KSEF_CODES.unreadable, 'Oczekiwano treści application/octet-stream.');
        }
        await service.uploadBatchPart(request.params.a, request.params.b, request.query.se, request.query.sig, body);
        return reply.code(201).send();
      },
    );
    // ---------- pre-signed downloads ----------
    const Presigned = {
      params: z.object({
        kind: z.enum(['upo-invoice', 'upo-session', 'export']),
        a: z.string().max(64),
        b: z.string().max(64),
      }),
      querystring: z.object({ se: z.string().max(12), sig: z.string().max(64) }),
    };
    r.get('/presigned/:kind/:a/:b', { schema: { tags: TAGS, hide: true, ...Presigned } }, async (request, reply) => {
      const { kind, a, b } = request.params;
      const { se, sig } = request.query;
      if (kind === 'export') {
        const part = await service.presignedExportPart(a, b, se, sig);
        return reply.type('application/octet-stream').header('x-ms-meta-hash', part.hash).send(part.bytes);
      }
      return xml(reply, await service.presignedUpo(kind, a, b, se, sig));
    });
  };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * KOD I in the demo (issue 13): the simulator's QR host is `/ksef-simulator`, so the verification link printed on a
 * PDF, `/ksef-simulator/invoice/{NIP}/{DD-MM-YYYY}/{SHA-256 Base64URL}`, opens this page: read-only, no login, and
 * plainly the simulator's. It says whether the simulator holds that invoice, with what KSeF's own page shows before
 * any login (numbers, date, seller, buyer, amount); 404 otherwise.
 */
export function ksefSimulatorQrRoutes(service: Pick<KsefSimulatorService, 'verifyInvoice'>): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>();
    r.get(
      '/invoice/:nip/:date/:hash',
      {
        schema: {
          tags: TAGS,
          summary: 'KOD I verification page (simulator)',
          params: z.object({ nip: z.string().max(20), date: z.string().max(20), hash: z.string().max(64) }),
        },
      },
      async (request, reply) => {
        const { nip, date, hash } = request.params;
        const found = await service.verifyInvoice(nip, date, hash);
        const rows: [string, string][] = found
          ? [
              ['Numer KSeF / KSeF number', found.ksefNumber],
              ['Numer faktury / Invoice number', found.invoiceNumber],
              ['Data wystawienia / Issue date', found.issueDate],
              ['Data przyjęcia / Acquisition date', found.acquisitionDate],
              ['Sprzedawca / Seller', [found.seller.nip, found.seller.name].filter(Boolean).join(' · ')],
              ['Nabywca / Buyer', [found.buyer.identifier.value, found.buyer.name].filter(Boolean).join(' · ') || '—'],
              ['Kwota brutto / Gross amount', `${found.grossAmount} ${found.currency}`],
            ]
          : [];
        const body = found
          ? `<p class="ok">Faktura znajduje się w symulatorze KSeF. / The invoice is in the KSeF simulator.</p>
<table>${rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`
          : `<p class="no">Nie znaleziono faktury o podanych danych. / No invoice with these data.</p>`;
        return reply
          .code(found ? 200 : 404)
          .type('text/html; charset=utf-8')
          .header('x-robots-tag', 'noindex')
          .send(
            `<!doctype html><html lang="pl"><head><meta charset="utf-8"><title>KSeF simulator – KOD I</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;margin:2rem;max-width:48rem}.banner{background:#fde68a;padding:.5rem 1rem}
th{text-align:start;padding:.25rem 1rem .25rem 0;color:#555}.ok{color:#166534}.no{color:#991b1b}</style></head>
<body><p class="banner">Symulator KSeF portalu – nie jest to KSeF Ministerstwa Finansów. / The portal's KSeF simulator, not
the Ministry's KSeF.</p><h1>Weryfikacja faktury (KOD I)</h1>
<p>NIP ${escapeHtml(nip)} · ${escapeHtml(date)}</p>${body}</body></html>`,
          );
      },
    );
  };
}
