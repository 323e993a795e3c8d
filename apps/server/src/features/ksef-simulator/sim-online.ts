/**
 * Online sessions (NOTES §4): opened with an encrypted symmetric key, one encrypted invoice a request (checked against
 * its declared sizes and hashes, then decided by `recordInvoice`), closed by the client or at `validUntil`.
 */
import { aesDecrypt } from '@portal/ksef';
import { badRequest, KSEF_CODES } from './ksef-errors.ts';
import type { RecordInvoice } from './sim-invoices.ts';
import type { SimKeyStore } from './sim-key-store.ts';
import { referenceNumber, sha256b64 } from './sim-keys.ts';
import {
  addMs,
  base64,
  checkFormCode,
  ctxOf,
  iso,
  MAX_INVOICE_BYTES,
  MAX_SESSION_INVOICES,
  openedSession,
  requirePermission,
  type AccessClaims,
  type EncryptionInfo,
  type FormCode,
  type SimBase,
} from './sim-shared.ts';

const SESSION_HOURS = 12;

export function createSimOnline(deps: SimBase & { keyStore: SimKeyStore; recordInvoice: RecordInvoice }) {
  const { repo, clock, log, delay, keyStore, recordInvoice } = deps;

  return {
    async openOnline(caller: AccessClaims, body: { formCode: FormCode; encryption: EncryptionInfo }) {
      requirePermission(caller, 'InvoiceWrite');
      checkFormCode(body.formCode);
      const { key, iv } = await keyStore.unwrapKey(body.encryption);
      const now = clock.now();
      const auth = await repo.findAuthentication(caller.authReference);
      const ref = referenceNumber('SO', now);
      const validUntil = addMs(now, SESSION_HOURS * 3600 * 1000);
      await repo.insertSession({
        referenceNumber: ref,
        kind: 'Online',
        ...openedSession(caller, auth, key, iv, now),
        validUntil,
      });
      log.info(
        { reference: ref, context: caller.context.value, status: key ? 100 : 415 },
        'KSeF simulator: online session opened',
      );
      return { referenceNumber: ref, validUntil: iso(validUntil) };
    },

    async sendInvoice(
      caller: AccessClaims,
      sessionRef: string,
      body: {
        invoiceHash: string;
        invoiceSize: number;
        encryptedInvoiceHash: string;
        encryptedInvoiceSize: number;
        encryptedInvoiceContent: string;
        offlineMode?: boolean | undefined;
      },
    ) {
      requirePermission(caller, 'InvoiceWrite');
      const now = clock.now();
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session || session.kind !== 'Online') {
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      }
      if (
        session.statusCode !== 100 ||
        session.closedAt ||
        session.validUntil < now ||
        !session.symmetricKey ||
        !session.iv
      ) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Status sesji nie pozwala na wykonanie operacji.');
      }
      if (body.invoiceSize > MAX_INVOICE_BYTES) {
        throw badRequest(KSEF_CODES.sizeMismatch, 'Przekroczono maksymalny rozmiar faktury (1 MB).');
      }
      const encrypted = base64(body.encryptedInvoiceContent, 'encryptedInvoiceContent');
      if (encrypted.length !== body.encryptedInvoiceSize) {
        throw badRequest(KSEF_CODES.sizeMismatch, 'Rozmiar zaszyfrowanej faktury nie zgadza się z podanym.');
      }
      if (sha256b64(encrypted) !== body.encryptedInvoiceHash) {
        throw badRequest(KSEF_CODES.hashMismatch, 'Skrót zaszyfrowanej faktury nie zgadza się z podanym.');
      }
      let plain: Buffer | undefined;
      try {
        plain = aesDecrypt(encrypted, session.symmetricKey, session.iv);
      } catch {
        plain = undefined;
      }
      if (plain && plain.length !== body.invoiceSize) {
        throw badRequest(KSEF_CODES.sizeMismatch, 'Rozmiar faktury nie zgadza się z podanym.');
      }
      if (plain && sha256b64(plain) !== body.invoiceHash) {
        throw badRequest(KSEF_CODES.hashMismatch, 'Skrót faktury nie zgadza się z podanym.');
      }
      const ordinal = await repo.nextOrdinal(sessionRef, MAX_SESSION_INVOICES, now);
      if (ordinal === undefined) {
        throw badRequest(KSEF_CODES.sessionInvoiceLimit, 'Przekroczono limit faktur w sesji.', [
          `Najwyżej ${MAX_SESSION_INVOICES} faktur w sesji.`,
        ]);
      }
      return recordInvoice({
        sessionRef,
        ordinal,
        contextValue: caller.context.value,
        invoiceHash: body.invoiceHash,
        invoicingMode: body.offlineMode ? 'Offline' : 'Online',
        fileName: null,
        plain,
        now,
      });
    },

    async closeOnline(caller: AccessClaims, sessionRef: string) {
      requirePermission(caller, 'InvoiceWrite');
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session || session.kind !== 'Online') {
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      }
      const now = clock.now();
      if (session.closedAt || session.statusCode !== 100 || session.validUntil < now) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Status sesji nie pozwala na wykonanie operacji.');
      }
      const counts = await repo.sessionCounts(sessionRef, now);
      const last = counts.lastDecidedAt && counts.lastDecidedAt > now ? counts.lastDecidedAt : now;
      await repo.closeSession(sessionRef, now, addMs(last, delay));
      log.info({ reference: sessionRef }, 'KSeF simulator: online session closed');
    },
  };
}
