import {
  KSEF_PORTAL_CODES,
  KsefSettingsUpdateSchema,
  hasPermission,
  isValidNip,
  type FeaturePermission,
  type FeatureToggle,
  type KsefConnectionTest,
  type KsefConnectionView,
  type KsefSettingsUpdate,
  type KsefSubmissionView,
} from '@portal/contracts';
import {
  createTestCertificate,
  KSEF_ENVIRONMENTS,
  KsefApiError,
  KsefClient,
  KsefRateLimitError,
  KsefStatusError,
  type KsefCredentials,
} from '@portal/ksef/client';
import { correctedInvoiceOf, invoiceVerificationUrl, KSEF_QR_HOSTS, sha256Base64Url } from '@portal/ksef';
import { X509Certificate } from 'node:crypto';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import type { CanonicalDocument } from '@portal/documents';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { JobRun } from '../../jobs/jobs.ts';
import type { JobEnqueuer } from '../../jobs/queue.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf } from '../../lib/company-scope.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { emptyDocument } from '@portal/documents';
import { createKsefRepository, type KsefSettingsRow } from './ksef.repository.ts';
import { demoPurchaseInvoice } from './ksef.demo.ts';
import type { ReceivedInvoice } from './ksef.tasks.ts';

export type KsefCaller = {
  userId: string;
  companyId: string | null;
  permissions: readonly FeaturePermission[];
  toggles: readonly FeatureToggle[];
};

/** What the ksef feature hands the documents to store a received invoice (documents.service.ts `storeReceived`). */
export type ReceivedDocument = {
  companyId: string;
  key: { senderId: string; controlReference: string };
  recipientId: string;
  syntax: string;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
  document: {
    kind: string;
    documentType: string;
    number: string | null;
    referenceNumber: string | null;
    /** The invoice's KSeF number (the lists' KSeF number column). */
    ksefNumber: string | null;
    functionCode: string | null;
    documentNameCode: string | null;
    messageType: string;
    standard: string;
    version: string;
    partnerGln: string | null;
    partnerName: string | null;
    buyerTaxId: string | null;
    sellerTaxId: string | null;
    businessDate: string | null;
    status: string;
    findings: unknown[];
    body: CanonicalDocument;
  };
  reason: string;
};

const withNumber = (body: CanonicalDocument, number: string): CanonicalDocument => ({
  ...body,
  header: { ...body.header, number },
});

/** The first export of a company looks back this far (KSeF allows windows of at most 3 months, NOTES §9). */
const RECEIVE_FIRST_DAYS = 30;
/** One export window (KSeF: at most 3 months). */
const RECEIVE_WINDOW_DAYS = 89;
/** KSeF's own environments: a subject type's export at most every 15 minutes (NOTES §9). */
const RECEIVE_MIN_INTERVAL_KSEF_MS = 15 * 60_000;
/** Truncated packages fetched one after another in one run before the next run goes on. */
const RECEIVE_MAX_PACKAGES = 20;
const DAY_MS = 86_400_000;
/**
 * Runs of one submission (its `attempts`) after which a 429 is no longer waited out but fails like any other error:
 * a KSeF that keeps refusing does not keep an invoice waiting for ever.
 */
const SEND_MAX_RUNS = 30;
/**
 * A correction whose invoice is still on its way to KSeF waits for the invoice's KSeF number: its next run starts
 * 2, 4, 8, 16, then every 30 seconds later (an invoice usually takes seconds), at most this many times (about an hour);
 * then the correction fails, naming the invoice, rather than saying the invoice was issued outside KSeF.
 */
const CORRECTION_MAX_WAITS = 120;
const correctionWaitSeconds = (waits: number): number => Math.min(30, 2 ** (waits + 1));

/** What a login of the company needs: where KSeF is and the credentials. */
export type KsefConnection = { baseUrl: string; credentials: KsefCredentials };

const TOKEN_PURPOSE = 'ksef.token';
const KEY_PURPOSE = 'ksef.private-key';

/**
 * A company's KSeF connection (issue 13, part 3; decision 0037): its company administrators (COMPANY_PROFILE_MODIFY)
 * set the NIP, the environment and the login, in a company with the toggle KSEF or DEMO_KSEF. The token and the
 * private key are sealed at rest and never answered back.
 */
