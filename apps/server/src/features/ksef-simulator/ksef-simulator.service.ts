/**
 * The embedded KSeF 2.0 simulator (issue 13 §2): KSeF TEST's behaviour for the subset in
 * `ksef-api-subset-simulator.json`. It is a simulator, named so in its certificates, logs and UPOs.
 *
 * Asynchronous stages without timers: each operation is decided when it arrives (an invoice is decrypted, XSD-checked
 * on the CPU pool and numbered in its request) and stored with the times its stages become visible (`delayMs` apart),
 * so status reads answer from timestamps and a restart loses nothing.
 *
 * This file composes the parts, each in its `sim-*.ts`: the keys and pre-signed URLs (`sim-key-store`),
 * authentication (`sim-auth`), KSeF tokens (`sim-ksef-tokens`), the decision of one invoice (`sim-invoices`), online
 * and batch sessions (`sim-online`, `sim-batch`), statuses and UPOs (`sim-statuses`), receiving and KOD I
 * (`sim-receiving`) and the limits (`sim-limits`).
 */
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { createKsefSimulatorRepository } from './ksef-simulator.repository.ts';
import { createSimAuth } from './sim-auth.ts';
import { createSimBatch } from './sim-batch.ts';
import { createSimInvoices } from './sim-invoices.ts';
import { createSimKeyStore } from './sim-key-store.ts';
import { createSimKsefTokens } from './sim-ksef-tokens.ts';
import { createSimLimits } from './sim-limits.ts';
import { createSimOnline } from './sim-online.ts';
import { createRateLimiter, DEFAULT_RATE_LIMITS } from './sim-rate-limits.ts';
import { createSimReceiving } from './sim-receiving.ts';
import type { KsefSimulatorOptions, Log, SimBase } from './sim-shared.ts';
import { createSimStatuses } from './sim-statuses.ts';

export function createKsefSimulatorService(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  /** Where uploaded batch parts are kept until the session is processed. */
  blobs: BlobStore;
  log: Log;
  options: KsefSimulatorOptions;
}) {
  const { clock, cpu, log, options } = deps;
  const repo = createKsefSimulatorRepository(deps.db);
  const base: SimBase = { repo, clock, log, delay: options.delayMs };
  const limits = createSimLimits({
    limiter: createRateLimiter({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }),
    clock,
    log,
  });
  const keyStore = createSimKeyStore({ repo, clock, log, baseUrl: options.baseUrl });
  const auth = createSimAuth({ ...base, keyStore, options });
  const tokens = createSimKsefTokens(base);
  const invoices = createSimInvoices({ ...base, cpu, keyStore });
  const online = createSimOnline({ ...base, keyStore, recordInvoice: invoices.recordInvoice });
  const batch = createSimBatch({ ...base, blobs: deps.blobs, keyStore, recordInvoice: invoices.recordInvoice });
  const statuses = createSimStatuses({
    ...base,
    keyStore,
    invoiceView: invoices.invoiceView,
    ensureProcessing: batch.ensureProcessing,
  });
  const receiving = createSimReceiving({ ...base, keyStore });

  return {
    rateLimit: limits.rateLimit,
    authenticate: auth.authenticate,
    contextOf: auth.contextOf,
    publicKeyCertificates: keyStore.publicKeyCertificates,

    // ---------- authentication ----------
    challenge: auth.challenge,
    authWithKsefToken: auth.authWithKsefToken,
    authWithXades: auth.authWithXades,
    authStatus: auth.authStatus,
    redeem: auth.redeem,
    refresh: auth.refresh,
    listAuthSessions: auth.listAuthSessions,
    revokeCurrent: auth.revokeCurrent,

    // ---------- KSeF tokens ----------
    generateToken: tokens.generateToken,
    tokenView: tokens.tokenView,
    getToken: tokens.getToken,
    listTokens: tokens.listTokens,
    revokeToken: tokens.revokeToken,

    // ---------- sessions ----------
    openOnline: online.openOnline,
    sendInvoice: online.sendInvoice,
    openBatch: batch.openBatch,
    uploadBatchPart: batch.uploadBatchPart,
    closeBatch: batch.closeBatch,
    settle: batch.settle,
    closeOnline: online.closeOnline,

    // ---------- statuses and UPOs ----------
    getSession: statuses.getSession,
    listSessions: statuses.listSessions,
    sessionInvoices: statuses.sessionInvoices,
    invoiceStatus: statuses.invoiceStatus,
    invoiceUpo: statuses.invoiceUpo,
    sessionUpo: statuses.sessionUpo,
    presignedUpo: statuses.presignedUpo,

    // ---------- KOD I and receiving ----------
    verifyInvoice: receiving.verifyInvoice,
    invoiceByKsefNumber: receiving.invoiceByKsefNumber,
    queryMetadata: receiving.queryMetadata,
    createExport: receiving.createExport,
    exportStatus: receiving.exportStatus,
    presignedExportPart: receiving.presignedExportPart,

    // ---------- limits ----------
    rateLimits: limits.rateLimits,
    contextLimits: limits.contextLimits,
  };
}

export type KsefSimulatorService = ReturnType<typeof createKsefSimulatorService>;
