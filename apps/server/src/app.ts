import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { MAX_JSON_BODY_BYTES } from '@portal/contracts';
import type { Config } from './config.ts';
import type { BlobStore } from './storage/blob-store.ts';
import { openBlobStore } from './storage/open-blob-store.ts';
import type { Database } from './db/client.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { AppError } from './lib/app-error.ts';
import { registerAuth } from './plugins/auth.ts';
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler.ts';
import { createAuditService } from './features/audit/audit.service.ts';
import { createAuthRepository } from './features/auth/auth.repository.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { createAuthService } from './features/auth/auth.service.ts';
import { createTokenService } from './features/auth/tokens.service.ts';
import { createCompaniesService } from './features/companies/companies.service.ts';
import { groupsRoutes } from './features/groups/groups.routes.ts';
import { createGroupsService } from './features/groups/groups.service.ts';
import { createUsersService } from './features/users/users.service.ts';
import { createMailService } from './features/mail/mail.service.ts';
import { createCpuPool, type CpuPool } from './cpu/pool.ts';
import { edifactRoutes } from './features/edifact/edifact.routes.ts';
import { createEdifactService } from './features/edifact/edifact.service.ts';
import { systemRoutes } from './features/system/system.routes.ts';
import { usersRoutes } from './features/users/users.routes.ts';
import { profileRoutes } from './features/profile/profile.routes.ts';
import { appConfigRoutes } from './features/app-config/app-config.routes.ts';
import { adminRoutes } from './features/admin/admin.routes.ts';
import { impersonationRoutes } from './features/impersonation/impersonation.routes.ts';
import { issueReportsRoutes } from './features/issue-reports/issue-reports.routes.ts';
import { companyUsersRoutes } from './features/user-management/company-users.routes.ts';
import { createCompanyUsersService } from './features/user-management/company-users.service.ts';
import { restrictionsRoutes } from './features/restrictions/restrictions.routes.ts';
import { createRestrictionsService } from './features/restrictions/restrictions.service.ts';
import { addressBookRoutes } from './features/address-book/address-book.routes.ts';
import { createAddressBookService } from './features/address-book/address-book.service.ts';
import { createPartnersRepository } from './features/partners/partners.repository.ts';
import { partnersRoutes } from './features/partners/partners.routes.ts';
import { productsRoutes } from './features/products/products.routes.ts';
import { draftsRoutes } from './features/drafts/drafts.routes.ts';
import { createDraftsService } from './features/drafts/drafts.service.ts';
import { readUserSettings } from './features/profile/profile.service.ts';
import { createProductsService, type ProductsService } from './features/products/products.service.ts';
import { createPartnersService, type PartnersService } from './features/partners/partners.service.ts';
import { effectiveRestrictions } from './features/restrictions/restrictions.service.ts';
import { documentsFeature } from './features/documents/documents.routes.ts';
import { createDemoDocumentsService, demoSessionHooks } from './features/documents/demo-documents.service.ts';
import { apiKeysRoutes, inboundRoutes } from './features/api-keys/api-keys.routes.ts';
import { createApiKeysService } from './features/api-keys/api-keys.service.ts';
import { createDocumentEnrichment, type DocumentsService } from './features/documents/documents.service.ts';
import { chatFeature } from './features/chat/chat.routes.ts';
import { ettnFeature } from './features/ettn/ettn.routes.ts';
import { ksefRoutes } from './features/ksef/ksef.routes.ts';
import { createKsefService, type KsefService } from './features/ksef/ksef.service.ts';
import { createSecretBox, loadSecretsKey } from './lib/secret-box.ts';
import { inProcessFetch } from './lib/in-process-fetch.ts';
import { ksefSimulatorQrRoutes, ksefSimulatorRoutes } from './features/ksef-simulator/ksef-simulator.routes.ts';
import { createKsefSimulatorService } from './features/ksef-simulator/ksef-simulator.service.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { createJobHandlers } from './jobs/handlers.ts';
import { jobsRoutes } from './jobs/jobs.routes.ts';
import { StaticFilesAtDebug } from './request-logging.ts';

