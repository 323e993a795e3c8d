import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DOCUMENT_MAX_FINDINGS,
  DOCUMENT_UPLOAD_MAX_BYTES,
  hasPermission,
  type DocumentCodes,
  type DocumentDetail,
  type DocumentDirection,
  type DocumentFinding,
  type DocumentListItem,
  type DocumentListQuery,
  type DocumentPage,
  type DocumentPdfQuery,
  type ErrorDetail,
  type FileEncoding,
  type Principal,
  type UploadFileResult,
  type UploadedDocumentSchema,
} from '@portal/contracts';
import type { z } from 'zod';
import type { CanonicalDocument } from '@portal/documents';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import { DEMO_ROLE, documentReaderOf, READ_PERMISSION, type DocumentReader } from '../../access/document-scope.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, shortText, takePage, timestampText, uuid, type KeyPart } from '../../lib/keyset.ts';
import type { JobEnqueuer } from '../../jobs/queue.ts';
import { BlobTooLargeError, type BlobStore } from '../../storage/blob-store.ts';
import type { EdifactService } from '../edifact/edifact.service.ts';
import type { EffectiveRestriction } from '../restrictions/restrictions.service.ts';
import { ENVELOPE_BYTES, envelopeOfHeader, MAX_ENVELOPES, type Envelope } from './documents.tasks.ts';
import { createDocumentsIngest, duplicateInterchangeFinding } from './documents.ingest.ts';
import { createContrlAnswer } from './documents.contrl.ts';
import { ACKNOWLEDGEMENT_FIELD } from './document-contrl.repository.ts';
import { createSplitter } from './documents.split.ts';
import type {
  DocumentCompanies,
  DocumentKsef,
  DocumentOutbox,
  DocumentPartners,
  DocumentProducts,
  DocumentUsers,
} from './documents.dependencies.ts';
import type { DocumentEnrichment } from './documents.enrichment.ts';

export { createDocumentEnrichment } from './documents.enrichment.ts';
import { readUserSettings } from '../profile/profile.service.ts';
import { codesOfBody } from './document-codes.ts';
import { documentFileName, type FileNameParts } from './document-file-name.ts';
import { documentPrintModel } from './document-print.ts';
import {
  createDocumentsRepository,
  type DocumentListRow,
  type DocumentRow,
  type InterchangeRow,
  type NewDocument,
} from './documents.repository.ts';

/** Who calls: the request's principal (an impersonating admin is the impersonated user here). */
export type DocumentsCaller = {
  userId: string;
  companyId: string | null;
  permissions: Principal['permissions'];
  /** With the session: a user of role `demo` reads and uploads within its login session only (decision 0027). */
  roles?: readonly string[];
  sessionId?: string | undefined;
  /** Read with the request's principal; absent, the scope reads them itself. */
  restrictions?: readonly EffectiveRestriction[] | undefined;
};

/**
 * Who uploads: a user, or a machine with the company's API key (`userId` null, `apiKeyId` set; decision 0023). The
 * upload reads only the company, so a key needs no permissions of its own.
 */
export type UploadCaller = {
  userId: string | null;
  companyId: string | null;
  apiKeyId?: string;
  /** A user of role `demo` uploads into its login session (decision 0027). */
  roles?: readonly string[];
  sessionId?: string | undefined;
};

export type UploadedFile = { fileName: string; bytes: Uint8Array };

type UploadedDocument = z.infer<typeof UploadedDocumentSchema>;

/** The demo session an upload belongs to: the caller's, for a user of role `demo`; null for everyone else. */
const demoSessionOf = (caller: UploadCaller): string | null =>
  caller.roles?.includes(DEMO_ROLE) ? (caller.sessionId ?? null) : null;
/** After this long a queued ingest that the upload ran itself is looked at by a worker too (a crash in between). */
const SAFETY_NET_SECONDS = 120;

function toItem(row: DocumentListRow): DocumentListItem {
  return {
    id: row.id,
    direction: row.direction as DocumentDirection,
    documentNumber: row.number,
    documentReferenceNumber: row.referenceNumber,
    ksefNumber: row.ksefNumber,
    documentKind: row.kind,
    documentType: row.documentType,
    functionCode: row.functionCode,
    messageType: row.messageType,
    messageCategory: row.messageCategory,
    partnerId: row.partnerId,
    partnerGln: row.partnerGln,
    partnerName: row.partnerName,
    deliveryPointName: row.deliveryPointName,
    deliveryPointGln: row.deliveryPointGln,
    expectedDeliveryDate: row.expectedDeliveryDate,
    businessDate: row.businessDate,
    timestamp: row.platformTimestamp.toISOString(),
    status: row.status as DocumentListItem['status'],
    processingStatus: row.processingStatus as DocumentListItem['processingStatus'],
    businessStatus: row.businessStatus,
    additionalStatus: row.additionalStatus as DocumentListItem['additionalStatus'],
    standard: row.standard as DocumentListItem['standard'],
    version: row.version,
    test: row.test,
  };
}

