/**
 * Batch sessions (NOTES §8): opened with the declared parts, each part uploaded to its pre-signed URL into the blob
 * store, closed, then processed in this process (decrypted, checked, unzipped within bounds, each file decided as an
 * online invoice); a run cut short by a restart is taken up again by the next status read.
 */
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { aesDecrypt } from '@portal/ksef';
import { BlobTooLargeError, type BlobStore } from '../../storage/blob-store.ts';
import { badRequest, KSEF_CODES } from './ksef-errors.ts';
import type { RecordInvoice } from './sim-invoices.ts';
import type { SimKeyStore } from './sim-key-store.ts';
import { referenceNumber, sha256b64 } from './sim-keys.ts';
import {
  addMs,
  checkFormCode,
  ctxOf,
  MAX_SESSION_INVOICES,
  openedSession,
  requirePermission,
  status,
  type AccessClaims,
  type EncryptionInfo,
  type FormCode,
  type SimBase,
} from './sim-shared.ts';

/** Batch sessions (NOTES §8): KSeF's part limits; the whole archive is capped lower here, as this is a simulator. */
const BATCH_MAX_PARTS = 50;
const BATCH_PART_MAX_BYTES = 100 * 1024 * 1024;
export const BATCH_MAX_BYTES = 200 * 1024 * 1024;
/** An invoice with attachments may be 3 MB in a batch. */
const BATCH_ENTRY_MAX_BYTES = 3 * 1024 * 1024;
/** The descriptions of a batch session's failure statuses. */
export const BATCH_FAILURES: Record<number, string> = {
  405: 'Błąd weryfikacji poprawności dostarczonych elementów paczki',
  415: 'Błąd odszyfrowania dostarczonego klucza',
  420: 'Przekroczony limit faktur w sesji',
  430: 'Błąd dekompresji pierwotnego archiwum',
  435: 'Błąd odszyfrowania zaszyfrowanych części archiwum',
};
type BatchInfo = {
  fileSize: number;
  fileHash: string;
  offlineMode: boolean;
  parts: { ordinalNumber: number; fileSize: number; fileHash: string }[];
};
const partKey = (sessionRef: string, ordinal: number) => `ksef-simulator/batch/${sessionRef}/${ordinal}`;