export type BuildAppOptions = {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Access-token lifetime override (tests and the e2e suite use short ones to exercise refresh). */
  accessTtlSeconds?: number;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** A blob store of the caller's choosing instead of the one STORAGE_URL names (tests of the S3 store). */
  blobs?: BlobStore;
};

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Builds the whole server: infrastructure in a fixed order (errors, security headers, OpenAPI, authentication),
 * then every feature from one explicit list, then the web app.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const db = database.db;

  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    logController: new StaticFilesAtDebug(),
    genReqId: () => randomUUID(),
    bodyLimit: MAX_JSON_BODY_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables in a style element at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Left out so a plain-http localhost works; production sits behind TLS with HSTS.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Open EDI Portal API',
        version: '0.1.0',
        description: 'Every endpoint of the portal. Private routes need `Authorization: Bearer <access token>`.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // A company API key, for POST /api/documents/inbound only (decision 0023).
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  const tokens = await createTokenService({
    db,
    clock,
    issuer: config.publicUrl,
    privateKeyPem: config.jwtPrivateKey,
    accessTtlSeconds: options.accessTtlSeconds ?? config.accessTokenTtlSeconds,
  });
  const audit = createAuditService({ db, clock });
  // The owners of the shared tables (decision 0013); other features get them as dependencies.
  const users = createUsersService({ db });
  const groups = createGroupsService({ db, users, audit, clock });
  const companies = createCompaniesService({ db, groups });
  // The job queue before the services that enqueue; its workers start once every handler's service exists.
  const jobs = createJobQueue({ database, log: app.log, pollingIntervalSeconds: config.jobPollSeconds });
  await jobs.start();
  const mail = createMailService({ db, clock, log: app.log, smtpUrl: config.smtpUrl, from: config.mailFrom, jobs });
  const authRepo = createAuthRepository(db);
  const auth = createAuthService({
    db,
    repo: authRepo,
    users,
    companies,
    groups,
    tokens,
    mail,
    audit,
    clock,
    publicUrl: config.publicUrl,
    sessions: demoSessionHooks({ db, jobs, companies }),
  });
  const restrictions = createRestrictionsService({ db, users, groups, audit, clock });
  const companyUsers = createCompanyUsersService({
    db,
    users,
    groups,
    companies,
    restrictions,
    auth,
    audit,
    mail,
    clock,
    publicUrl: config.publicUrl,
  });
  const partners = createPartnersService({
    db,
    repo: createPartnersRepository(db),
    audit,
    clock,
    mail,
    companies,
    partnerScopeOf: async (userId) =>
      (await effectiveRestrictions(db, userId)).flatMap((r) => (r.partners.length ? [r.partners] : [])),
  });
  const cpu = createCpuPool({
    timeLimitMs: config.cpuTaskTimeoutMs,
    queueWaitMs: config.cpuQueueWaitMs,
    ...(config.cpuThreads ? { threads: config.cpuThreads } : {}),
  });
  app.addHook('onClose', () => cpu.close());
  const products = createProductsService({ db, clock, cpu });
  let blobs = options.blobs;
  if (!blobs) {
    const opened = await openBlobStore(config.storage, db);
    app.addHook('onClose', async () => opened.close());
    // A missing bucket or wrong credentials stop the start, rather than the first upload.
    await opened.ready();
    blobs = opened;
  }
  const edifact = await createEdifactService({
    // The directories live in the blob store; DATA_DIR/edifact is this process's copy of them (decision 0019).
    cachePath: `${config.dataDir}/edifact`,
    blobs,
    log: app.log,
    cpu,
    downloadBaseUrl: config.edifactDownloadBaseUrl,
  });
  await edifact.importAtStart(config.edifactDirectoriesImport, { shipped: config.edifactShippedDirectories });
  // Company secrets (KSeF tokens and keys) are sealed with this key (decision 0037).
  const secrets = createSecretBox(
    loadSecretsKey(config.secretsKey, `${config.dataDir}/secrets.key`, (message) => app.log.warn(message)),
  );
  const ksefSimulatorUrl = `${config.publicUrl}/ksef-simulator/v2`;
  const ksef = createKsefService({
    db,
    clock,
    cpu,
    audit,
    secrets,
    simulatorBaseUrl: ksefSimulatorUrl,
    companies,
    jobs,
    // The documents service needs this one (its outbox's follow-up), so it is read when used.
    documents: () => documents.service,
    // The portal reaches its own simulator in process: the public address may not be reachable from inside.
    fetch: inProcessFetch(app, ksefSimulatorUrl),
    receiveIntervalMs: config.ksefReceiveIntervalMs,
  });
  const documents = documentsFeature({
    db,
    clock,
    cpu,
    outbox: ksef.outbox,
    ksef: { verificationOf: (doc) => ksef.verificationOf(doc) },
    enrichment: createDocumentEnrichment({
      companies,
      partners,
      addressBook: createAddressBookService({ db, audit, clock, cpu }),
    }),
    blobs,
    jobs,
    edifact,
    companies,
    partners,
    users,
    products,
    inlineMaxBytes: config.documentsInlineMaxBytes,
    ingestBatchMessages: config.documentsIngestBatchMessages,
    log: app.log,
  });
  const drafts = createDraftsService({
    db,
    clock,
    cpu,
    edifact,
    partners,
    products,
    documents: documents.service,
    companies: {
      find: (id) => companies.find(id),
      ownGlns: async (companyId) =>
        (await companies.locations.list({ companyId }, { kind: 'company', limit: 100, includeTotal: false })).items.map(
          (l) => l.gln,
        ),
    },
    users: { settingsOf: async (userId) => readUserSettings((await users.findById(userId))?.settings ?? {}) },
  });
  const apiKeys = createApiKeysService({ db, clock, audit, companies });
  const demoDocuments = createDemoDocumentsService({
    db,
    clock,
    blobs,
    jobs,
    log: app.log,
    documents: documents.service,
    companies,
    sessions: auth,
  });
  // The help assistant (decision 0031): its index of the help articles is built here, once.
  const chat = chatFeature({ db, clock, log: app.log, config: config.chat });
  app.addHook('onClose', async () => chat.close());
  await jobs.handle(createJobHandlers({ mail, documents: documents.service, demoDocuments, ksef }), {
    workers: config.jobWorkers,
  });
  // The sweep of demo sessions that ended without a logout reschedules itself; this starts it (once per period).
  await demoDocuments.schedule();
  // Each KSeF company's receiving job reschedules itself too; this starts them (once per period and company).
  await ksef.scheduleReceiving();
  app.decorate('services', {
    db,
    clock,
    tokens,
    mail,
    audit,
    auth,
    cpu,
    edifact,
    jobs,
    partners,
    products,
    documents: documents.service,
    ksef,
  });

  await app.register(
    async (api) => {
      // Authentication is scoped to the API: the web app's files and the docs UI are public.
      registerAuth(api, { clock, tokens, users });
      await api.register(systemRoutes({ db, tokens, legacyEdiUrl: config.legacyEdiUrl }));
      await api.register(authRoutes(auth));
      await api.register(usersRoutes({ users, clock }));
      await api.register(edifactRoutes(edifact));
      await api.register(profileRoutes({ db, clock, audit, auth, users, companies }));
      await api.register(appConfigRoutes({ db, clock, companies }));
      await api.register(adminRoutes({ db, clock, audit, auth, companies, users, groups, mail }));
      await api.register(impersonationRoutes({ clock, audit, auth, users, companies }));
      await api.register(
        issueReportsRoutes({ db, clock, audit, mail, users, supportEmail: config.supportEmail, blobs }),
      );
      await api.register(companyUsersRoutes(companyUsers));
      await api.register(groupsRoutes(groups));
      await api.register(restrictionsRoutes(restrictions));
      await api.register(addressBookRoutes({ db, clock, audit, cpu }));
      await api.register(partnersRoutes(partners));
      await api.register(productsRoutes(products));
      await api.register(draftsRoutes(drafts));
      await api.register(documents.routes);
      await api.register(apiKeysRoutes(apiKeys));
      await api.register(ksefRoutes(ksef));
      await api.register(inboundRoutes({ apiKeys, documents: documents.service, maxBytes: config.inboundMaxBytes }));
      await api.register(jobsRoutes(jobs));
      await api.register(chat.routes);
      // e-TTN (issue 14) over the embedded registry simulator; the registry interface is where a real one plugs in.
      const ettn = ettnFeature({
        db,
        clock,
        cpu,
        log: app.log,
        identityOf: async (userId, companyId) => {
          const [user, company] = await Promise.all([users.findById(userId), companies.find(companyId)]);
          const name = `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim() || (user?.email ?? userId);
          return { name, organization: company?.name ?? 'e-TTN demo' };
        },
        documents: documents.service,
        blobs,
        companyGlns: async (companyId) =>
          (
            await companies.locations.list({ companyId }, { kind: 'company', limit: 10, includeTotal: false })
          ).items.map((l) => l.gln),
      });
      await api.register(ettn.routes);
    },
    { prefix: '/api' },
  );

  if (config.ksefSimulator.enabled) {
    // The embedded KSeF simulator (issue 13 §2): outside /api, no portal login, its own Bearer tokens.
    const ksefSimulator = createKsefSimulatorService({
      db,
      clock,
      cpu,
      blobs,
      log: app.log,
      options: { baseUrl: `${config.publicUrl}/ksef-simulator/v2`, ...config.ksefSimulator },
    });
    await app.register(ksefSimulatorRoutes(ksefSimulator), { prefix: '/ksef-simulator/v2' });
    // Its QR host (KOD I, issue 13): the verification link printed on an invoice's PDF opens a page of the simulator.
    await app.register(ksefSimulatorQrRoutes(ksefSimulator), { prefix: '/ksef-simulator' });
  }

  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const webDist = config.webDist ?? DEFAULT_WEB_DIST;
  const hasWeb = existsSync(`${webDist}/index.html`);
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // Any other page is a route of the single-page app.
    if (hasWeb && request.method === 'GET' && !path.startsWith('/api') && !/\.[a-z0-9]+$/i.test(path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    throw new AppError('request.not_found', { message: `Route ${request.method} ${path} not found` });
  });

  app.addHook('onClose', async () => {
    // Running jobs finish (or are failed, to be retried) before the SMTP transport they may use closes.
    await jobs.stop();
    mail.close();
  });
  return app;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting Fastify's interface
  interface FastifyInstance {
    services: {
      db: Database['db'];
      clock: Clock;
      tokens: Awaited<ReturnType<typeof createTokenService>>;
      mail: ReturnType<typeof createMailService>;
      audit: ReturnType<typeof createAuditService>;
      auth: ReturnType<typeof createAuthService>;
      cpu: CpuPool;
      edifact: Awaited<ReturnType<typeof createEdifactService>>;
      jobs: JobQueue;
      /** For the documents: `ensurePartner` and `notifyPartnerEvent`. */
      partners: PartnersService;
      /** For the documents' ingest, later: `fillFromPriceCatalogue` from a received PRICAT. */
      products: ProductsService;
      /** The documents' service (its stream intake, `receive`, for the inbound endpoint and the ingest bench). */
      documents: DocumentsService;
      /** For the demo start: `issueInSimulator` (ksef.demo.ts). */
      ksef: KsefService;
    };
  }
}
