/**
 * Statuses and UPOs (NOTES §5, §6): a session's status read from its timestamps and counts, the session and invoice
 * lists, an invoice's status, and the signed UPOs (per invoice and per session page), by token or pre-signed URL.
 */
import { badRequest, forbidden, KSEF_CODES } from './ksef-errors.ts';
import type { KsefSimStatus, SimInvoiceRow, SimSessionRow } from './ksef-simulator.repository.ts';
import { BATCH_FAILURES, type SimBatch } from './sim-batch.ts';
import type { InvoiceView } from './sim-invoices.ts';
import type { SimKeyStore } from './sim-key-store.ts';
import { sha256b64 } from './sim-keys.ts';
import {
  continuation,
  ctxOf,
  iso,
  MAX_SESSION_INVOICES,
  offsetOf,
  status,
  type AccessClaims,
  type SimBase,
} from './sim-shared.ts';
import { buildUpo, upoPageReference, type UpoDocument } from './sim-upo.ts';
import { signEnveloped } from './sim-xades.ts';

/** A session left open past `validUntil` is closed by KSeF then: shown as closed at that time. */
const effective = (row: SimSessionRow, now: Date): SimSessionRow =>
  !row.closedAt && row.validUntil < now ? { ...row, closedAt: row.validUntil, processedAt: row.validUntil } : row;

const upoDocument = (row: SimInvoiceRow): UpoDocument => ({
  sellerNip: row.sellerNip ?? '',
  ksefNumber: row.ksefNumber ?? '',
  invoiceNumber: row.invoiceNumber ?? '',
  issueDate: row.issueDate ?? '',
  receivedAt: row.receivedAt,
  acquiredAt: row.decidedAt,
  invoiceHash: row.invoiceHash,
  invoicingMode: row.invoicingMode === 'Offline' ? 'Offline' : 'Online',
});