const toUploaded = (row: DocumentRow): UploadedDocument => ({
  id: row.id,
  direction: row.direction as DocumentDirection,
  documentType: row.documentType,
  documentNumber: row.number,
  status: row.status as UploadedDocument['status'],
  partnerName: row.partnerName,
});

/** Each interchange key of a file once, in file order. */
const uniqueKeys = (envelopes: readonly Envelope[]): { senderId: string; controlReference: string }[] => {
  const seen = new Map<string, { senderId: string; controlReference: string }>();
  for (const e of envelopes) {
    const key = `${e.senderId}/${e.controlReference}`;
    if (!seen.has(key)) seen.set(key, { senderId: e.senderId, controlReference: e.controlReference });
  }
  return [...seen.values()];
};

const SORT_NAMES: KeyPart = (part) => part.length <= 40;
const ORDERS: KeyPart = (part) => part === 'asc' || part === 'desc';

/** Reads a stream whole (one message of an interchange's blob, to convert its encoding). */
async function readAll(stream: AsyncIterable<Buffer> | Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The bytes from `offset`, `length` of them, of a stream, as a stream (one message of an interchange's blob). */
async function* sliceOf(stream: Readable, offset: number, length: number): AsyncGenerator<Buffer> {
  let position = 0;
  const end = offset + length;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    const from = Math.max(offset - position, 0);
    const to = Math.min(end - position, bytes.length);
    if (to > from) yield bytes.subarray(from, to);
    position += bytes.length;
    if (position >= end) {
      stream.destroy();
      return;
    }
  }
}

/**
 * The document store (issue 11, parts 1 to 3): uploads of EDIFACT interchanges, their ingest into documents (a job,
 * and run by the upload itself for files up to `inlineMaxBytes`, decision 0022), routing between companies on the
 * platform, and the inbox and outbox lists and details, each through the document access scope (decision 0010).
 */
/** The additional status lists a reader may change: inbox modify for received documents, outbox modify for sent. */
const MODIFY_PERMISSION = { in: 'INBOX_MODIFY', out: 'OUTBOX_MODIFY' } as const;

/** What a saved file's name is made of (document-file-name.ts). */
const fileNameParts = (row: DocumentRow): FileNameParts => ({
  docType: row.documentType,
  partnerName: row.partnerName ?? row.partnerGln,
  docNumber: row.number ?? row.id,
  deliveryPoint: row.deliveryPointName ?? row.deliveryPointGln,
  docDate: row.businessDate,
});

export function createDocumentsService(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  blobs: BlobStore;
  jobs: JobEnqueuer;
  edifact: Pick<EdifactService, 'directoryRef'>;
  companies: DocumentCompanies;
  partners: DocumentPartners;
  users: DocumentUsers;
  /** Fills the receiver's products from a received price catalogue; absent, a PRICAT is only stored. */
  products?: DocumentProducts | undefined;
  /** Fills received documents' parties from the address book and partners (toggle ENRICHMENT). */
  enrichment?: DocumentEnrichment | undefined;
  /** Follows up outbox invoices once stored (KSeF submissions). */
  outbox?: DocumentOutbox | undefined;
  /** KOD I and the KSeF number on the PDF of an invoice that is in KSeF; absent, no PDF shows them. */
  ksef?: DocumentKsef | undefined;
  /** Files up to this size are ingested while the upload waits; larger ones by the job alone. */
  inlineMaxBytes: number;
  /** Messages per ingest batch (default INGEST_BATCH_MESSAGES; tests make it small). */
  ingestBatchMessages?: number | undefined;
  /** Where an inline ingest's failure is told (the job runs it again). */
  log?: { warn(details: object, message: string): void } | undefined;
}) {
  const { db, clock, cpu, blobs, jobs, companies, partners } = deps;

  /** The caller's language and additional settings (file encoding and naming). */
  const userOf = async (userId: string) => {
    const user = await deps.users.findById(userId);
    return { language: user?.language ?? 'en', settings: readUserSettings(user?.settings ?? {}) };
  };

  /** The names of a document's codes and segments from its directory, on the CPU pool (decision 0026). */
  const describe = async (row: DocumentRow): Promise<DocumentCodes> =>
    cpu.run({
      name: 'documents.describe',
      ...(await deps.edifact.directoryRef()),
      directory: row.version,
      messageType: row.messageType,
      wanted: codesOfBody(row.body as unknown as CanonicalDocument),
    });
  const repo = createDocumentsRepository(db);

  const readerOf = (caller: DocumentsCaller): Promise<DocumentReader> => documentReaderOf(db, caller);

  /** A company's GLN check, with the look-ups of one ingest or upload remembered. */
  const companyLookup = () => {
    const seen = new Map<string, Promise<{ id: string; name: string } | null>>();
    return (gln: string | undefined | null) => {
      if (!gln) return Promise.resolve(null);
      let found = seen.get(gln);
      if (!found) seen.set(gln, (found = companies.findCompanyByGln(gln)));
      return found;
    };
  };

  const ingest = createDocumentsIngest({
    db,
    clock,
    cpu,
    blobs,
    edifact: deps.edifact,
    companies,
    partners,
    products: deps.products,
    enrichment: deps.enrichment,
    outbox: deps.outbox,
    repo,
    jobs,
    batchMessages: deps.ingestBatchMessages,
  });

  /** The answer for a file whose every interchange was uploaded before: the first upload's documents. */
  const duplicateOf = async (
    fileName: string,
    first: InterchangeRow,
    caller: UploadCaller & { companyId: string },
    direction: DocumentDirection,
  ): Promise<UploadFileResult> => ({
    fileName,
    interchangeId: first.id,
    duplicate: true,
    queued: first.state === 'queued',
    // Another demo session's interchange (or a real one, for a demo session) is not the caller's to list.
    documents:
      first.sessionId === demoSessionOf(caller)
        ? (await repo.documentsOfInterchange(first.id, caller.companyId, direction)).map(toUploaded)
        : [],
    findings: [],
  });

  /**
   * Writes a stored file's interchange row, its interchange keys (every UNB of the file, decision 0024) and its
   * ingest job, then ingests it while the caller waits when it is small (decision 0022). A file whose every
   * interchange another upload holds is a duplicate: its blob is removed and the first upload answered.
   */
  async function admit(
    caller: UploadCaller & { companyId: string },
    direction: DocumentDirection,
    file: { id: string; fileName: string; size: number; sha256: string; envelope: Envelope; envelopes: Envelope[] },
  ): Promise<UploadFileResult> {
    const companyId = caller.companyId;
    const { id, envelope } = file;
    const payloadKey = `documents/interchanges/${id}/original`;
    const keys = uniqueKeys(file.envelopes.length ? file.envelopes : [envelope]);
    const inline = file.size <= deps.inlineMaxBytes;
    const row = await db
      .transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const inserted = await repo.insertInterchange(
          {
            id,
            companyId,
            direction,
            senderId: envelope.senderId,
            senderQualifier: envelope.senderQualifier,
            recipientId: envelope.recipientId,
            recipientQualifier: envelope.recipientQualifier,
            controlReference: envelope.controlReference,
            syntax: envelope.syntax,
            contentSha256: file.sha256,
            payloadKey,
            fileName: file.fileName,
            size: file.size,
            uploadedBy: caller.userId,
            sessionId: demoSessionOf(caller),
            apiKeyId: caller.apiKeyId ?? null,
            createdAt: clock.now(),
          },
          tx,
        );
        if (!inserted) throw new Error(`interchange ${id} exists`);
        const claimed = await repo.claimKeys(id, companyId, direction, keys, tx);
        // Every interchange of the file held by earlier uploads (or one at this moment): nothing is stored.
        if (claimed === 0) return undefined;
        if (claimed < keys.length) {
          const holders = await repo.findKeyHolders(companyId, direction, keys, tx);
          const findings = keys.flatMap((k) => {
            const holder = holders.get(`${k.senderId}/${k.controlReference}`);
            return holder && holder.id !== id ? [duplicateInterchangeFinding(k, holder.id)] : [];
          });
          await repo.advanceInterchange(
            id,
            { messagesDone: 0, findings: findings.slice(0, DOCUMENT_MAX_FINDINGS) },
            tx,
          );
        }
        // Run now by this request; the job is the safety net, due later (pg-boss's clock is the database's).
        await jobs.enqueue(
          tx,
          'documents.ingest',
          { interchangeId: id },
          { key: id, ...(inline ? { startAfter: new Date(Date.now() + SAFETY_NET_SECONDS * 1000) } : {}) },
        );
        return inserted;
      })
      .catch(async (error: unknown) => {
        await blobs.delete(payloadKey).catch(() => undefined);
        throw error;
      });
    if (!row) {
      await blobs.delete(payloadKey);
      const holders = await repo.findKeyHolders(companyId, direction, keys);
      return duplicateOf(
        file.fileName,
        holders.get(`${keys[0]!.senderId}/${keys[0]!.controlReference}`)!,
        caller,
        direction,
      );
    }
    if (!inline) {
      jobs.wake('documents.ingest');
      return {
        fileName: file.fileName,
        interchangeId: id,
        duplicate: false,
        queued: true,
        documents: [],
        findings: [],
      };
    }
    // A failure here (the database gone, say) is the job's to retry: the file is stored, the answer says queued, and
    // the job, due later as a safety net, is made due now, so the workers retry it in seconds rather than minutes.
    await ingest.ingest(id).catch(async (error: unknown) => {
      deps.log?.warn({ err: error, interchangeId: id }, 'ingest failed, its job is due now');
      await jobs.dueNow('documents.ingest', id).catch(() => undefined);
    });
    const done = (await repo.findInterchange(id))!;
    const documents = await repo.documentsOfInterchange(id, companyId, direction);
    const findings = [
      ...(done.findings as DocumentFinding[]),
      ...documents.flatMap((d) => d.findings as DocumentFinding[]),
    ].slice(0, DOCUMENT_MAX_FINDINGS);
    return {
      fileName: file.fileName,
      interchangeId: id,
      duplicate: false,
      queued: done.state === 'queued',
      documents: documents.map(toUploaded),
      findings,
    };
  }

  const answerContrl = createContrlAnswer({
    db,
    clock,
    cpu,
    blobs,
    edifact: deps.edifact,
    companies,
    findInterchange: (id) => repo.findInterchange(id),
    upload: (caller, direction, files) => service.upload(caller, direction, files),
    log: deps.log,
  });

  const service = {
    /** Reads an uploaded interchange into documents, in batches, exactly once (documents.ingest.ts). */
    async ingest(interchangeId: string): Promise<void> {
      await ingest.ingest(interchangeId);
    },

    /** The `documents.contrl` job: the CONTRL answering a received interchange, stored once (decision 0035). */
    async answerWithContrl(interchangeId: string, controlReference: string): Promise<void> {
      await answerContrl(interchangeId, controlReference);
    },

    /**
     * Stores each file and its ingest job, then ingests the small ones while the caller waits (decision 0022). Every
     * file's envelope is checked before anything is stored: a file that is not an interchange, or (outbox) whose UNB
     * sender is not one of the company's GLNs, refuses the whole upload.
     */
    async upload(
      caller: UploadCaller,
      direction: DocumentDirection,
      files: readonly UploadedFile[],
    ): Promise<UploadFileResult[]> {
      if (!caller.companyId) throw notFound();
      const companyId = caller.companyId;
      const lookup = companyLookup();
      const envelopes = [];
      const notInterchange: ErrorDetail[] = [];
      const notOwn: ErrorDetail[] = [];
      for (const [i, file] of files.entries()) {
        const read = await cpu.run({ name: 'documents.envelope', bytes: file.bytes });
        envelopes.push(read);
        if (!read.envelope) {
          notInterchange.push({ field: `files.${i}`, code: 'notInterchange', params: { name: file.fileName } });
        } else if (direction === 'out' && (await lookup(read.envelope.senderId))?.id !== companyId) {
          notOwn.push({
            field: `files.${i}`,
            code: 'senderNotOwn',
            params: { name: file.fileName, gln: read.envelope.senderId },
          });
        }
      }
      if (notInterchange.length) throw new AppError('documents.not_interchange', { details: notInterchange });
      if (notOwn.length) throw new AppError('documents.sender_not_own', { details: notOwn });

      const results: UploadFileResult[] = [];
      for (const [i, file] of files.entries()) {
        const { sha256, envelope, envelopes: all } = envelopes[i]!;
        const keys = uniqueKeys(all.length ? all : [envelope!]);
        const holders = await repo.findKeyHolders(companyId, direction, keys);
        if (keys.every((k) => holders.has(`${k.senderId}/${k.controlReference}`))) {
          const first = holders.get(`${keys[0]!.senderId}/${keys[0]!.controlReference}`)!;
          results.push(await duplicateOf(file.fileName, first, { ...caller, companyId }, direction));
          continue;
        }
        const id = randomUUID();
        // The blob before the row (decision 0008); removed again when the row is not written.
        await blobs.put(`documents/interchanges/${id}/original`, file.bytes, {
          contentType: 'application/edifact',
          maxBytes: DOCUMENT_UPLOAD_MAX_BYTES,
        });
        results.push(
          await admit({ ...caller, companyId }, direction, {
            id,
            fileName: file.fileName,
            size: file.bytes.length,
            sha256,
            envelope: envelope!,
            envelopes: all,
          }),
        );
      }
      return results;
    },

    /**
     * Receives one interchange file from a stream (the machines' inbound endpoint, files larger than the browser's
     * 20 MB): the envelope is read from the first bytes only (a file that is not an interchange, or an outbox file
     * from another company's GLN, is refused before anything is stored), the rest goes to the BlobStore as it comes
     * with its hash and every UNB read on the way, so no whole file is ever held in memory. Past `maxBytes` it is
     * `request.too_large` (413) and nothing is stored. Then as `upload`: duplicates, the job, small files read at once.
     */
    async receive(
      caller: UploadCaller,
      direction: DocumentDirection,
      fileName: string,
      stream: AsyncIterable<Uint8Array>,
      /** `field`: what the errors' details name the file (`file` by default; the inbound endpoint's `body`). */
      options: { maxBytes: number; field?: string },
    ): Promise<UploadFileResult> {
      if (!caller.companyId) throw notFound();
      const companyId = caller.companyId;
      const field = options.field ?? 'file';
      const iterator = stream[Symbol.asyncIterator]();
      const head: Uint8Array[] = [];
      let headLength = 0;
      let ended = false;
      while (headLength < ENVELOPE_BYTES) {
        const next = await iterator.next();
        if (next.done) {
          ended = true;
          break;
        }
        head.push(next.value);
        headLength += next.value.length;
      }
      const first = Buffer.concat(head);
      if (first.length === 0) {
        throw new AppError('validation.failed', { details: [{ field, code: 'required' }] });
      }
      const { envelope } = await cpu.run({ name: 'documents.envelope', bytes: first.subarray(0, ENVELOPE_BYTES) });
      const refuse = async (error: AppError) => {
        await iterator.return?.();
        throw error;
      };
      if (!envelope) {
        return refuse(
          new AppError('documents.not_interchange', {
            details: [{ field, code: 'notInterchange', params: { name: fileName } }],
          }),
        );
      }
      if (direction === 'out' && (await companies.findCompanyByGln(envelope.senderId))?.id !== companyId) {
        return refuse(
          new AppError('documents.sender_not_own', {
            details: [{ field, code: 'senderNotOwn', params: { name: fileName, gln: envelope.senderId } }],
          }),
        );
      }
      const id = randomUUID();
      const hash = createHash('sha256');
      const envelopes: Envelope[] = [];
      // Every UNB as the bytes pass (a cheap scan, as the ingest's split; each header is a few dozen bytes).
      const scan = createSplitter({
        batchMessages: Infinity,
        batchBytes: Infinity,
        scanOnly: true,
        onHeader: (header) => {
          const found = envelopes.length < MAX_ENVELOPES ? envelopeOfHeader(header) : null;
          if (found) envelopes.push(found);
        },
      });
      async function* body(): AsyncGenerator<Uint8Array> {
        const pass = (chunk: Uint8Array) => {
          hash.update(chunk);
          scan.push(chunk);
          return chunk;
        };
        yield pass(first);
        while (!ended) {
          const next = await iterator.next();
          if (next.done) break;
          yield pass(next.value);
        }
        scan.end();
      }
      let size: number;
      try {
        size = (
          await blobs.put(`documents/interchanges/${id}/original`, body(), {
            contentType: 'application/edifact',
            maxBytes: options.maxBytes,
          })
        ).size;
      } catch (error) {
        if (error instanceof BlobTooLargeError) {
          await iterator.return?.();
          throw new AppError('request.too_large', {
            details: [{ field, code: 'fileTooLarge', params: { max: options.maxBytes } }],
            data: { maxBytes: options.maxBytes },
          });
        }
        throw error;
      }
      return admit({ ...caller, companyId }, direction, {
        id,
        fileName,
        size,
        sha256: hash.digest('hex'),
        envelope,
        envelopes,
      });
    },

    async list(caller: DocumentsCaller, query: DocumentListQuery): Promise<DocumentPage> {
      const reader = await readerOf(caller);
      if (
        !hasPermission({ roles: [], permissions: reader.permissions, toggles: [] }, READ_PERMISSION[query.direction])
      ) {
        throw new AppError('auth.forbidden');
      }
      const q = query;
      // The cursor carries its sort, so that a cursor of one order is never read as a position in another.
      const key = decodeCursor(q.cursor, [
        SORT_NAMES,
        ORDERS,
        q.sort === 'timestamp' ? timestampText : shortText,
        uuid,
      ]);
      if (key && (key[0] !== q.sort || key[1] !== q.order)) {
        throw new AppError('validation.failed', { details: [{ field: 'cursor', code: 'cursor' }] });
      }
      const after = key ? { key: key[2]!, id: key[3]! } : undefined;
      const { cursor: _c, limit: _l, sort: _s, order: _o, includeTotal: _t, ...filters } = q;
      const rows = await repo.list(reader, filters, { sort: q.sort, direction: q.order }, after, q.limit + 1);
      const page = takePage(rows, q.limit, (r) => [q.sort, q.order, r.sortKey, r.id]);
      return {
        items: page.rows.map(toItem),
        nextCursor: page.nextCursor,
        ...(q.includeTotal ? { total: await repo.count(reader, filters) } : {}),
      };
    },

    /**
     * One document with its body, findings, history and links (links to documents the reader cannot see are left
     * out). The first opening of an inbox copy by a user of its company marks it read, with a history row.
     */
    async get(caller: DocumentsCaller, id: string): Promise<DocumentDetail> {
      const reader = await readerOf(caller);
      let row = await repo.find(reader, id);
      if (!row) throw notFound();
      if (row.direction === 'in' && row.status === 'received') {
        const at = clock.now();
        await db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          if (await repo.markRead(id, tx)) {
            await repo.insertHistory(
              [
                {
                  documentId: id,
                  field: 'status',
                  fromValue: 'received',
                  toValue: 'read',
                  userId: caller.userId,
                  at,
                  reason: 'opened',
                },
              ],
              tx,
            );
          }
        });
        row = (await repo.find(reader, id))!;
      }
      const [history, links] = await Promise.all([repo.history(id), repo.links(id)]);
      const others = links.map((l) => (l.fromId === id ? l.toId : l.fromId));
      const visible = await repo.visible(reader, others);
      return {
        ...toItem(row),
        buyerTaxId: row.buyerTaxId,
        sellerTaxId: row.sellerTaxId,
        interchangeId: row.interchangeId,
        // Its CONTRL's answer is the history's last word on it (decision 0047).
        acknowledgement: (history.findLast((h) => h.field === ACKNOWLEDGEMENT_FIELD)?.toValue ??
          null) as DocumentDetail['acknowledgement'],
        body: row.body,
        findings: row.findings as DocumentFinding[],
        history: history.map((h) => ({
          field: h.field,
          from: h.fromValue,
          to: h.toValue,
          userId: h.userId,
          at: h.at.toISOString(),
          reason: h.reason,
        })),
        links: links.flatMap((l) => {
          const other = l.fromId === id ? l.toId : l.fromId;
          return visible.has(other)
            ? [{ documentId: other, kind: l.kind, side: l.fromId === id ? ('from' as const) : ('to' as const) }]
            : [];
        }),
      };
    },

    /**
     * A document the caller may read, as the drafts' turnaround needs it (the access scope, like every read; a
     * foreign or restricted id is null). Unlike `get`, reading it does not mark an inbox copy Read.
     */
    /**
     * One outbox document of a company, read by a job that acts for the company (the KSeF submission), not for a user:
     * the company's whole outbox is its scope.
     */
    async outboxDocument(
      companyId: string,
      id: string,
    ): Promise<{ id: string; kind: string; number: string | null; body: CanonicalDocument } | null> {
      const reader = { companyId, permissions: ['OUTBOX_READ' as const], restrictions: [] };
      const row = await repo.find(reader, id);
      if (!row || row.direction !== 'out') return null;
      return { id: row.id, kind: row.kind, number: row.number, body: row.body as unknown as CanonicalDocument };
    },

    /**
     * The invoice a correction of the company names (the ksef feature, before it writes the correction's FA(3)): the
     * company's outbox invoices of that number and issue date (not a demo session's), with their KSeF numbers, those
     * with one first. Usually one; empty when the invoice is not in the portal.
     */
    async outboxInvoicesByNumber(
      companyId: string,
      invoice: { number: string; issueDate: string },
    ): Promise<{ id: string; ksefNumber: string | null }[]> {
      // Only a real day can be a business date (and the column's type refuses anything else).
      const day = /^\d{4}-\d{2}-\d{2}$/.test(invoice.issueDate) ? new Date(`${invoice.issueDate}T00:00:00Z`) : null;
      if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== invoice.issueDate) return [];
      return repo.outboxInvoicesByNumber(companyId, invoice.number, invoice.issueDate);
    },

    /**
     * Stores one document received outside EDIFACT (a KSeF invoice, issue 13) in the company's inbox: its bytes as
     * the interchange's blob, one interchange holding this one message, and the inbox row. `key` is its interchange
     * key (for KSeF: the seller's NIP and the KSeF number), so the same document received again stores nothing:
     * answers the new document's id, or null when the key was held already.
     */
    async storeReceived(input: {
      companyId: string;
      key: { senderId: string; controlReference: string };
      recipientId: string;
      /** The interchange's syntax, which only says how its bytes are encoded (e.g. `XML:UTF-8`). */
      syntax: string;
      fileName: string;
      contentType: string;
      bytes: Uint8Array;
      document: Pick<
        NewDocument,
        | 'kind'
        | 'documentType'
        | 'number'
        | 'referenceNumber'
        | 'ksefNumber'
        | 'functionCode'
        | 'documentNameCode'
        | 'messageType'
        | 'standard'
        | 'version'
        | 'partnerGln'
        | 'partnerName'
        | 'buyerTaxId'
        | 'sellerTaxId'
        | 'businessDate'
        | 'status'
        | 'findings'
      > & { body: CanonicalDocument };
      /** The history row's reason for the first status (e.g. `ksef`). */
      reason: string;
    }): Promise<string | null> {
      const { companyId, key } = input;
      // A quick look first: a document received before costs no blob.
      if ((await repo.findKeyHolders(companyId, 'in', [key])).size > 0) return null;
      const id = randomUUID();
      const payloadKey = `documents/interchanges/${id}/original`;
      await blobs.put(payloadKey, input.bytes, { contentType: input.contentType });
      const at = clock.now();
      const held = Symbol('held');
      const documentId = await db
        .transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          await repo.insertInterchange(
            {
              id,
              companyId,
              direction: 'in',
              senderId: key.senderId,
              recipientId: input.recipientId,
              controlReference: key.controlReference,
              syntax: input.syntax,
              contentSha256: createHash('sha256').update(input.bytes).digest('hex'),
              payloadKey,
              fileName: input.fileName,
              size: input.bytes.length,
              state: 'done',
              messageCount: 1,
              messagesDone: 1,
              createdAt: at,
              processedAt: at,
            },
            tx,
          );
          // Another run holding the key at this moment: roll this one back (the unique key decides, not the look).
          if ((await repo.claimKeys(id, companyId, 'in', [key], tx)) === 0) throw held;
          const { body, ...fields } = input.document;
          const [documentId] = await repo.insertDocuments(
            [
              {
                ...fields,
                id: randomUUID(),
                companyId,
                direction: 'in',
                interchangeId: id,
                messageIndex: 0,
                body: body as unknown as Record<string, unknown>,
                payloadOffset: 0,
                payloadLength: input.bytes.length,
                platformTimestamp: at,
              },
            ],
            tx,
            at,
          );
          await repo.insertHistory(
            [
              {
                documentId: documentId!,
                field: 'status',
                fromValue: null,
                toValue: input.document.status,
                userId: null,
                at,
                reason: input.reason,
              },
            ],
            tx,
            at,
          );
          return documentId!;
        })
        .catch(async (error: unknown) => {
          await blobs.delete(payloadKey).catch(() => undefined);
          if (error === held) return null;
          throw error;
        });
      return documentId;
    },

    /**
     * Records the KSeF number of a company's document (the ksef feature, in the transaction where KSeF accepted the
     * invoice): the lists' KSeF number column shows it. A document of another company is left alone; answers whether
     * the document was the company's.
     */
    async recordKsefNumber(
      tx: Db,
      input: { companyId: string; documentId: string; ksefNumber: string },
    ): Promise<boolean> {
      return repo.setKsefNumber(input.companyId, input.documentId, input.ksefNumber, tx);
    },

    /** Whether the caller may read this document (the KSeF panel and UPO of the document view). */
    async readable(caller: DocumentsCaller, id: string): Promise<boolean> {
      return Boolean(await repo.find(await readerOf(caller), id));
    },

    async source(
      caller: DocumentsCaller,
      id: string,
    ): Promise<{
      id: string;
      kind: string;
      direction: string;
      partnerId: string | null;
      body: CanonicalDocument;
    } | null> {
      const row = await repo.find(await readerOf(caller), id);
      if (!row) return null;
      return {
        id: row.id,
        kind: row.kind,
        direction: row.direction,
        partnerId: row.partnerId,
        body: row.body as unknown as CanonicalDocument,
      };
    },

    /**
     * For the drafts: an order answered from the portal becomes Partially Completed or Completed (issue 12, part 2),
     * with a history entry. Read through the access scope; a cancelled document stays cancelled.
     */
    async markAnswered(
      caller: DocumentsCaller,
      id: string,
      status: 'completed' | 'partially_completed',
    ): Promise<void> {
      const row = await repo.find(await readerOf(caller), id);
      if (!row || row.additionalStatus === status || row.additionalStatus === 'cancelled') return;
      // Completed stays completed: a late partial answer does not reopen the order.
      if (row.additionalStatus === 'completed') return;
      const at = clock.now();
      await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await repo.setStatus(id, { additionalStatus: status }, tx);
        await repo.insertHistory(
          [
            {
              documentId: id,
              field: 'additionalStatus',
              fromValue: row.additionalStatus,
              toValue: status,
              userId: caller.userId,
              at,
              reason: 'answered',
            },
          ],
          tx,
        );
      });
    },

    /** The names of the document's codes and of its segments' elements, from the directory of its version. */
    async codes(caller: DocumentsCaller, id: string): Promise<DocumentCodes> {
      const reader = await readerOf(caller);
      const row = await repo.find(reader, id);
      if (!row) throw notFound();
      return describe(row);
    },

    /**
     * The original: the whole file as received when its interchange holds this one message, else this message's
     * own bytes (UNH to UNT) as they stand in the file; named by the user's naming format and converted to the
     * user's file encoding (or `encoding`; `original` keeps the bytes). A character the encoding cannot hold is a
     * 422 `documents.unencodable` naming it and its place.
     */
    async original(
      caller: DocumentsCaller,
      id: string,
      options: { encoding?: FileEncoding | 'original' | undefined } = {},
    ): Promise<{ fileName: string; size: number; body: AsyncIterable<Buffer> | Readable | Uint8Array }> {
      const reader = await readerOf(caller);
      const row = await repo.find(reader, id);
      if (!row) throw notFound();
      const { settings } = await userOf(caller.userId);
      const fileName = documentFileName(settings.fileNamingFormat, fileNameParts(row), 'edi');
      const interchange = (await repo.findInterchange(row.interchangeId))!;
      const blob = await blobs.get(interchange.payloadKey);
      const whole = interchange.messageCount === 1;
      const stream = whole ? blob.body : Readable.from(sliceOf(blob.body, row.payloadOffset, row.payloadLength));
      const size = whole ? blob.size : row.payloadLength;
      const encoding = options.encoding ?? settings.fileEncoding;
      if (encoding === 'original' || encoding === '{token}') return { fileName, size, body: stream };
      const bytes = await readAll(stream);
      const result = await cpu.run({ name: 'documents.encode', bytes, syntax: interchange.syntax, encoding });
      if (!result.ok) {
        const params = {
          encoding,
          character: result.character,
          codePoint: result.codePoint,
          line: result.line,
          column: result.column,
        };
        throw new AppError('documents.unencodable', {
          message: `${encoding} cannot hold ${result.codePoint} at line ${result.line}, column ${result.column}`,
          details: [{ field: 'encoding', code: 'unencodable', params }],
          data: { ...params, offset: result.offset },
        });
      }
      return { fileName, size: result.bytes.length, body: result.bytes };
    },

    /**
     * The document as a PDF in the reader's language, rendered on the CPU pool. Downloading or printing it sets the
     * additional status Printed, with a history row, when the reader may change that list (inbox or outbox modify);
     * a reader without that permission still gets the PDF.
     */
    async pdf(
      caller: DocumentsCaller,
      id: string,
      query: DocumentPdfQuery,
    ): Promise<{ fileName: string; bytes: Uint8Array; printed: boolean }> {
      const reader = await readerOf(caller);
      const row = await repo.find(reader, id);
      if (!row) throw notFound();
      const user = await userOf(caller.userId);
      const language = query.language ?? user.language;
      const body = row.body as unknown as CanonicalDocument;
      const verification = await deps.ksef?.verificationOf({
        id: row.id,
        companyId: row.companyId,
        direction: row.direction as DocumentDirection,
        standard: row.standard,
        referenceNumber: row.referenceNumber,
        sellerTaxId: row.sellerTaxId,
        issueDate: body.header?.dates?.find((d) => d.qualifier === '137')?.value.slice(0, 10) ?? null,
        original: async () => {
          const interchange = (await repo.findInterchange(row.interchangeId))!;
          const blob = await blobs.get(interchange.payloadKey);
          if (interchange.messageCount === 1) return readAll(blob.body);
          return readAll(Readable.from(sliceOf(blob.body, row.payloadOffset, row.payloadLength)));
        },
      });
      const model = documentPrintModel(toItem(row), body, await describe(row), language, verification ?? undefined);
      const bytes = await cpu.run({ name: 'documents.pdf', model });
      const direction = row.direction as DocumentDirection;
      let printed = false;
      if (caller.permissions.includes(MODIFY_PERMISSION[direction])) {
        const at = clock.now();
        await db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          // As a status change of the list: read under the row's lock, so that two at once write one history row.
          const [locked] = await repo.lockVisible(reader, [id], tx);
          if (!locked || locked.additionalStatus === 'printed') return;
          await repo.setStatus(id, { additionalStatus: 'printed' }, tx);
          printed = true;
          await repo.insertHistory(
            [
              {
                documentId: id,
                field: 'additionalStatus',
                fromValue: locked.additionalStatus,
                toValue: 'printed',
                userId: caller.userId,
                at,
                reason: query.purpose === 'print' ? 'printed' : 'pdf_downloaded',
              },
            ],
            tx,
          );
        });
      }
      return { fileName: documentFileName(user.settings.fileNamingFormat, fileNameParts(row), 'pdf'), bytes, printed };
    },
  };

  return service;
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