export function createSimBatch(
  deps: SimBase & {
    /** Where uploaded batch parts are kept until the session is processed. */
    blobs: BlobStore;
    keyStore: SimKeyStore;
    recordInvoice: RecordInvoice;
  },
) {
  const { repo, clock, log, delay, keyStore, recordInvoice } = deps;

  const processing = new Map<string, Promise<void>>();
  function ensureProcessing(sessionRef: string): Promise<void> {
    const running = processing.get(sessionRef);
    if (running) return running;
    const started = processBatch(sessionRef)
      .catch((error: unknown) =>
        log.warn({ err: error, session: sessionRef }, 'KSeF simulator: batch processing failed'),
      )
      .finally(() => processing.delete(sessionRef));
    processing.set(sessionRef, started);
    return started;
  }

  /**
   * Processes a closed batch session: the parts decrypted one by one (same key and IV), joined, checked against the
   * declared size and hash, unzipped within bounds, then each file decided as an online invoice. Invoices already
   * recorded (by ordinal) are skipped, so a run cut short by a restart resumes where it stopped.
   */
  async function processBatch(sessionRef: string): Promise<void> {
    const session = await repo.findSessionByReference(sessionRef);
    if (!session?.closedAt || session.processedAt || !session.symmetricKey || !session.iv) return;
    const batch = session.batch as BatchInfo;
    const finish = async (code: number) => {
      const counts = await repo.sessionCounts(sessionRef, clock.now());
      const now = clock.now();
      const last = counts.lastDecidedAt && counts.lastDecidedAt > now ? counts.lastDecidedAt : now;
      await repo.finishBatch(sessionRef, code, addMs(last, delay));
      log.info({ session: sessionRef, status: code }, 'KSeF simulator: batch session processed');
    };
    const plainParts: Buffer[] = [];
    for (const part of [...batch.parts].sort((a, b) => a.ordinalNumber - b.ordinalNumber)) {
      const blob = await deps.blobs.get(partKey(sessionRef, part.ordinalNumber));
      const chunks: Buffer[] = [];
      for await (const chunk of blob.body) chunks.push(Buffer.from(chunk as Uint8Array));
      try {
        plainParts.push(aesDecrypt(Buffer.concat(chunks), session.symmetricKey, session.iv));
      } catch {
        return finish(435);
      }
    }
    const zip = Buffer.concat(plainParts);
    if (zip.length !== batch.fileSize || sha256b64(zip) !== batch.fileHash) return finish(405);
    // First the central directory only (nothing inflated), held to the session's bounds.
    const listing: { name: string; size: number }[] = [];
    let total = 0;
    try {
      unzipSync(zip, {
        filter: (file) => {
          if (file.name.endsWith('/')) return false;
          listing.push({ name: file.name, size: file.originalSize });
          total += Math.min(file.originalSize, BATCH_ENTRY_MAX_BYTES);
          if (listing.length > MAX_SESSION_INVOICES) throw new RangeError('too many invoices');
          return false;
        },
      });
    } catch (error) {
      return finish(error instanceof RangeError ? 420 : 430);
    }
    if (total > BATCH_MAX_BYTES) return finish(430);
    listing.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    // Then a few files at a time (at most 8 MB declared), so no single step holds the event loop long; fflate
    // inflates into a buffer of the declared size, so a file cannot grow past what the listing allowed.
    let start = 0;
    while (start < listing.length) {
      const group: typeof listing = [];
      let groupBytes = 0;
      for (const entry of listing.slice(start)) {
        if (group.length > 0 && (group.length >= 50 || groupBytes + entry.size > 8 * 1024 * 1024)) break;
        group.push(entry);
        groupBytes += Math.min(entry.size, BATCH_ENTRY_MAX_BYTES);
      }
      const wanted = new Set(group.filter((e) => e.size <= BATCH_ENTRY_MAX_BYTES).map((e) => e.name));
      let files: Record<string, Uint8Array>;
      try {
        files = wanted.size ? unzipSync(zip, { filter: (file) => wanted.has(file.name) }) : {};
      } catch {
        return finish(430);
      }
      for (const [offset, entry] of group.entries()) {
        const ordinal = start + offset + 1;
        if (await repo.hasInvoiceAt(sessionRef, ordinal)) continue;
        const data = files[entry.name] ? Buffer.from(files[entry.name] ?? new Uint8Array()) : undefined;
        await recordInvoice({
          sessionRef,
          ordinal,
          contextValue: session.contextValue,
          invoiceHash: data ? sha256b64(data) : '',
          invoicingMode: batch.offlineMode ? 'Offline' : 'Online',
          fileName: entry.name.slice(0, 128),
          plain: data,
          now: clock.now(),
          ...(data
            ? {}
            : { refusal: status(450, 'Błąd weryfikacji semantyki dokumentu faktury', ['Faktura większa niż 3 MB.']) }),
        });
      }
      start += group.length;
    }
    for (const part of batch.parts) await deps.blobs.delete(partKey(sessionRef, part.ordinalNumber));
    return finish(100);
  }

  return {
    /** Starts (or joins) the processing of a closed batch session in this process. */
    ensureProcessing,

    async openBatch(
      caller: AccessClaims,
      body: {
        formCode: FormCode;
        batchFile: {
          fileSize: number;
          fileHash: string;
          compressionType?: string | undefined;
          fileParts: { ordinalNumber: number; fileSize: number; fileHash: string }[];
        };
        encryption: EncryptionInfo;
        offlineMode?: boolean | undefined;
      },
    ) {
      requirePermission(caller, 'InvoiceWrite');
      checkFormCode(body.formCode);
      const parts = body.batchFile.fileParts;
      const ordinals = new Set(parts.map((p) => p.ordinalNumber));
      if (
        parts.length < 1 ||
        parts.length > BATCH_MAX_PARTS ||
        ordinals.size !== parts.length ||
        parts.some((p) => p.ordinalNumber < 1 || p.ordinalNumber > parts.length)
      ) {
        throw badRequest(KSEF_CODES.inputValidation, 'Nieprawidłowa lista części paczki.', [
          `Od 1 do ${BATCH_MAX_PARTS} części numerowanych od 1.`,
        ]);
      }
      const declared = parts.reduce((sum, p) => sum + p.fileSize, 0);
      if (
        parts.some((p) => p.fileSize > BATCH_PART_MAX_BYTES) ||
        declared > BATCH_MAX_BYTES ||
        body.batchFile.fileSize > BATCH_MAX_BYTES
      ) {
        throw badRequest(KSEF_CODES.inputValidation, 'Przekroczono dopuszczalny rozmiar paczki.', [
          `Symulator przyjmuje paczki do ${BATCH_MAX_BYTES / 1024 / 1024} MB.`,
        ]);
      }
      if (body.batchFile.compressionType && body.batchFile.compressionType !== 'Zip') {
        throw badRequest(KSEF_CODES.inputValidation, 'Symulator przyjmuje paczki ZIP.');
      }
      const { key, iv } = await keyStore.unwrapKey(body.encryption);
      const now = clock.now();
      const auth = await repo.findAuthentication(caller.authReference);
      const ref = referenceNumber('SB', now);
      const batch: BatchInfo = {
        fileSize: body.batchFile.fileSize,
        fileHash: body.batchFile.fileHash,
        offlineMode: body.offlineMode ?? false,
        parts: parts.map((p) => ({ ordinalNumber: p.ordinalNumber, fileSize: p.fileSize, fileHash: p.fileHash })),
      };
      await repo.insertSession({
        referenceNumber: ref,
        kind: 'Batch',
        ...openedSession(caller, auth, key, iv, now),
        validUntil: addMs(now, parts.length * 20 * 60 * 1000),
        batch,
      });
      const partUploadRequests = [];
      for (const part of [...parts].sort((a, b) => a.ordinalNumber - b.ordinalNumber)) {
        const url = await keyStore.presign('batch-part', ref, String(part.ordinalNumber), now);
        partUploadRequests.push({
          ordinalNumber: part.ordinalNumber,
          method: 'PUT',
          url: url.url,
          headers: { 'Content-Type': 'application/octet-stream', 'x-ms-blob-type': 'BlockBlob' },
        });
      }
      log.info(
        { reference: ref, context: caller.context.value, parts: parts.length },
        'KSeF simulator: batch session opened',
      );
      return { referenceNumber: ref, partUploadRequests };
    },

    /** A part's upload to its pre-signed URL: streamed to the blob store, held to the declared size and hash. */
    async uploadBatchPart(
      sessionRef: string,
      ordinal: string,
      se: string,
      sig: string,
      body: AsyncIterable<Uint8Array>,
    ) {
      await keyStore.checkPresigned('batch-part', sessionRef, ordinal, se, sig);
      const session = await repo.findSessionByReference(sessionRef);
      const part = (session?.batch as BatchInfo | null | undefined)?.parts.find(
        (p) => String(p.ordinalNumber) === ordinal,
      );
      if (!session || !part || session.kind !== 'Batch')
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja nie istnieje.');
      if (session.closedAt || session.statusCode !== 100 || session.validUntil < clock.now()) {
        throw badRequest(KSEF_CODES.uploadTimeout, 'Czas na przesłanie części minął lub sesja jest zamknięta.');
      }
      const hash = createHash('sha256');
      let size = 0;
      async function* counted() {
        for await (const chunk of body) {
          hash.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      }
      const key = partKey(sessionRef, part.ordinalNumber);
      try {
        await deps.blobs.put(key, counted(), { contentType: 'application/octet-stream', maxBytes: part.fileSize });
      } catch (error) {
        if (error instanceof BlobTooLargeError)
          throw badRequest(KSEF_CODES.sizeMismatch, 'Część jest większa niż zadeklarowano.');
        throw error;
      }
      if (size !== part.fileSize || hash.digest('base64') !== part.fileHash) {
        await deps.blobs.delete(key);
        throw badRequest(
          size !== part.fileSize ? KSEF_CODES.sizeMismatch : KSEF_CODES.hashMismatch,
          'Część nie zgadza się z deklaracją.',
        );
      }
    },

    async closeBatch(caller: AccessClaims, sessionRef: string) {
      requirePermission(caller, 'InvoiceWrite');
      const session = await repo.findSession(ctxOf(caller), sessionRef);
      if (!session || session.kind !== 'Batch') {
        throw badRequest(KSEF_CODES.noSuchSession, 'Sesja o podanym numerze referencyjnym nie istnieje.');
      }
      if (session.closedAt || session.statusCode !== 100 || session.validUntil < clock.now()) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Status sesji nie pozwala na wykonanie operacji.');
      }
      const missing = [];
      for (const part of (session.batch as BatchInfo).parts) {
        if (!(await deps.blobs.stat(partKey(sessionRef, part.ordinalNumber)))) missing.push(part.ordinalNumber);
      }
      if (missing.length) {
        throw badRequest(KSEF_CODES.sessionStatusForbids, 'Nie przesłano wszystkich części paczki.', [
          `Brak części: ${missing.join(', ')}.`,
        ]);
      }
      await repo.closeSession(sessionRef, clock.now(), null);
      log.info({ reference: sessionRef }, 'KSeF simulator: batch session closed');
      void ensureProcessing(sessionRef);
    },

    /** For tests and a graceful stop: waits for the batch processing under way in this process. */
    async settle(): Promise<void> {
      await Promise.all([...processing.values()]);
    },
  };
}

export type SimBatch = ReturnType<typeof createSimBatch>;
