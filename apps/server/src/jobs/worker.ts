import { createAddressBookService } from '../features/address-book/address-book.service.ts';
import Fastify from 'fastify';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createMailService } from '../features/mail/mail.service.ts';
import { createAuditService } from '../features/audit/audit.service.ts';
import { createCompaniesService } from '../features/companies/companies.service.ts';
import { createDocumentEnrichment, createDocumentsService } from '../features/documents/documents.service.ts';
import { createKsefService } from '../features/ksef/ksef.service.ts';
import { createSecretBox, loadSecretsKey } from '../lib/secret-box.ts';
import { createDemoDocumentsService } from '../features/documents/demo-documents.service.ts';
import { liveSessions } from '../features/auth/auth.service.ts';
import { createPartnersService } from '../features/partners/partners.service.ts';
import { createProductsService } from '../features/products/products.service.ts';
import { effectiveRestrictions } from '../features/restrictions/restrictions.service.ts';
import { createEdifactService } from '../features/edifact/edifact.service.ts';
import { createGroupsService } from '../features/groups/groups.service.ts';
import { createUsersService } from '../features/users/users.service.ts';
import { createCpuPool } from '../cpu/pool.ts';
import { openBlobStore } from '../storage/open-blob-store.ts';
import { systemClock } from '../lib/clock.ts';
import { createJobHandlers } from './handlers.ts';
import { createJobQueue } from './queue.ts';
import { keepHeapsSmall } from '../lib/heap.ts';

/**
 * `npm run worker`: the job workers without the API, for when they scale apart (API processes then run with
 * JOB_WORKERS=false). Same configuration as the server.
 */
async function main(): Promise<void> {
  keepHeapsSmall();
  const config = loadConfig();
  if (!config.databaseUrl) {
    // PGlite's files belong to one process: the server started by `npm start` runs the workers itself.
    throw new ConfigError('npm run worker needs DATABASE_URL: the embedded database is used by one process only.');
  }
  // The server's logger settings, without a server.
  const log = Fastify({ logger: { level: config.logLevel } }).log;
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const jobs = createJobQueue({ database, log, pollingIntervalSeconds: config.jobPollSeconds });
  await jobs.start();
  const mail = createMailService({
    db: database.db,
    clock: systemClock,
    log,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    jobs,
  });
  // What the documents' ingest needs: the blob store, the CPU pool with the EDIFACT directories, the companies.
  const db = database.db;
  const blobs = await openBlobStore(config.storage, db);
  await blobs.ready();
  const cpu = createCpuPool({
    timeLimitMs: config.cpuTaskTimeoutMs,
    queueWaitMs: config.cpuQueueWaitMs,
    ...(config.cpuThreads ? { threads: config.cpuThreads } : {}),
  });
  const edifact = await createEdifactService({ cachePath: `${config.dataDir}/edifact`, blobs, log, cpu });
  const audit = createAuditService({ db, clock: systemClock });
  const users = createUsersService({ db });
  const groups = createGroupsService({ db, users, audit, clock: systemClock });
  const companies = createCompaniesService({ db, groups });
  const partners = createPartnersService({
    db,
    audit,
    clock: systemClock,
    mail,
    companies,
    partnerScopeOf: async (userId) =>
      (await effectiveRestrictions(db, userId)).flatMap((r) => (r.partners.length ? [r.partners] : [])),
  });
  // KSeF submissions (issue 13): this process reaches the simulator at the public address, as any KSeF.
  const ksef = createKsefService({
    db,
    clock: systemClock,
    cpu,
    audit,
    secrets: createSecretBox(loadSecretsKey(config.secretsKey, `${config.dataDir}/secrets.key`, (m) => log.warn(m))),
    simulatorBaseUrl: `${config.publicUrl}/ksef-simulator/v2`,
    companies,
    jobs,
    documents: () => documents,
  });
  const documents = createDocumentsService({
    db,
    clock: systemClock,
    cpu,
    outbox: ksef.outbox,
    blobs,
    jobs,
    edifact,
    companies,
    partners,
    users,
    // The ingest job fills a received price catalogue's products, as the API's inline ingest does.
    products: createProductsService({ db, clock: systemClock, cpu }),
    enrichment: createDocumentEnrichment({
      companies,
      partners,
      addressBook: createAddressBookService({
        db,
        audit,
        clock: systemClock,
        cpu,
      }),
    }),
    inlineMaxBytes: config.documentsInlineMaxBytes,
    ingestBatchMessages: config.documentsIngestBatchMessages,
  });
  const demoDocuments = createDemoDocumentsService({
    db,
    clock: systemClock,
    blobs,
    jobs,
    log,
    documents,
    companies,
    sessions: { liveSessions: (ids) => liveSessions(db, ids, systemClock.now()) },
  });
  await jobs.handle(createJobHandlers({ mail, documents, demoDocuments, ksef }), { workers: true });
  log.info({ pollSeconds: config.jobPollSeconds }, 'job workers running');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping job workers');
    const force = setTimeout(() => process.exit(1), 30_000).unref();
    await jobs.stop({ timeoutMs: 20_000 });
    mail.close();
    await cpu.close();
    await blobs.close();
    await database.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
