import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DOCUMENT_MAX_FINDINGS,
  DOCUMENT_TYPE_CODES,
  DOCUMENT_UPLOAD_MAX_BYTES,
  hasPermission,
  type DocumentDetail,
  type DocumentDirection,
  type DocumentFinding,
  type DocumentListItem,
  type DocumentListQuery,
  type DocumentPage,
  type ErrorDetail,
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
import type { BlobStore } from '../../storage/blob-store.ts';
import type { EdifactService } from '../edifact/edifact.service.ts';
import type { IngestedMessage, IngestResult } from './documents.tasks.ts';
import type { DocumentCompanies, DocumentPartners } from './documents.dependencies.ts';
import {
  createDocumentsRepository,
  type DocumentListRow,
  type DocumentRow,
  type InterchangeRow,
  type NewDocument,
  type NewHistory,
} from './documents.repository.ts';

/** Who calls: the request's principal (an impersonating admin is the impersonated user here). */
export type DocumentsCaller = {
  userId: string;
  companyId: string | null;
  permissions: Principal['permissions'];
  /** With the session: a user of role `demo` reads and uploads within its login session only (decision 0027). */
  roles?: readonly string[];
  sessionId?: string | undefined;
};

export type UploadedFile = { fileName: string; bytes: Uint8Array };

type UploadedDocument = z.infer<typeof UploadedDocumentSchema>;

/** The demo session an upload belongs to: the caller's, for a user of role `demo`; null for everyone else. */
const demoSessionOf = (caller: DocumentsCaller): string | null =>
  caller.roles?.includes(DEMO_ROLE) ? (caller.sessionId ?? null) : null;

const TYPE_CODES: ReadonlySet<string> = new Set(DOCUMENT_TYPE_CODES);
const GLN = /^\d{13}$/;
/** After this long a queued ingest that the upload ran itself is looked at by a worker too (a crash in between). */
const SAFETY_NET_SECONDS = 120;