export function createSimStatuses(
  deps: SimBase & {
    keyStore: SimKeyStore;
    invoiceView: InvoiceView;
    /** Takes up a closed batch session whose processing is not under way (after a restart). */
    ensureProcessing: SimBatch['ensureProcessing'];
  },
) {
  const { repo, clock, keyStore, invoiceView, ensureProcessing } = deps;

  async function sessionView(stored: SimSessionRow, now: Date) {
    const row = effective(stored, now);
    const counts = await repo.sessionCounts(row.referenceNumber, now);
    const online = row.kind === 'Online';
    let st: KsefSimStatus;
    let upo:
      { pages: { referenceNumber: string; downloadUrl: string; downloadUrlExpirationDate: string }[] } | undefined;
    if (row.statusCode !== 100) st = status(row.statusCode, BATCH_FAILURES[row.statusCode] ?? 'Błąd przetwarzania');
    else if (!row.closedAt) {
      st = status(100, online ? 'Sesja interaktywna otwarta' : 'Sesja wsadowa rozpoczęta');
    } else if (!row.processedAt) {
      // A batch being processed; after a restart the first status read takes it up again.
      void ensureProcessing(row.referenceNumber);
      st = status(150, 'Trwa przetwarzanie');
    } else if (now < row.processedAt) {
      st = status(online ? 170 : 150, online ? 'Sesja interaktywna zamknięta' : 'Trwa przetwarzanie');
    } else if (counts.total === 0) st = status(440, 'Sesja anulowana', ['Nie przesłano faktur']);
    else if (counts.accepted === 0) st = status(445, 'Błąd weryfikacji, brak poprawnych faktur');
    else {
      st = status(200, online ? 'Sesja interaktywna przetworzona pomyślnie' : 'Sesja wsadowa przetworzona pomyślnie');
      const pages = Math.ceil(counts.accepted / MAX_SESSION_INVOICES);
      upo = { pages: [] };
      for (let page = 1; page <= pages; page++) {
        const ref = upoPageReference(row.referenceNumber, page);
        const url = await keyStore.presign('upo-session', row.referenceNumber, ref, now);
        upo.pages.push({ referenceNumber: ref, downloadUrl: url.url, downloadUrlExpirationDate: url.expirationDate });
      }
    }
    return {
      status: st,
      dateCreated: iso(row.createdAt),
      dateUpdated: iso(row.processedAt && now >= row.processedAt ? row.processedAt : row.updatedAt),
      validUntil: iso(row.validUntil),
      ...(upo ? { upo } : {}),
      invoiceCount: counts.total,
      successfulInvoiceCount: counts.decidedAccepted,
      failedInvoiceCount: counts.decidedFailed,
    };
  }

  async function signUpo(
    session: SimSessionRow,
    documents: UpoDocument[],
    signingTime: Date,
    page?: { number: number; pages: number; from: number; to: number; total: number },
  ) {
    const xml = buildUpo({
      sessionReference: session.referenceNumber,
      context: { type: session.contextType, value: session.contextValue },
      tokenReference: session.tokenReference,
      authDocumentHash: session.authDocumentHash,
      documents,
      ...(page ? { page } : {}),
    });
    const key = (await keyStore.keys()).UpoSigning;
    const signed = signEnveloped(xml, key.privateKeyPem, key.certificateDer ?? Buffer.alloc(0), signingTime);
    return { xml: signed, hash: sha256b64(Buffer.from(signed, 'utf8')) };
  }

  /** A per-invoice UPO, by the invoice's reference or its KSeF number; `caller` undefined: a pre-signed URL. */
  async function invoiceUpo(
    caller: AccessClaims | undefined,
    sessionRef: string,
    by: { invoiceRef?: string; ksefNumber?: string },
  ) {
    const session = caller
      ? await repo.findSession(ctxOf(caller), sessionRef)
      : await repo.findSessionByReference(sessionRef);
    if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
    const row = by.invoiceRef
      ? await repo.findInvoice(sessionRef, by.invoiceRef)
      : by.ksefNumber
        ? await repo.findInvoiceByKsefNumber(by.ksefNumber)
        : undefined;
    if (!row || row.sessionReference !== sessionRef || !row.accepted || clock.now() < row.decidedAt) {
      throw badRequest(KSEF_CODES.upoNotFound, 'UPO nie zostało odnalezione.');
    }
    return signUpo(session, [upoDocument(row)], row.decidedAt);
  }

  async function sessionUpo(caller: AccessClaims | undefined, sessionRef: string, upoRef: string) {
    const stored = caller
      ? await repo.findSession(ctxOf(caller), sessionRef)
      : await repo.findSessionByReference(sessionRef);
    if (!stored) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
    const now = clock.now();
    const session = effective(stored, now);
    const view = await sessionView(session, now);
    const page = view.upo?.pages.findIndex((p) => p.referenceNumber === upoRef) ?? -1;
    if (!view.upo || page < 0 || !session.processedAt)
      throw badRequest(KSEF_CODES.upoNotFound, 'UPO nie zostało odnalezione.');
    const accepted: SimInvoiceRow[] = [];
    for (let offset = 0; ; offset += 1000) {
      const rows = await repo.listSessionInvoices(sessionRef, false, 1000, offset);
      accepted.push(...rows.filter((r) => r.accepted));
      if (rows.length < 1000) break;
    }
    const from = page * MAX_SESSION_INVOICES;
    const docs = accepted.slice(from, from + MAX_SESSION_INVOICES).map(upoDocument);
    return signUpo(session, docs, session.processedAt, {
      number: page + 1,
      pages: view.upo.pages.length,
      from: from + 1,
      to: from + docs.length,
      total: accepted.length,
    });
  }

  return {
    async getSession(caller: AccessClaims, sessionRef: string) {
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      return sessionView(session, clock.now());
    },

    async listSessions(
      caller: AccessClaims,
      query: {
        sessionType: string;
        referenceNumber?: string | undefined;
        pageSize: number;
        continuationToken?: string | undefined;
      },
    ) {
      const offset = offsetOf(query.continuationToken);
      const rows = await repo.listSessions(
        ctxOf(caller),
        { kind: query.sessionType, referenceNumber: query.referenceNumber },
        query.pageSize + 1,
        offset,
      );
      const now = clock.now();
      const sessions = [];
      for (const row of rows.slice(0, query.pageSize)) {
        const view = await sessionView(row, now);
        sessions.push({
          referenceNumber: row.referenceNumber,
          status: view.status,
          dateCreated: view.dateCreated,
          dateUpdated: view.dateUpdated,
          validUntil: view.validUntil,
          totalInvoiceCount: view.invoiceCount,
          successfulInvoiceCount: view.successfulInvoiceCount,
          failedInvoiceCount: view.failedInvoiceCount,
        });
      }
      return {
        ...(rows.length > query.pageSize ? { continuationToken: continuation(offset + query.pageSize) } : {}),
        sessions,
      };
    },

    async sessionInvoices(
      caller: AccessClaims,
      sessionRef: string,
      onlyFailed: boolean,
      pageSize: number,
      continuationToken: string | undefined,
    ) {
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      const offset = offsetOf(continuationToken);
      const now = clock.now();
      const rows = await repo.listSessionInvoices(sessionRef, onlyFailed, pageSize + 1, offset);
      const visible = onlyFailed ? rows.filter((r) => r.decidedAt <= now) : rows;
      const invoices = [];
      for (const row of visible.slice(0, pageSize)) invoices.push(await invoiceView(row, now));
      return {
        ...(rows.length > pageSize ? { continuationToken: continuation(offset + pageSize) } : {}),
        invoices,
      };
    },

    async invoiceStatus(caller: AccessClaims, sessionRef: string, invoiceRef: string) {
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session) throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      const row = await repo.findInvoice(sessionRef, invoiceRef);
      if (!row) throw badRequest(KSEF_CODES.invoiceNotFound, 'Faktura o podanym numerze referencyjnym nie istnieje.');
      return invoiceView(row, clock.now());
    },

    invoiceUpo,
    sessionUpo,

    async presignedUpo(kind: string, a: string, b: string, se: string, sig: string) {
      await keyStore.checkPresigned(kind, a, b, se, sig);
      if (kind === 'upo-invoice') return invoiceUpo(undefined, a, { invoiceRef: b });
      if (kind === 'upo-session') return sessionUpo(undefined, a, b);
      throw forbidden('Adres jest nieprawidłowy.', 'invalid-signature');
    },
  };
}