export function createKsefService(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  audit: AuditService;
  secrets: SecretBox;
  /** The portal's own simulator (`…/ksef-simulator/v2`). */
  simulatorBaseUrl: string;
  /** How the client reaches KSeF (tests route the simulator through the app). */
  fetch?: typeof fetch;
  /** Where a submission's job is written, in the document's transaction. */
  jobs: JobEnqueuer;
  /** The outbox invoice a submission sends (the documents service; set once it exists, it needs this service too). */
  documents: () => {
    outboxDocument(companyId: string, id: string): Promise<{ body: CanonicalDocument; number: string | null } | null>;
    /**
     * The company's outbox invoices of a number and issue date, with their KSeF numbers (the invoice a correction
     * names; the documents service's `outboxInvoicesByNumber`).
     */
    outboxInvoicesByNumber(
      companyId: string,
      invoice: { number: string; issueDate: string },
    ): Promise<{ id: string; ksefNumber: string | null }[]>;
    readable(caller: KsefCaller, id: string): Promise<boolean>;
    /** Stores a received invoice in the company's inbox once per key (the documents service's `storeReceived`). */
    storeReceived(input: ReceivedDocument): Promise<string | null>;
    /**
     * Records an accepted invoice's KSeF number on the company's document, in the caller's transaction (the documents
     * service's `recordKsefNumber`: the documents feature owns the column the lists show).
     */
    recordKsefNumber(tx: Db, input: { companyId: string; documentId: string; ksefNumber: string }): Promise<boolean>;
  };
  /** Between two receiving runs of a company on the simulator; on KSeF itself at least 15 minutes (NOTES §9). */
  receiveIntervalMs?: number;
  /** The company's name, VAT id and toggles (the companies service's `find`), for the demo-ksef binding. */
  companies: {
    find(id: string, tx?: Db): Promise<{ name: string; vatId: string | null; toggles: readonly string[] } | undefined>;
  };
}) {
  const repo = createKsefRepository(deps.db);

  const allow = (caller: KsefCaller) => {
    if (!caller.toggles.includes('KSEF') && !caller.toggles.includes('DEMO_KSEF')) throw new AppError('auth.forbidden');
    if (!hasPermission({ roles: [], permissions: caller.permissions, toggles: [] }, 'COMPANY_PROFILE_MODIFY')) {
      throw new AppError('auth.forbidden');
    }
    return companyOf(caller);
  };

  const baseUrlOf = (row: Pick<KsefSettingsRow, 'environment' | 'baseUrl'>): string =>
    row.environment === 'simulator'
      ? deps.simulatorBaseUrl
      : row.environment === 'custom'
        ? row.baseUrl!
        : KSEF_ENVIRONMENTS[row.environment as keyof typeof KSEF_ENVIRONMENTS];

  const toSettings = (row: KsefSettingsRow | undefined): KsefConnectionView => {
    if (!row) {
      return {
        configured: false,
        nip: null,
        environment: null,
        baseUrl: null,
        authMethod: null,
        hasToken: false,
        certificate: null,
        updatedAt: null,
        receivedAt: null,
      };
    }
    const cert = row.certificatePem ? new X509Certificate(row.certificatePem) : null;
    return {
      configured: true,
      nip: row.nip,
      environment: row.environment as KsefConnectionView['environment'],
      baseUrl: row.environment === 'custom' ? row.baseUrl : baseUrlOf(row),
      authMethod: row.authMethod as KsefConnectionView['authMethod'],
      hasToken: Boolean(row.tokenSealed),
      certificate: cert
        ? {
            subject: cert.subject.split('\n').join(', '),
            validFrom: new Date(cert.validFrom).toISOString(),
            validTo: new Date(cert.validTo).toISOString(),
            fingerprint: cert.fingerprint256,
          }
        : null,
      updatedAt: row.updatedAt.toISOString(),
      receivedAt: row.receivedAt?.toISOString() ?? null,
    };
  };

  const record = (caller: KsefCaller, companyId: string, details: Record<string, unknown>, meta: RequestMeta) =>
    deps.audit.record({
      event: 'ksef.settings_changed',
      actorUserId: caller.userId,
      companyId,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details,
    });

  /**
   * The demo-ksef variant (issue 13, part 3): a company with the toggle DEMO_KSEF and no settings yet is bound to the
   * portal's simulator with a TEST certificate of its NIP (from its Polish VAT id), so its first invoice can go out
   * without setup. Any other company is left as it is.
   */
  async function settingsOf(companyId: string): Promise<KsefSettingsRow | undefined> {
    const row = await repo.find(companyId);
    if (row) return row;
    const company = await deps.companies.find(companyId);
    const nip = company?.vatId?.replace(/^PL/i, '').replace(/[\s-]/g, '') ?? '';
    if (!company?.toggles.includes('DEMO_KSEF') || !isValidNip(nip)) return undefined;
    const { certificatePem, privateKeyPem } = await createTestCertificate({
      nip,
      name: company.name,
      notBefore: new Date(deps.clock.now().getTime() - 86_400_000),
    });
    return repo.upsert(companyId, {
      nip,
      environment: 'simulator',
      baseUrl: null,
      authMethod: 'certificate',
      tokenSealed: null,
      certificatePem,
      privateKeySealed: deps.secrets.seal(privateKeyPem, KEY_PURPOSE),
      updatedAt: deps.clock.now(),
      updatedBy: null,
    });
  }

  /**
   * The QR host of KOD I for a connection (NOTES §1): KSeF's own per environment; for the portal's simulator (or a
   * custom address of another one, `…/ksef-simulator/v2`) the simulator's root, which answers `/invoice/…` itself.
   */
  const qrHostOf = (row: Pick<KsefSettingsRow, 'environment' | 'baseUrl'>): string | null => {
    if (row.environment === 'simulator') return deps.simulatorBaseUrl.replace(/\/v2\/?$/, '');
    if (row.environment in KSEF_QR_HOSTS) return KSEF_QR_HOSTS[row.environment as keyof typeof KSEF_QR_HOSTS];
    const base = row.baseUrl?.replace(/\/+$/, '') ?? '';
    const known = Object.entries(KSEF_ENVIRONMENTS).find(([, url]) => url === base)?.[0];
    if (known) return KSEF_QR_HOSTS[known as keyof typeof KSEF_QR_HOSTS];
    return /\/ksef-simulator\/v2$/.test(base) ? base.replace(/\/v2$/, '') : null;
  };

  /** The company's connection, or null when it has none that can log in. */
  async function connectionOf(companyId: string): Promise<KsefConnection | null> {
    const row = await settingsOf(companyId);
    if (!row) return null;
    const context = { type: 'Nip' as const, value: row.nip };
    if (row.authMethod === 'token' && row.tokenSealed) {
      return {
        baseUrl: baseUrlOf(row),
        credentials: {
          kind: 'token',
          context,
          token: deps.secrets.open(row.tokenSealed, TOKEN_PURPOSE).toString('utf8'),
        },
      };
    }
    if (row.authMethod === 'certificate' && row.certificatePem && row.privateKeySealed) {
      return {
        baseUrl: baseUrlOf(row),
        credentials: {
          kind: 'certificate',
          context,
          certificatePem: row.certificatePem,
          privateKey: deps.secrets.open(row.privateKeySealed, KEY_PURPOSE).toString('utf8'),
        },
      };
    }
    return null;
  }

  /** The period of a company's receiving runs: the configured one, and never under 15 minutes on KSeF itself. */
  const receivePeriodOf = (environment: string | null | undefined): number => {
    const configured = deps.receiveIntervalMs ?? 300_000;
    return environment && environment !== 'simulator' ? Math.max(configured, RECEIVE_MIN_INTERVAL_KSEF_MS) : configured;
  };

  /**
   * Enqueues the company's next receiving run at the start of the next period, once per period whoever asks (the
   * server at start, each run, a change of the settings): its key is the company and the period's start.
   */
  async function scheduleReceive(companyId: string, environment: string | null | undefined): Promise<void> {
    const period = receivePeriodOf(environment);
    const now = deps.clock.now().getTime();
    const next = Math.floor(now / period + 1) * period;
    // The wait is measured from this moment, not from the clock's: pg-boss's clock is the database's.
    await deps.jobs.enqueue(
      deps.db,
      'ksef.receive',
      { companyId },
      { key: `${companyId}/${next}`, startAfter: new Date(Date.now() + (next - now)) },
    );
  }

  /** The inbox row of one received invoice: a KSeF FA(3) invoice, its partner the seller. */
  const receivedDocument = (companyId: string, nip: string, invoice: ReceivedInvoice): ReceivedDocument => {
    const common = {
      documentType: 'KSEF_INVOICE',
      // The KSeF number is the invoice's reference in KSeF: listed and searchable beside the invoice's own number.
      referenceNumber: invoice.ksefNumber,
      ksefNumber: invoice.ksefNumber,
      messageType: 'FA(3)',
      standard: 'ksef',
      version: 'FA (3) 1-0E',
    };
    if (invoice.ok) {
      return {
        companyId,
        key: { senderId: invoice.sellerNip, controlReference: invoice.ksefNumber },
        recipientId: nip,
        syntax: 'XML:UTF-8',
        fileName: `${invoice.ksefNumber}.xml`,
        contentType: 'application/xml',
        bytes: invoice.xml,
        reason: 'ksef',
        document: {
          ...common,
          kind: invoice.body.kind,
          number: invoice.number,
          functionCode: invoice.body.header.functionCode ?? null,
          documentNameCode: invoice.body.header.documentNameCode ?? null,
          partnerGln: invoice.sellerGln,
          partnerName: invoice.sellerName,
          buyerTaxId: invoice.buyerNip,
          sellerTaxId: invoice.sellerNip,
          businessDate: invoice.issueDate,
          status: 'received',
          findings: [],
          body: invoice.body,
        },
      };
    }
    // An invoice KSeF took but the parser cannot read still arrives, in Error, with KSeF's metadata and the reason.
    const seller = invoice.meta.sellerNip ?? invoice.ksefNumber.slice(0, 10);
    return {
      companyId,
      key: { senderId: seller, controlReference: invoice.ksefNumber },
      recipientId: nip,
      syntax: 'XML:UTF-8',
      fileName: `${invoice.ksefNumber}.xml`,
      contentType: 'application/xml',
      bytes: invoice.xml,
      reason: 'validation',
      document: {
        ...common,
        kind: 'invoice',
        number: invoice.meta.invoiceNumber,
        functionCode: null,
        documentNameCode: null,
        partnerGln: null,
        partnerName: invoice.meta.sellerName,
        buyerTaxId: nip,
        sellerTaxId: seller,
        businessDate: invoice.meta.issueDate,
        status: 'error',
        findings: [
          {
            code: `ksef_${invoice.code}`,
            severity: 'error',
            level: 'syntax',
            path: 'Faktura',
            line: 0,
            column: 0,
            params: { message: invoice.message.slice(0, 500) },
          },
        ],
        body: withNumber(emptyDocument('invoice'), invoice.meta.invoiceNumber ?? invoice.ksefNumber),
      },
    };
  };

  /**
   * Where the invoice a correction names stands in KSeF: its KSeF number, `pending` while a submission of it is queued
   * or sending, or null when it is not in KSeF (not in the portal, sent before the company used KSeF, refused or given
   * up). The documents service finds the company's invoice (decision 0013); its submission is this feature's. A
   * submission accepted holds the number in its own row too, so an acceptance between the two reads is not missed.
   */
  async function correctedKsefNumberOf(
    companyId: string,
    documentId: string,
    invoice: { number: string; issueDate: string },
  ): Promise<string | 'pending' | null> {
    const found = (await deps.documents().outboxInvoicesByNumber(companyId, invoice)).filter(
      (d) => d.id !== documentId,
    );
    const recorded = found.find((d) => d.ksefNumber)?.ksefNumber;
    if (recorded) return recorded;
    const submissions = await repo.submissionStates(
      companyId,
      found.map((d) => d.id),
    );
    const accepted = submissions.find((s) => s.state === 'accepted' && s.ksefNumber)?.ksefNumber;
    if (accepted) return accepted;
    return submissions.some((s) => s.state === 'queued' || s.state === 'sending') ? 'pending' : null;
  }

  /** Moves a submission, with the time it moved. */
  const mark = (documentId: string, values: Parameters<typeof repo.updateSubmission>[1]) =>
    repo.updateSubmission(documentId, { ...values, updatedAt: deps.clock.now() });

  return {
    connectionOf,

    /**
     * The outbox's follow-up (documents' `DocumentOutbox`): each invoice of a company with the KSEF toggle and a KSeF
     * connection gets a submission and its `ksef.send` job, in the ingest's transaction.
     */
    outbox: {
      async afterStored(rows: readonly { documentId: string; companyId: string }[], tx: Db): Promise<void> {
        const byCompany = new Map<string, string[]>();
        for (const r of rows) byCompany.set(r.companyId, [...(byCompany.get(r.companyId) ?? []), r.documentId]);
        for (const [companyId, ids] of byCompany) {
          const company = await deps.companies.find(companyId, tx);
          if (!company?.toggles.includes('KSEF')) continue;
          // A demo-ksef company without settings yet is bound to the simulator when its job runs (settingsOf).
          if (!company.toggles.includes('DEMO_KSEF') && !(await repo.find(companyId, tx))) continue;
          await repo.insertSubmissions(
            ids.map((documentId) => ({ documentId, companyId })),
            deps.clock.now(),
            tx,
          );
          for (const documentId of ids) await deps.jobs.enqueue(tx, 'ksef.send', { documentId }, { key: documentId });
        }
      },
    },

    /**
     * The `ksef.send` job (issue 13, part 3): the invoice as FA(3), checked against the XSD, sent in an online
     * session, its status awaited, its KSeF number and UPO kept. A run that finds the invoice taken before only reads
     * its status; a duplicate (440) adopts the original number. A refusal (450, 410, our own check) is final; a 429
     * asking to wait longer than the client waits is not a failure: the job ends and a new one is enqueued to start
     * after KSeF's Retry-After (keyed by this run, so it is written once); any other failure is thrown for the queue
     * to retry. A correction (KOR) cites the KSeF number of the invoice it corrects (NrKSeFFaKorygowanej), waits for it
     * while that invoice is still on its way to KSeF (`waits`: the runs it waited so far), and says the invoice was
     * issued outside KSeF (NrKSeFN) only when it is not in KSeF. The portal's own situations (that wait, its limit,
     * a document gone, our own check's refusal) are `KSEF_PORTAL_CODES` with data as details, worded by the web as
     * KSeF's codes are; a failure's technical message stays as it is.
     */
    async send(documentId: string, run: JobRun, waits = 0): Promise<void> {
      const submission = await repo.submission(documentId);
      if (!submission || submission.state === 'accepted' || submission.state === 'rejected') return;
      const companyId = submission.companyId;
      /**
       * A correction of an invoice still on its way to KSeF (uploaded with it, or just before): FA(3) must cite the
       * invoice's KSeF number once it has one, so the correction stays queued and a run a little later looks again
       * (keyed by the submission's runs and this wait, so it is written once). After CORRECTION_MAX_WAITS the
       * correction fails with the reason: sending it as of an invoice outside KSeF (NrKSeFN) would put a false
       * reference into KSeF for good. Both are portal codes (the web words them), the invoice named in the details.
       */
      const waitForCorrected = async (invoice: { number: string; issueDate: string }): Promise<void> => {
        const named = `${invoice.number} (${invoice.issueDate})`;
        if (waits >= CORRECTION_MAX_WAITS) {
          await mark(documentId, {
            state: 'failed',
            attempts: submission.attempts + 1,
            errorCode: KSEF_PORTAL_CODES.correctionWaitLimit,
            errorDetails: [named],
          });
          return;
        }
        await deps.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          await repo.updateSubmission(
            documentId,
            {
              state: 'queued',
              errorCode: KSEF_PORTAL_CODES.correctionWaiting,
              errorDetails: [named],
              updatedAt: deps.clock.now(),
            },
            tx,
          );
          // The wait is measured from this moment, not from the clock's: pg-boss's clock is the database's.
          await deps.jobs.enqueue(
            tx,
            'ksef.send',
            { documentId, waits: waits + 1 },
            {
              key: `${documentId}/correction/${submission.attempts}/${waits + 1}`,
              startAfter: new Date(Date.now() + correctionWaitSeconds(waits) * 1000),
            },
          );
        });
      };
      // Not sent yet: the invoice to write and, for a correction, the KSeF number of the invoice it corrects. While that
      // invoice is on its way to KSeF the correction waits for its number, before this run counts as an attempt.
      const unsent = !submission.sessionReference || !submission.elementReference;
      const document = unsent ? await deps.documents().outboxDocument(companyId, documentId) : null;
      const corrected = document ? correctedInvoiceOf(document.body) : null;
      let correctedKsefNumber: string | null = null;
      if (corrected) {
        const found = await correctedKsefNumberOf(companyId, documentId, corrected);
        if (found === 'pending') return waitForCorrected(corrected);
        correctedKsefNumber = found;
      }
      // A portal code of a wait before (9001) says nothing of this run: a failure of it is worded by its own message.
      await mark(documentId, {
        state: 'sending',
        attempts: submission.attempts + 1,
        ...(submission.errorCode !== null ? { errorCode: null, errorDetails: null } : {}),
      });
      const fail = async (error: unknown): Promise<never> => {
        const message = error instanceof Error ? error.message : String(error);
        await mark(documentId, { state: run.isLastAttempt ? 'failed' : 'queued', errorDetails: [message] });
        throw error;
      };
      /**
       * KSeF's rate limit with a Retry-After longer than the client waits: the submission waits, queued, for a job
       * that starts no earlier than KSeF asked; this run ends without failing, so it spends none of the job's retries.
       * Nothing was sent twice: a 429 answers a request KSeF did not take, and what was sent before is kept (the
       * session and element references), so the next run only reads its status.
       */
      const defer = async (error: KsefRateLimitError): Promise<void> => {
        await deps.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          await repo.updateSubmission(
            documentId,
            { state: 'queued', errorDetails: [error.message], updatedAt: deps.clock.now() },
            tx,
          );
          // The wait is measured from this moment, not from the clock's: pg-boss's clock is the database's.
          await deps.jobs.enqueue(
            tx,
            'ksef.send',
            { documentId },
            {
              key: `${documentId}/429/${submission.attempts + 1}`,
              startAfter: new Date(Date.now() + Math.max(1, error.retryAfterSeconds) * 1000),
            },
          );
        });
      };
      const connection = await connectionOf(companyId);
      if (!connection) return fail(new Error('the company has no KSeF connection'));
      try {
        const auth = await this.clientFor(connection).login(connection.credentials);
        let sessionReference = submission.sessionReference;
        let elementReference = submission.elementReference;
        if (!sessionReference || !elementReference) {
          if (!document) {
            return await mark(documentId, {
              state: 'failed',
              errorCode: KSEF_PORTAL_CODES.documentGone,
              errorDetails: [],
            });
          }
          const built = await deps.cpu.run({
            name: 'ksef.buildInvoice',
            body: document.body,
            sellerNip: connection.credentials.context.value,
            createdAt: deps.clock.now().toISOString(),
            ...(correctedKsefNumber ? { correctedKsefNumber } : {}),
          });
          if (!built.ok) {
            return await mark(documentId, {
              state: 'rejected',
              errorCode: KSEF_PORTAL_CODES.invoiceCheck,
              errorDetails: built.reasons,
            });
          }
          const session = await auth.openOnlineSession();
          const sent = await session.send(built.xml);
          sessionReference = session.referenceNumber;
          elementReference = sent.referenceNumber;
          // Kept before waiting: a run after a crash reads this invoice's status instead of sending it again.
          await mark(documentId, {
            sessionReference,
            elementReference,
            invoiceHash: sent.invoiceHash,
            tokenReference: auth.authenticationReference,
          });
          await session.close().catch(() => undefined);
        }
        let status;
        try {
          status = await auth.waitForInvoice(sessionReference, elementReference);
        } catch (error) {
          if (error instanceof KsefStatusError && [410, 415, 430, 435, 450].includes(error.code)) {
            return await mark(documentId, { state: 'rejected', errorCode: error.code, errorDetails: error.details });
          }
          throw error;
        }
        const duplicate = status.status.code === 440;
        const ksefNumber = duplicate
          ? String(status.status.extensions?.originalKsefNumber ?? '')
          : (status.ksefNumber ?? '');
        const upoSession = duplicate
          ? String(status.status.extensions?.originalSessionReferenceNumber ?? sessionReference)
          : sessionReference;
        const upo = duplicate
          ? await auth.request<string>({
              method: 'GET',
              path: `/sessions/${encodeURIComponent(upoSession)}/invoices/ksef/${encodeURIComponent(ksefNumber)}/upo`,
              text: true,
              idempotent: true,
            })
          : await auth.invoiceUpo(sessionReference, elementReference);
        // The submission and the document's KSeF number (the lists' column) in one transaction.
        await deps.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          await repo.updateSubmission(
            documentId,
            {
              state: 'accepted',
              ksefNumber,
              acquisitionDate: status.acquisitionDate ? new Date(status.acquisitionDate) : null,
              upo,
              errorCode: null,
              errorDetails: null,
              updatedAt: deps.clock.now(),
            },
            tx,
          );
          if (ksefNumber) await deps.documents().recordKsefNumber(tx, { companyId, documentId, ksefNumber });
        });
        await auth.logout().catch(() => undefined);
      } catch (error) {
        if (error instanceof KsefRateLimitError && submission.attempts + 1 < SEND_MAX_RUNS) return defer(error);
        return fail(error);
      }
    },

    /**
     * The `ksef.receive` job (issue 13): the company's purchase invoices (Subject2) exported from KSeF since its
     * high-water mark, decrypted, read on the CPU pool and stored in its inbox, once per KSeF number (the interchange
     * key seller NIP + KSeF number makes a second arrival store nothing). The mark moves to the package's
     * `permanentStorageHwmDate`, or to `lastPermanentStorageDate` while packages are truncated (NOTES §9). The next
     * run is enqueued first, so a failing run does not end the schedule. A company without the toggle or a
     * connection does nothing. Answers how many invoices were stored.
     */
    async receive(companyId: string): Promise<number> {
      const company = await deps.companies.find(companyId);
      if (!company?.toggles.includes('KSEF') && !company?.toggles.includes('DEMO_KSEF')) return 0;
      const connection = await connectionOf(companyId);
      const row = await repo.find(companyId);
      if (!connection || !row) return 0;
      await scheduleReceive(companyId, row.environment);
      const now = deps.clock.now();
      let from = row.receiveHwm ?? new Date(now.getTime() - RECEIVE_FIRST_DAYS * DAY_MS);
      let stored = 0;
      const auth = await this.clientFor(connection).login(connection.credentials);
      try {
        for (let i = 0; i < RECEIVE_MAX_PACKAGES; i++) {
          // Windows of at most 3 months, one after the other (a company that did not receive for long catches up).
          const windowEnd = from.getTime() + RECEIVE_WINDOW_DAYS * DAY_MS;
          const exported = await auth.exportInvoices({
            subjectType: 'Subject2',
            dateRange: {
              dateType: 'PermanentStorage',
              from: from.toISOString(),
              ...(windowEnd < now.getTime() ? { to: new Date(windowEnd).toISOString() } : {}),
              restrictToPermanentStorageHwmDate: true,
            },
          });
          const read = await deps.cpu.run({ name: 'ksef.readExport', zip: exported.zip });
          if (!read.ok) throw new Error(`export ${exported.referenceNumber}: ${read.reason}`);
          for (const invoice of read.invoices) {
            if (await deps.documents().storeReceived(receivedDocument(companyId, row.nip, invoice))) stored += 1;
          }
          const next = exported.isTruncated ? exported.lastPermanentStorageDate : exported.permanentStorageHwmDate;
          // Only forward: a package's mark before ours (a clock step back) is not taken, and ends the run.
          if (!next || Date.parse(next) <= from.getTime()) break;
          from = new Date(next);
          await repo.setReceiveMark(companyId, { receiveHwm: from });
          if (!exported.isTruncated && windowEnd >= now.getTime()) break;
        }
        await repo.setReceiveMark(companyId, { receivedAt: deps.clock.now() });
      } catch (error) {
        // KSeF's export limit reached (429): the next period's run, already enqueued, goes on from the mark; retrying
        // now would only spend more of the limit.
        if (!(error instanceof KsefRateLimitError)) throw error;
      } finally {
        await auth.logout().catch(() => undefined);
      }
      return stored;
    },

    /** Enqueues every receiving company's next run (the server at start; each run then enqueues its next). */
    async scheduleReceiving(): Promise<void> {
      for (const c of await repo.receivingCompanies()) await scheduleReceive(c.companyId, c.environment);
    },

    /**
     * The demo start only (ksef.demo.ts): `seller` issues an invoice in the portal's simulator, logged in with a TEST
     * certificate of its NIP, as its own ERP would. Answers the KSeF number.
     */
    async issueInSimulator(seller: { nip: string; name: string }, xml: string): Promise<string> {
      const { certificatePem, privateKeyPem } = await createTestCertificate({
        nip: seller.nip,
        name: seller.name,
        notBefore: new Date(deps.clock.now().getTime() - DAY_MS),
      });
      const auth = await this.clientFor({ baseUrl: deps.simulatorBaseUrl }).login({
        kind: 'certificate',
        context: { type: 'Nip', value: seller.nip },
        certificatePem,
        privateKey: privateKeyPem,
      });
      try {
        const session = await auth.openOnlineSession();
        const sent = await session.send(xml);
        await session.close().catch(() => undefined);
        const status = await auth.waitForInvoice(session.referenceNumber, sent.referenceNumber);
        return status.ksefNumber ?? String(status.status.extensions?.originalKsefNumber ?? '');
      } finally {
        await auth.logout().catch(() => undefined);
      }
    },

    /** The demo's first start: Demo Supplier issues Demo KSeF an invoice in the simulator (ksef.demo.ts). */
    async issueDemoPurchaseInvoice(): Promise<{ ksefNumber: string; number: string }> {
      const demo = demoPurchaseInvoice(deps.clock.now());
      return { ksefNumber: await this.issueInSimulator(demo.seller, demo.xml), number: demo.number };
    },

    /** "Receive now": a run of the caller's company's receiving job, at once (202; the inbox shows what arrives). */
    async receiveNow(caller: KsefCaller): Promise<void> {
      const companyId = allow(caller);
      await deps.jobs.enqueue(deps.db, 'ksef.receive', { companyId });
      deps.jobs.wake('ksef.receive');
    },

    /** A document's KSeF submission as its view shows it (null: none); 404 for a document the caller cannot read. */
    async submissionOf(caller: KsefCaller, documentId: string): Promise<KsefSubmissionView | null> {
      if (!(await deps.documents().readable(caller, documentId))) throw notFound();
      const row = await repo.submission(documentId);
      if (!row || row.companyId !== caller.companyId) return null;
      return {
        state: row.state as KsefSubmissionView['state'],
        ksefNumber: row.ksefNumber,
        acquisitionDate: row.acquisitionDate?.toISOString() ?? null,
        sessionReference: row.sessionReference,
        elementReference: row.elementReference,
        tokenReference: row.tokenReference,
        errorCode: row.errorCode,
        errorDetails: row.errorDetails ?? [],
        hasUpo: Boolean(row.upo),
        updatedAt: row.updatedAt.toISOString(),
      };
    },

    /**
     * KOD I of an invoice that is in KSeF, for its PDF (the documents service asks; the caller may read the document):
     * an outbox invoice accepted with a KSeF number (the SHA-256 KSeF was sent, kept with the submission), or an
     * invoice received from KSeF (standard `ksef`, the KSeF number as reference; the SHA-256 of the stored original).
     * The seller's NIP is the invoice's (the KSeF number starts with it), the date its P_1. Null for any other
     * document; `url` null when the link cannot be made (no issue date, a custom address without a QR host).
     */
    async verificationOf(doc: {
      id: string;
      companyId: string;
      direction: 'in' | 'out';
      standard: string;
      referenceNumber: string | null;
      sellerTaxId: string | null;
      issueDate: string | null;
      original: () => Promise<Uint8Array>;
    }): Promise<{ ksefNumber: string; url: string | null } | null> {
      let ksefNumber: string;
      let hash: () => Promise<string | null>;
      if (doc.direction === 'out') {
        const row = await repo.submission(doc.id);
        if (row?.companyId !== doc.companyId || row.state !== 'accepted' || !row.ksefNumber) return null;
        ksefNumber = row.ksefNumber;
        hash = () => Promise.resolve(row.invoiceHash);
      } else {
        if (doc.standard !== 'ksef' || !doc.referenceNumber) return null;
        ksefNumber = doc.referenceNumber;
        hash = async () => sha256Base64Url(await doc.original());
      }
      const settings = await repo.find(doc.companyId);
      const qrHost = settings ? qrHostOf(settings) : null;
      const sellerNip = /^\d{10}-/.test(ksefNumber) ? ksefNumber.slice(0, 10) : doc.sellerTaxId;
      const invoiceHash = qrHost && sellerNip && doc.issueDate ? await hash() : null;
      if (!qrHost || !sellerNip || !doc.issueDate || !invoiceHash) return { ksefNumber, url: null };
      try {
        return {
          ksefNumber,
          url: invoiceVerificationUrl({ qrHost, sellerNip, issueDate: doc.issueDate, invoiceHash }),
        };
      } catch {
        return { ksefNumber, url: null };
      }
    },

    /** The invoice's UPO as KSeF signed it; 404 without one, or for a document the caller cannot read. */
    async upoOf(caller: KsefCaller, documentId: string): Promise<{ xml: string; ksefNumber: string }> {
      if (!(await deps.documents().readable(caller, documentId))) throw notFound();
      const row = await repo.submission(documentId);
      if (!row?.upo || row.companyId !== caller.companyId) throw notFound();
      return { xml: row.upo, ksefNumber: row.ksefNumber ?? documentId };
    },

    /** A client for the company's KSeF (the sending and receiving jobs use it). */
    clientFor(connection: Pick<KsefConnection, 'baseUrl'>): KsefClient {
      return new KsefClient({ baseUrl: connection.baseUrl, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
    },

    async get(caller: KsefCaller): Promise<KsefConnectionView> {
      return toSettings(await settingsOf(allow(caller)));
    },

    async update(caller: KsefCaller, input: KsefSettingsUpdate, meta: RequestMeta): Promise<KsefConnectionView> {
      const companyId = allow(caller);
      const values = KsefSettingsUpdateSchema.parse(input);
      const before = await repo.find(companyId);
      // The token method with no token, typed or kept, could never log in.
      if (values.authMethod === 'token' && !values.token && !before?.tokenSealed) {
        throw new AppError('validation.failed', { details: [{ field: 'token', code: 'required' }] });
      }
      const row = await repo.upsert(companyId, {
        nip: values.nip,
        environment: values.environment,
        baseUrl: values.environment === 'custom' ? values.baseUrl! : null,
        authMethod: values.authMethod,
        tokenSealed: values.token ? deps.secrets.seal(values.token, TOKEN_PURPOSE) : (before?.tokenSealed ?? null),
        certificatePem: before?.certificatePem ?? null,
        privateKeySealed: before?.privateKeySealed ?? null,
        updatedAt: deps.clock.now(),
        updatedBy: caller.userId,
      });
      // Another NIP or KSeF has its own invoices: receiving starts afresh there.
      if (
        before &&
        (before.nip !== row.nip || before.environment !== row.environment || before.baseUrl !== row.baseUrl)
      ) {
        await repo.setReceiveMark(companyId, { receiveHwm: null });
      }
      await scheduleReceive(companyId, row.environment);
      await record(
        caller,
        companyId,
        {
          nip: values.nip,
          environment: values.environment,
          authMethod: values.authMethod,
          tokenReplaced: Boolean(values.token),
        },
        meta,
      );
      return toSettings(row);
    },

    /**
     * Sets the certificate and its key from a PKCS#12 file or PEM (certificate and private key), read on the CPU pool.
     * A file that cannot be used is a 400 naming the field and why; nothing is kept of it.
     */
    async setCertificate(
      caller: KsefCaller,
      file: { data: Uint8Array; password: string },
      meta: RequestMeta,
    ): Promise<KsefConnectionView> {
      const companyId = allow(caller);
      const before = await repo.find(companyId);
      if (!before) throw new AppError('validation.failed', { details: [{ field: 'nip', code: 'required' }] });
      const read = await deps.cpu.run({ name: 'ksef.readCertificate', data: file.data, password: file.password });
      if (!read.ok) {
        const field = read.code === 'wrongPassword' ? 'password' : 'file';
        throw new AppError('validation.failed', { details: [{ field, code: read.code }] });
      }
      const row = await repo.upsert(companyId, {
        ...before,
        certificatePem: read.certificatePem,
        privateKeySealed: deps.secrets.seal(read.privateKeyPem, KEY_PURPOSE),
        updatedAt: deps.clock.now(),
        updatedBy: caller.userId,
      });
      await record(caller, companyId, { certificate: read.subject, validTo: read.validTo }, meta);
      return toSettings(row);
    },

    /** Logs in to the company's KSeF and out again: whether the settings work, or what KSeF said. */
    async test(caller: KsefCaller): Promise<KsefConnectionTest> {
      const connection = await connectionOf(allow(caller));
      if (!connection) return { ok: false, code: null, message: 'not_configured' };
      try {
        const auth = await this.clientFor(connection).login(connection.credentials);
        await auth.logout();
        return { ok: true, code: null, message: null };
      } catch (error) {
        if (error instanceof KsefStatusError) return { ok: false, code: error.code, message: error.description };
        if (error instanceof KsefApiError) {
          return { ok: false, code: error.errors[0]?.code ?? error.status, message: error.message };
        }
        return { ok: false, code: null, message: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}

export type KsefService = ReturnType<typeof createKsefService>;