function toItem(row: DocumentListRow): DocumentListItem {
  return {
    id: row.id,
    direction: row.direction as DocumentDirection,
    documentNumber: row.number,
    documentReferenceNumber: row.referenceNumber,
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

const partyName = (body: CanonicalDocument, gln: string | null): string | undefined =>
  gln ? body.parties.find((p) => p.gln === gln && p.name)?.name : undefined;

const deliveryPoint = (body: CanonicalDocument) => body.parties.find((p) => p.role === 'DP' || p.role === 'ST');

const SORT_NAMES: KeyPart = (part) => part.length <= 40;
const ORDERS: KeyPart = (part) => part === 'asc' || part === 'desc';

/** Reads a stream whole (an interchange's blob, at most the upload limit). */
async function readAll(stream: Readable): Promise<Uint8Array> {
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
/** E-mails per partner and event for one interchange (see notifyPartners). */
const NOTIFY_PER_PARTNER = 10;

export function createDocumentsService(deps: {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  blobs: BlobStore;
  jobs: JobEnqueuer;
  edifact: Pick<EdifactService, 'directoryRef'>;
  companies: DocumentCompanies;
  partners: DocumentPartners;
  /** Files up to this size are ingested while the upload waits; larger ones by the job alone. */
  inlineMaxBytes: number;
}) {
  const { db, clock, cpu, blobs, jobs, companies, partners } = deps;
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

  /** Runs the ingest's CPU work; a file over the pool's time or memory limit is an outcome, not a job to retry. */
  async function read(interchange: InterchangeRow): Promise<IngestResult | { failed: DocumentFinding }> {
    const bytes = await readAll((await blobs.get(interchange.payloadKey)).body);
    try {
      return await cpu.run({ name: 'documents.ingest', ...(await deps.edifact.directoryRef()), bytes });
    } catch (error) {
      if (error instanceof AppError && error.code === 'request.processing_limit') {
        const failed: DocumentFinding = {
          code: 'processing_limit',
          severity: 'error',
          level: 'syntax',
          path: '',
          line: 0,
          column: 0,
          ...(error.data ? { params: error.data as Record<string, string | number> } : {}),
        };
        return { failed };
      }
      throw error;
    }
  }

  /**
   * The rows of one message: the uploader's copy and, for an outbox message to a company on the platform, the
   * recipient's inbox copy, linked.
   */
  async function rowsOf(
    interchange: InterchangeRow,
    m: IngestedMessage,
    lookup: (gln: string | null | undefined) => { id: string; name: string } | null,
    at: Date,
    partnerOf: (companyId: string, gln: string) => Promise<{ id: string | null }>,
  ): Promise<{
    documents: NewDocument[];
    history: NewHistory[];
    links: { fromId: string; toId: string; kind: string }[];
  }> {
    const s = m.summary;
    const dp = deliveryPoint(m.body);
    const hasErrors = m.status === 'error';
    const common = {
      interchangeId: interchange.id,
      messageIndex: m.index,
      kind: s.kind,
      documentType: TYPE_CODES.has(m.type) ? m.type : m.type || 'OTHER',
      number: s.number ?? null,
      referenceNumber: s.referenceNumber ?? null,
      functionCode: s.functionCode ?? null,
      documentNameCode: s.documentNameCode ?? null,
      messageType: s.messageType,
      messageCategory: s.associationCode ?? null,
      standard: s.standard,
      version: s.version,
      test: s.test,
      deliveryPointName: dp?.name ?? null,
      deliveryPointGln: s.deliveryPointGln ?? null,
      buyerGln: s.buyerGln ?? null,
      supplierGln: s.supplierGln ?? null,
      buyerTaxId: s.buyerTaxId ?? null,
      sellerTaxId: s.sellerTaxId ?? null,
      expectedDeliveryDate: s.expectedDeliveryDate ?? null,
      businessDate: s.businessDate ?? null,
      platformTimestamp: at,
      body: m.body as unknown as Record<string, unknown>,
      findings: m.findings,
      payloadOffset: m.offset,
      payloadLength: m.length,
      sessionId: interchange.sessionId,
    };
    const owner = interchange.companyId;
    const senderGln = m.unbSender || interchange.senderId;
    // The other side: the UNB recipient (sender) when it is a GLN, else the buyer or supplier that is not this side.
    const other = (own: string) => {
      const candidates = [own === senderGln ? m.unbRecipient : m.unbSender, s.buyerGln, s.supplierGln];
      return candidates.find((gln) => gln && gln !== own && GLN.test(gln)) ?? null;
    };
    const documents: NewDocument[] = [];
    const history: NewHistory[] = [];
    const links: { fromId: string; toId: string; kind: string }[] = [];
    const reason = hasErrors ? 'validation' : null;

    if (interchange.direction === 'in') {
      const partnerGln = other(m.unbRecipient) ?? (GLN.test(senderGln) ? senderGln : null);
      const company = lookup(partnerGln);
      const partner = partnerGln ? await partnerOf(owner, partnerGln) : { id: null };
      const id = randomUUID();
      const status = hasErrors ? 'error' : 'received';
      documents.push({
        ...common,
        id,
        companyId: owner,
        direction: 'in',
        partnerId: partner.id,
        partnerGln,
        partnerName: company?.name ?? partyName(m.body, partnerGln) ?? null,
        status,
      });
      history.push({
        documentId: id,
        field: 'status',
        fromValue: null,
        toValue: status,
        userId: interchange.uploadedBy,
        at,
        reason,
      });
      return { documents, history, links };
    }

    // Outbox: the recipient is the company holding the UNB recipient's GLN, else the other party's.
    const byUnb = lookup(m.unbRecipient);
    const partnerGln = byUnb && GLN.test(m.unbRecipient) ? m.unbRecipient : other(senderGln);
    const recipient = byUnb ?? lookup(partnerGln);
    const delivered = !hasErrors && recipient !== null && recipient.id !== owner;
    const outId = randomUUID();
    // A demo session's document is Sent to a company on the platform but never reaches its inbox (decision 0027).
    const inId = delivered && !interchange.sessionId ? randomUUID() : null;
    const outStatus = hasErrors ? 'error' : delivered ? 'sent' : 'waiting';
    const outPartner = partnerGln ? await partnerOf(owner, partnerGln) : { id: null };
    documents.push({
      ...common,
      id: outId,
      companyId: owner,
      direction: 'out',
      partnerId: outPartner.id,
      partnerGln,
      partnerName: recipient?.name ?? partyName(m.body, partnerGln) ?? null,
      status: outStatus,
      processingStatus: outStatus === 'waiting' ? 'PENDING' : 'OK',
      linkedCopyId: inId,
    });
    history.push({
      documentId: outId,
      field: 'status',
      fromValue: null,
      toValue: outStatus,
      userId: interchange.uploadedBy,
      at,
      reason: reason ?? (outStatus === 'waiting' ? 'recipient_not_on_platform' : null),
    });
    if (delivered && inId) {
      const sender = lookup(senderGln);
      const inPartner = GLN.test(senderGln) ? await partnerOf(recipient.id, senderGln) : { id: null };
      documents.push({
        ...common,
        id: inId,
        companyId: recipient.id,
        direction: 'in',
        partnerId: inPartner.id,
        partnerGln: GLN.test(senderGln) ? senderGln : null,
        partnerName: sender?.name ?? partyName(m.body, senderGln) ?? null,
        status: 'received',
        linkedCopyId: outId,
      });
      history.push({
        documentId: inId,
        field: 'status',
        fromValue: null,
        toValue: 'received',
        userId: null,
        at,
        reason: 'routed',
      });
      links.push({ fromId: outId, toId: inId, kind: 'copy' });
    }
    return { documents, history, links };
  }

  /**
   * Links each new copy to the document of the same company its reference number names (an order response, despatch
   * advice or invoice to its order, a receiving advice to its despatch advice): `reference`, from the new one. The
   * referenced order is preferred when several documents have that number.
   */
  async function chainLinks(
    rows: readonly NewDocument[],
    tx: Db,
  ): Promise<{ fromId: string; toId: string; kind: string }[]> {
    const links: { fromId: string; toId: string; kind: string }[] = [];
    const byCompany = new Map<string, NewDocument[]>();
    for (const row of rows) {
      if (!row.referenceNumber || row.referenceNumber === row.number) continue;
      byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row]);
    }
    for (const [companyId, list] of byCompany) {
      const found = await repo.findByNumbers(companyId, [...new Set(list.map((r) => r.referenceNumber!))], tx);
      for (const row of list) {
        const candidates = found.filter((f) => f.number === row.referenceNumber);
        const target = candidates.find((f) => f.kind === 'order') ?? candidates[0];
        if (target) links.push({ fromId: row.id!, toId: target.id, kind: 'reference' });
      }
    }
    return links;
  }

  /**
   * The same document number, type and partner already in the company's same list: stored all the same, with a
   * `duplicate_document` warning among its findings (issue 11, part 2).
   */
  async function warnDuplicates(rows: NewDocument[], tx: Db): Promise<void> {
    const byCompany = new Map<string, NewDocument[]>();
    for (const row of rows) {
      if (row.number) byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row]);
    }
    for (const [companyId, list] of byCompany) {
      const found = await repo.findByNumbers(companyId, [...new Set(list.map((r) => r.number!))], tx);
      for (const row of list) {
        const twin = found.find(
          (f) =>
            f.number === row.number &&
            f.direction === row.direction &&
            f.documentType === row.documentType &&
            f.partnerGln === (row.partnerGln ?? null),
        );
        if (!twin) continue;
        const warning: DocumentFinding = {
          code: 'duplicate_document',
          severity: 'warning',
          level: 'document',
          path: '',
          line: 0,
          column: 0,
          params: { documentId: twin.id },
        };
        row.findings = [...((row.findings as DocumentFinding[] | undefined) ?? []), warning];
      }
    }
  }

  /**
   * Tells each partner's notification recipients (issue 10) of a document received from it, or of one to or from it
   * that failed validation, in the ingest's transaction: the e-mails exist exactly when the documents do. At most
   * NOTIFY_PER_PARTNER messages per partner and event for one interchange, so a file of thousands of messages is not
   * thousands of e-mails to each recipient.
   */
  async function notifyPartners(rows: readonly NewDocument[], tx: Db): Promise<void> {
    const sent = new Map<string, number>();
    for (const row of rows) {
      if (!row.partnerId) continue;
      const event =
        row.status === 'error' ? 'failed' : row.direction === 'in' && row.status === 'received' ? 'received' : null;
      if (!event) continue;
      const key = `${row.companyId}/${row.partnerId}/${event}`;
      const count = sent.get(key) ?? 0;
      if (count >= NOTIFY_PER_PARTNER) continue;
      sent.set(key, count + 1);
      const firstError = ((row.findings ?? []) as DocumentFinding[]).find((f) => f.severity === 'error');
      await partners.notifyPartnerEvent(
        row.companyId,
        row.partnerId,
        event,
        {
          documentType: row.documentType,
          number: row.number ?? null,
          direction: row.direction as DocumentDirection,
          reason: firstError ? `${firstError.code} (${firstError.path}, line ${firstError.line})` : null,
        },
        { tx },
      );
    }
  }

  const service = {
    /**
     * Reads an uploaded interchange into documents, once: a second run (a retried job, or the job after the upload
     * ran it) finds the interchange no longer `queued` and does nothing; the unique key of a message's copy backs it.
     */
    async ingest(interchangeId: string): Promise<void> {
      const interchange = await repo.findInterchange(interchangeId);
      if (!interchange || interchange.state !== 'queued') return;
      const result = await read(interchange);
      const at = clock.now();
      // The companies of every GLN the routing may ask about, looked up before the transaction: on PGlite a query
      // outside an open transaction waits for it (decision 0011).
      const known = new Map<string, { id: string; name: string } | null>();
      if (!('failed' in result)) {
        const lookup = companyLookup();
        for (const m of result.messages) {
          for (const gln of [m.unbRecipient, m.unbSender, m.summary.buyerGln, m.summary.supplierGln]) {
            if (gln && !known.has(gln)) known.set(gln, await lookup(gln));
          }
        }
      }
      const lookup = (gln: string | null | undefined) => (gln ? (known.get(gln) ?? null) : null);
      await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const locked = await repo.lockInterchange(interchangeId, tx);
        if (!locked || locked.state !== 'queued') return;
        if ('failed' in result) {
          await repo.finishInterchange(
            interchangeId,
            { state: 'failed', findings: [result.failed], messageCount: 0, at },
            tx,
          );
          return;
        }
        const documents: NewDocument[] = [];
        const history: NewHistory[] = [];
        const links: { fromId: string; toId: string; kind: string }[] = [];
        // One partner look-up per company and GLN for the whole file, not one per message.
        const partnerIds = new Map<string, Promise<{ id: string | null }>>();
        const partnerOf = (companyId: string, gln: string) => {
          const key = `${companyId}/${gln}`;
          let id = partnerIds.get(key);
          if (!id) partnerIds.set(key, (id = partners.ensurePartner(companyId, gln, { at, tx })));
          return id;
        };
        for (const message of result.messages) {
          const rows = await rowsOf(locked, message, lookup, at, partnerOf);
          documents.push(...rows.documents);
          history.push(...rows.history);
          links.push(...rows.links);
        }
        links.push(...(await chainLinks(documents, tx)));
        await warnDuplicates(documents, tx);
        const inserted = new Set(await repo.insertDocuments(documents, tx));
        await repo.insertHistory(
          history.filter((h) => inserted.has(h.documentId)),
          tx,
        );
        await repo.insertLinks(
          links.filter((l) => inserted.has(l.fromId) && (l.kind !== 'copy' || inserted.has(l.toId))),
          tx,
        );
        await notifyPartners(
          documents.filter((d) => inserted.has(d.id!)),
          tx,
        );
        await repo.finishInterchange(
          interchangeId,
          { state: 'done', findings: result.findings, messageCount: result.messages.length, at },
          tx,
        );
      });
    },

    /**
     * Stores each file and its ingest job, then ingests the small ones while the caller waits (decision 0022). Every
     * file's envelope is checked before anything is stored: a file that is not an interchange, or (outbox) whose UNB
     * sender is not one of the company's GLNs, refuses the whole upload.
     */
    async upload(
      caller: DocumentsCaller,
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
        const { sha256, envelope } = envelopes[i]!;
        const key = {
          companyId,
          direction,
          senderId: envelope!.senderId,
          controlReference: envelope!.controlReference,
        };
        const duplicateOf = async (first: InterchangeRow): Promise<UploadFileResult> => ({
          fileName: file.fileName,
          interchangeId: first.id,
          duplicate: true,
          queued: first.state === 'queued',
          // Another demo session's interchange (or a real one, for a demo session) is not the caller's to list.
          documents:
            first.sessionId === demoSessionOf(caller)
              ? (await repo.documentsOfInterchange(first.id, companyId, direction)).map(toUploaded)
              : [],
          findings: [],
        });
        const first = await repo.findInterchangeByKey(key);
        if (first) {
          results.push(await duplicateOf(first));
          continue;
        }
        const id = randomUUID();
        const payloadKey = `documents/interchanges/${id}/original`;
        // The blob before the row (decision 0008); removed again when the row is not written.
        await blobs.put(payloadKey, file.bytes, {
          contentType: 'application/edifact',
          maxBytes: DOCUMENT_UPLOAD_MAX_BYTES,
        });
        const inline = file.bytes.length <= deps.inlineMaxBytes;
        const row = await db
          .transaction(async (txRaw) => {
            const tx = txRaw as unknown as Db;
            const inserted = await repo.insertInterchange(
              {
                id,
                ...key,
                senderQualifier: envelope!.senderQualifier,
                recipientId: envelope!.recipientId,
                recipientQualifier: envelope!.recipientQualifier,
                syntax: envelope!.syntax,
                contentSha256: sha256,
                payloadKey,
                fileName: file.fileName,
                size: file.bytes.length,
                uploadedBy: caller.userId,
                sessionId: demoSessionOf(caller),
                createdAt: clock.now(),
              },
              tx,
            );
            if (!inserted) return undefined;
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
          // The same interchange, uploaded at the same moment by another request.
          await blobs.delete(payloadKey);
          results.push(await duplicateOf((await repo.findInterchangeByKey(key))!));
          continue;
        }
        if (!inline) {
          jobs.wake('documents.ingest');
          results.push({
            fileName: file.fileName,
            interchangeId: id,
            duplicate: false,
            queued: true,
            documents: [],
            findings: [],
          });
          continue;
        }
        await service.ingest(id);
        const done = (await repo.findInterchange(id))!;
        const documents = await repo.documentsOfInterchange(id, companyId, direction);
        const findings = [
          ...(done.findings as DocumentFinding[]),
          ...documents.flatMap((d) => d.findings as DocumentFinding[]),
        ].slice(0, DOCUMENT_MAX_FINDINGS);
        results.push({
          fileName: file.fileName,
          interchangeId: id,
          duplicate: false,
          queued: false,
          documents: documents.map(toUploaded),
          findings,
        });
      }
      return results;
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
     * The original bytes: the whole file as received when its interchange holds this one message, else this
     * message's own bytes (UNH to UNT) as they stand in the file.
     */
    async original(
      caller: DocumentsCaller,
      id: string,
    ): Promise<{ fileName: string; size: number; body: AsyncIterable<Buffer> | Readable }> {
      const reader = await readerOf(caller);
      const row = await repo.find(reader, id);
      if (!row) throw notFound();
      const interchange = (await repo.findInterchange(row.interchangeId))!;
      const blob = await blobs.get(interchange.payloadKey);
      const whole = interchange.messageCount === 1;
      const base = (row.number ?? row.id).replace(/[^A-Za-z0-9._-]/g, '_');
      if (whole) return { fileName: `${row.documentType}_${base}.edi`, size: blob.size, body: blob.body };
      return {
        fileName: `${row.documentType}_${base}.edi`,
        size: row.payloadLength,
        body: Readable.from(sliceOf(blob.body, row.payloadOffset, row.payloadLength)),
      };
    },
  };

  return service;
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
