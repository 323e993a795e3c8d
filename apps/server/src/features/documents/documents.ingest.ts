/**
 * The ingest of an uploaded interchange file into documents, in batches (decisions 0022 and 0024): the file's blob is
 * read as a stream and cut at message boundaries (documents.split.ts); each piece is validated and mapped on the CPU
 * pool (a time limit per piece, not per file) while the one before it is written; each batch is written in its own
 * transaction, which also moves the interchange's progress marker (`messages_done`). A run after a crash or a failed
 * batch goes on from the marker; the unique key (interchange, message index, company, direction) backs it. The
 * interchange stays `queued` until its last batch, which marks it `done`.
 *
 * Also here: the intake that stores a file (bytes in memory, or a stream) with its interchange keys and its job.
 */
import { randomUUID } from 'node:crypto';
import {
  DOCUMENT_MAX_FINDINGS,
  DOCUMENT_TYPE_CODES,
  type DocumentBusinessStatus,
  type DocumentDirection,
  type DocumentFinding,
} from '@portal/contracts';
import { APERAK_REFERENCE_QUALIFIERS, type CanonicalDocument } from '@portal/documents';
import type { CpuPool } from '../../cpu/pool.ts';
import type { Db } from '../../db/client.ts';
import { retryTransient } from '../../db/sql.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EdifactService } from '../edifact/edifact.service.ts';
import type {
  DocumentCompanies,
  DocumentOutbox,
  DocumentPartners,
  DocumentProducts,
} from './documents.dependencies.ts';
import {
  advances,
  answerReason,
  initialBusinessStatus,
  invoicedCoverage,
  statusFromLinked,
} from './documents.business-status.ts';
import { enrichBody, glnsToEnrich, type DocumentEnrichment } from './documents.enrichment.ts';
import type { DocumentsRepository, InterchangeRow, NewDocument, NewHistory } from './documents.repository.ts';
import { splitInterchange, type Piece } from './documents.split.ts';
import type { IngestedMessage, IngestResult } from './documents.tasks.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { JobEnqueuer } from '../../jobs/queue.ts';
import { acknowledge, contrlJobOf } from './documents.contrl.ts';

/** A batch: cut at the first message start after this many messages or bytes (see the benchmark, decision 0024). */
export const INGEST_BATCH_MESSAGES = 500;
export const INGEST_BATCH_BYTES = 1024 * 1024;

/** Runs of one batch's transaction when PostgreSQL ends it for a deadlock or a serialization failure. */
const BATCH_ATTEMPTS = 3;

const TYPE_CODES: ReadonlySet<string> = new Set(DOCUMENT_TYPE_CODES);
const GLN = /^\d{13}$/;
/** E-mails per partner and event for one interchange (see notifyPartners). */
const NOTIFY_PER_PARTNER = 10;
/** Reported once per file, not once per batch. */
const ONCE_PER_FILE = new Set(['EDI_WHITESPACE_BETWEEN_SEGMENTS']);

const partyName = (body: CanonicalDocument, gln: string | null): string | undefined =>
  gln ? body.parties.find((p) => p.gln === gln && p.name)?.name : undefined;

const deliveryPoint = (body: CanonicalDocument) => body.parties.find((p) => p.role === 'DP' || p.role === 'ST');

/** The finding that a file's interchange was uploaded before (its messages are not stored again). */
export const duplicateInterchangeFinding = (
  key: { senderId: string; controlReference: string },
  first: string,
): DocumentFinding => ({
  code: 'duplicate_interchange',
  severity: 'warning',
  level: 'syntax',
  path: 'UNB',
  line: 0,
  column: 0,
  params: { sender: key.senderId, controlReference: key.controlReference, interchangeId: first },
});

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
  // A message with errors says so; one that came with an API key says that (the interchange names the key).
  const reason = hasErrors ? 'validation' : interchange.apiKeyId ? 'api_key' : null;

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
 * The documents an application error (APERAK) answers: the kinds its reference's qualifier names (ON an order, IV an
 * invoice or credit note, AAK a despatch advice…), of the other list of the same company (the inbox APERAK answers
 * an outbox document) and the same partner. Undefined for any other document, or an APERAK naming another kind of
 * reference, which links as any document does.
 */
function answeredBy(
  row: NewDocument,
): ((c: { kind: string; direction?: string; partnerGln?: string | null }) => boolean) | undefined {
  if (row.kind !== 'application_error') return undefined;
  const qualifier = (row.body as unknown as CanonicalDocument).references.find(
    (r) => r.value === row.referenceNumber,
  )?.qualifier;
  const kinds = Object.entries(APERAK_REFERENCE_QUALIFIERS)
    .filter(([, q]) => q === qualifier)
    .map(([kind]) => kind);
  if (!kinds.length) return undefined;
  return (c) => kinds.includes(c.kind) && c.direction !== row.direction && c.partnerGln === row.partnerGln;
}

/**
 * Links each new copy to the document of the same company its reference number names (an order response, despatch
 * advice or invoice to its order, a receiving advice to its despatch advice, an APERAK to the document it answers):
 * `reference`, from the new one. The referenced order is preferred when several documents have that number.
 */
async function chainLinks(
  repo: DocumentsRepository,
  rows: readonly NewDocument[],
  tx: Db,
): Promise<{ fromId: string; toId: string; kind: string }[]> {
  const links: { fromId: string; toId: string; kind: string }[] = [];
  const byCompany = new Map<string, NewDocument[]>();
  for (const row of rows) {
    // A CONTRL's reference is an interchange's control reference, linked by `acknowledge` (decision 0035).
    if (!row.referenceNumber || row.referenceNumber === row.number || row.kind === 'syntax_report') continue;
    const list = byCompany.get(row.companyId);
    if (list) list.push(row);
    else byCompany.set(row.companyId, [row]);
  }
  // The same batch's earlier messages count too: a file's order and its invoice are linked in whichever batch.
  const inBatch = new Map<
    string,
    { id: string; number: string; kind: string; messageIndex: number; direction: string; partnerGln: string | null }[]
  >();
  for (const row of rows) {
    if (!row.number) continue;
    const key = `${row.companyId}/${row.number}`;
    const entry = {
      id: row.id!,
      number: row.number,
      kind: row.kind,
      messageIndex: row.messageIndex,
      direction: row.direction,
      partnerGln: row.partnerGln ?? null,
    };
    const list = inBatch.get(key);
    if (list) list.push(entry);
    else inBatch.set(key, [entry]);
  }
  for (const [companyId, list] of byCompany) {
    const found = await repo.findByNumbers(companyId, [...new Set(list.map((r) => r.referenceNumber!))], tx);
    for (const row of list) {
      const earlier = (inBatch.get(`${companyId}/${row.referenceNumber}`) ?? []).filter(
        (f) => f.messageIndex < row.messageIndex,
      );
      const answers = answeredBy(row);
      const candidates = [...found.filter((f) => f.number === row.referenceNumber), ...earlier].filter(
        (c) => !answers || answers(c),
      );
      const target = candidates.find((f) => f.kind === 'order') ?? candidates[0];
      if (target) links.push({ fromId: row.id!, toId: target.id, kind: 'reference' });
    }
  }
  return links;
}

type EarlierChange = {
  id: string;
  from: string | null;
  to: DocumentBusinessStatus;
  sourceId: string;
  history: NewHistory;
};

/**
 * The business statuses the new rows say (decision 0025): each new order's own, and what each new document whose
 * reference names an order says of that order, the order new in this batch (its row changed before it is written)
 * or stored before (changed by `applyBusinessStatuses` once the new document is written). Each change of an order
 * is a history row.
 */
async function deriveBusinessStatuses(
  repo: DocumentsRepository,
  rows: NewDocument[],
  links: readonly { fromId: string; toId: string; kind: string }[],
  tx: Db,
  at: Date,
  userId: string | null,
): Promise<{ history: NewHistory[]; earlier: EarlierChange[] }> {
  for (const row of rows) row.businessStatus = initialBusinessStatus(row.kind, row.functionCode) ?? null;
  const batch = new Map(rows.map((r) => [r.id!, r]));
  const references = links.filter((l) => l.kind === 'reference' && batch.has(l.fromId));
  const stored = new Map<string, { kind: string; businessStatus: string | null }>();
  const outside = new Map<string, Set<string>>();
  for (const l of references) {
    if (batch.has(l.toId)) continue;
    const companyId = batch.get(l.fromId)!.companyId;
    outside.set(companyId, (outside.get(companyId) ?? new Set()).add(l.toId));
  }
  for (const [companyId, ids] of outside) {
    for (const row of await repo.businessStatuses(companyId, [...ids], tx)) stored.set(row.id, row);
  }
  const coverage = await invoiceCoverage(repo, batch, references, stored, tx);
  const history: NewHistory[] = [];
  const earlier: EarlierChange[] = [];
  for (const l of references) {
    const source = batch.get(l.fromId)!;
    let next = statusFromLinked(source.kind, source.functionCode);
    if (next === 'invoiced') next = coverage.get(l.toId) ?? next;
    if (!next) continue;
    const target = batch.get(l.toId) ?? stored.get(l.toId);
    // An APERAK (linked only to a document it answers, see answeredBy) moves the document of the list it answers
    // when it arrives in the inbox; every other linked document moves an order.
    const answer = source.kind === 'application_error';
    if (!target || (answer ? source.direction !== 'in' : target.kind !== 'order')) continue;
    const from = target.businessStatus ?? null;
    if (!advances(from, next)) continue;
    const entry: NewHistory = {
      documentId: l.toId,
      field: 'businessStatus',
      fromValue: from,
      toValue: next,
      userId,
      at,
      reason: (answer ? answerReason(source.body as unknown as CanonicalDocument) : null) ?? 'linked_document',
    };
    target.businessStatus = next;
    if (batch.has(l.toId)) history.push(entry);
    else earlier.push({ id: l.toId, from, to: next, sourceId: l.fromId, history: entry });
  }
  return { history, earlier };
}

/**
 * The enrichment toggle (issue 12, part 4): each received document's parties given only by GLN get the name, address
 * and tax ids the company keeps for them, and the document the additional status Enriched, with its history row.
 */
async function enrich(enrichment: DocumentEnrichment, rows: NewDocument[], at: Date, tx: Db): Promise<NewHistory[]> {
  const byCompany = new Map<string, NewDocument[]>();
  for (const row of rows) {
    if (row.direction !== 'in') continue;
    byCompany.set(row.companyId, [...(byCompany.get(row.companyId) ?? []), row]);
  }
  const history: NewHistory[] = [];
  for (const [companyId, received] of byCompany) {
    const glns = [...new Set(received.flatMap((r) => glnsToEnrich(r.body as CanonicalDocument)))];
    if (glns.length === 0) continue;
    const known = await enrichment.partiesFor(companyId, glns, tx);
    if (!known || known.size === 0) continue;
    for (const row of received) {
      if (!glnsToEnrich(row.body as CanonicalDocument).some((gln) => known.has(gln))) continue;
      // The sender's outbox copy shares the parsed body: the receiver's copy gets its own.
      const body = structuredClone(row.body) as CanonicalDocument;
      if (!enrichBody(body, known)) continue;
      row.body = body as NewDocument['body'];
      history.push({
        documentId: row.id!,
        field: 'additionalStatus',
        fromValue: row.additionalStatus ?? null,
        toValue: 'enriched',
        userId: null,
        at,
        reason: 'enriched',
      });
      row.additionalStatus = 'enriched';
    }
  }
  return history;
}

/**
 * For each order a new invoice of the batch names: whether all its invoices, stored and new, cover it (invoiced) or
 * not yet (partly invoiced).
 */
async function invoiceCoverage(
  repo: DocumentsRepository,
  batch: ReadonlyMap<string, NewDocument>,
  references: readonly { fromId: string; toId: string }[],
  stored: ReadonlyMap<string, { kind: string }>,
  tx: Db,
): Promise<Map<string, 'invoiced' | 'partly_invoiced'>> {
  const bodies = new Map<string, CanonicalDocument>();
  const invoicesOf = new Map<string, CanonicalDocument[]>();
  const add = (orderId: string, body: unknown) =>
    invoicesOf.set(orderId, [...(invoicesOf.get(orderId) ?? []), body as CanonicalDocument]);
  const outside = new Map<string, Set<string>>();
  for (const l of references) {
    const source = batch.get(l.fromId)!;
    if (source.kind !== 'invoice') continue;
    const inBatch = batch.get(l.toId);
    if (inBatch?.kind === 'order') bodies.set(l.toId, inBatch.body as CanonicalDocument);
    else if (stored.get(l.toId)?.kind === 'order') {
      outside.set(source.companyId, (outside.get(source.companyId) ?? new Set()).add(l.toId));
    } else continue;
    add(l.toId, source.body);
  }
  for (const [companyId, ids] of outside) {
    const found = await repo.ordersWithInvoices(companyId, [...ids], tx);
    for (const o of found.orders) bodies.set(o.id, o.body as CanonicalDocument);
    for (const i of found.invoices) add(i.orderId, i.body);
  }
  const out = new Map<string, 'invoiced' | 'partly_invoiced'>();
  for (const [orderId, order] of bodies) out.set(orderId, invoicedCoverage(order, invoicesOf.get(orderId) ?? []));
  return out;
}

/** The stored orders' changes whose new document was written (a copy already there changes nothing). */
async function applyBusinessStatuses(
  repo: DocumentsRepository,
  changes: readonly EarlierChange[],
  inserted: ReadonlySet<string>,
  tx: Db,
): Promise<void> {
  const applied = changes.filter((c) => inserted.has(c.sourceId));
  const last = new Map(applied.map((c) => [c.id, c.to]));
  await repo.setBusinessStatuses(
    [...last].map(([id, to]) => ({ id, to })),
    tx,
  );
  await repo.insertHistory(
    applied.map((c) => c.history),
    tx,
  );
}

/**
 * The same document number, type and partner already in the company's same list from another interchange: stored all
 * the same, with a `duplicate_document` warning among its findings (issue 11, part 2). Within one file the answer
 * does not depend on where its batches were cut.
 */
async function warnDuplicates(repo: DocumentsRepository, rows: NewDocument[], tx: Db): Promise<void> {
  const byCompany = new Map<string, NewDocument[]>();
  for (const row of rows) {
    if (!row.number) continue;
    const list = byCompany.get(row.companyId);
    if (list) list.push(row);
    else byCompany.set(row.companyId, [row]);
  }
  for (const [companyId, list] of byCompany) {
    const found = await repo.findByNumbers(companyId, [...new Set(list.map((r) => r.number!))], tx);
    for (const row of list) {
      const twin = found.find(
        (f) =>
          f.interchangeId !== row.interchangeId &&
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
 * thousands of e-mails to each recipient; `sent` counts them over the file's batches.
 */
async function notifyPartners(
  partners: DocumentPartners,
  rows: readonly NewDocument[],
  sent: Map<string, number>,
  tx: Db,
): Promise<void> {
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

/** A processing limit of the CPU pool as a finding of the file. */
const limitFinding = (error: AppError): DocumentFinding => ({
  code: 'processing_limit',
  severity: 'error',
  level: 'syntax',
  path: '',
  line: 0,
  column: 0,
  ...(error.data ? { params: error.data as Record<string, string | number> } : {}),
});

export type IngestDeps = {
  db: Db;
  clock: Clock;
  cpu: CpuPool;
  blobs: BlobStore;
  edifact: Pick<EdifactService, 'directoryRef'>;
  companies: DocumentCompanies;
  partners: DocumentPartners;
  products?: DocumentProducts | undefined;
  /** Follows up outbox documents once stored (KSeF submissions); absent, nothing does. */
  outbox?: DocumentOutbox | undefined;
  /** Fills received documents' parties from the address book and partners (toggle ENRICHMENT); absent, nothing is. */
  enrichment?: DocumentEnrichment | undefined;
  repo: DocumentsRepository;
  /** Where the CONTRL answering a received interchange is enqueued (decision 0035); absent, none is. */
  jobs?: JobEnqueuer | undefined;
  /** Batch size (tests make it small). */
  batchMessages?: number | undefined;
  batchBytes?: number | undefined;
};

type Link = { fromId: string; toId: string; kind: string };

/** INGEST_PROFILE=1: each run prints where its time went, in ms (`npm run bench:ingest` shows it). */
const PROFILE = process.env.INGEST_PROFILE === '1';

/** Wall time summed per step of one ingest run; free when INGEST_PROFILE is off but for a clock read. */
function stepTimer() {
  const sums = new Map<string, number>();
  return {
    async time<T>(step: string, work: () => Promise<T>): Promise<T> {
      const started = performance.now();
      try {
        return await work();
      } finally {
        sums.set(step, (sums.get(step) ?? 0) + performance.now() - started);
      }
    },
    report: () => [...sums].map(([step, ms]) => `${step} ${Math.round(ms)}`).join(', '),
  };
}

export function createDocumentsIngest(deps: IngestDeps) {
  const { db, clock, cpu, blobs, companies, partners, repo } = deps;
  const batchMessages = deps.batchMessages ?? INGEST_BATCH_MESSAGES;
  const batchBytes = deps.batchBytes ?? INGEST_BATCH_BYTES;

  /** One run over the file from the progress marker on; 'mismatch' when the file must be read in one piece. */
  async function run(interchange: InterchangeRow, whole: boolean): Promise<'done' | 'mismatch'> {
    const id = interchange.id;
    // Wall time of each step: the pool's work, waiting for it, each transaction and its parts.
    const timer = stepTimer();
    const ref = await deps.edifact.directoryRef();
    const at = clock.now();
    const findings = [...(interchange.findings as DocumentFinding[])];
    const once = new Set(findings.map((f) => f.code).filter((c) => ONCE_PER_FILE.has(c)));
    // The file's interchanges uploaded before (found at the upload): their messages are not stored again.
    const duplicates = new Set(
      findings
        .filter((f) => f.code === 'duplicate_interchange')
        .map((f) => `${String(f.params?.sender)}/${String(f.params?.controlReference)}`),
    );
    const sent = new Map<string, number>();
    if (interchange.messagesDone > 0) {
      for (const { key, count } of await repo.notifiedSoFar(id)) sent.set(key, Math.min(count, NOTIFY_PER_PARTNER));
    }
    // Look-ups of one run remembered: companies by GLN, partners by company and GLN (created in an earlier batch's
    // committed transaction, or in this one's; a failed batch ends the run, and with it this memory).
    const known = new Map<string, { id: string; name: string } | null>();
    const partnerIds = new Map<string, Promise<{ id: string | null }>>();

    // The company the interchange is addressed to (the CONTRL's sender, decision 0035).
    if (!known.has(interchange.recipientId)) {
      known.set(interchange.recipientId, await companies.findCompanyByGln(interchange.recipientId));
    }

    const blob = await blobs.get(interchange.payloadKey);
    const pieces = splitInterchange(blob.body, {
      batchMessages,
      batchBytes,
      skip: interchange.messagesDone,
      whole,
    });
    const read = async (): Promise<
      { piece: Piece; result: IngestResult | { failed: DocumentFinding } } | undefined
    > => {
      const next = await pieces.next();
      if (next.done) return undefined;
      const piece = next.value;
      const single = piece.offset === 0 && piece.last;
      try {
        const result = await timer.time('cpu', () =>
          cpu.run({
            name: 'documents.ingest',
            ...ref,
            bytes: piece.body,
            resume: single
              ? undefined
              : {
                  header: piece.header,
                  offset: piece.offset,
                  line: piece.line,
                  lineStart: piece.lineStart,
                  messages: piece.messagesBefore,
                  last: piece.last,
                },
            firstIndex: piece.firstIndex,
            starts: single ? undefined : piece.starts,
          }),
        );
        return { piece, result };
      } catch (error) {
        if (error instanceof AppError && error.code === 'request.processing_limit') {
          return { piece, result: { failed: limitFinding(error) } };
        }
        throw error;
      }
    };

    // Another run finished the interchange meanwhile.
    let stopped = false;
    try {
      // The next piece is read and validated while this one is written.
      let next = read();
      for (;;) {
        const current = await timer.time('wait', () => next);
        if (!current) return 'done';
        const { piece, result } = current;
        next = piece.last || 'failed' in result || result.mismatch ? Promise.resolve(undefined) : read();
        // Awaited in the next round; a failure meanwhile must not be an unhandled rejection.
        next.catch(() => undefined);
        if (!('failed' in result) && result.mismatch) return 'mismatch';
        const messages = 'failed' in result ? [] : result.messages;
        for (const m of messages) {
          for (const gln of [m.unbRecipient, m.unbSender, m.summary.buyerGln, m.summary.supplierGln]) {
            // Before the transaction: on PGlite a query outside an open transaction waits for it (decision 0011).
            if (gln && !known.has(gln)) known.set(gln, await companies.findCompanyByGln(gln));
          }
        }
        const lookup = (gln: string | null | undefined) => (gln ? (known.get(gln) ?? null) : null);
        await timer.time('analyze', () => repo.keepStatistics());
        // What a batch's transaction adds to the run's memory, kept so that a transaction PostgreSQL ended to resolve
        // a deadlock with another upload's (both upsert the same two partners, in the opposite order) runs again.
        const findingsBefore = findings.length;
        const onceBefore = [...once];
        const sentBefore = [...sent];
        await retryTransient(
          BATCH_ATTEMPTS,
          () =>
            timer.time('tx', () =>
              db.transaction(async (txRaw) => {
                const tx = txRaw as unknown as Db;
                const locked = await repo.lockInterchange(id, tx);
                if (!locked || locked.state !== 'queued') {
                  stopped = true;
                  return;
                }
                if (locked.messagesDone !== piece.firstIndex) throw new IngestMoved(id);
                if ('failed' in result) {
                  findings.push(result.failed);
                  await repo.advanceInterchange(
                    id,
                    {
                      messagesDone: locked.messagesDone,
                      findings: findings.slice(0, DOCUMENT_MAX_FINDINGS),
                      finish: { state: 'failed', messageCount: locked.messagesDone, at },
                    },
                    tx,
                  );
                  return;
                }
                const partnerOf = (companyId: string, gln: string) => {
                  const key = `${companyId}/${gln}`;
                  let found = partnerIds.get(key);
                  if (!found) partnerIds.set(key, (found = partners.ensurePartner(companyId, gln, { at, tx })));
                  return found;
                };
                const documents: NewDocument[] = [];
                const history: NewHistory[] = [];
                const links: Link[] = [];
                const reports: (NewDocument & { unbRecipient: string })[] = [];
                for (const message of messages) {
                  if (duplicates.has(`${message.unbSender}/${message.unbReference}`)) continue;
                  const rows = await rowsOf(locked, message, lookup, at, partnerOf);
                  for (const d of rows.documents) {
                    if (d.direction === 'in' && d.kind === 'syntax_report') {
                      reports.push({ ...d, unbRecipient: message.unbRecipient });
                    }
                  }
                  documents.push(...rows.documents);
                  history.push(...rows.history);
                  links.push(...rows.links);
                }
                if (deps.enrichment) {
                  const enrichment = deps.enrichment;
                  history.push(...(await timer.time('enrich', () => enrich(enrichment, documents, at, tx))));
                }
                links.push(...(await timer.time('chain', () => chainLinks(repo, documents, tx))));
                const business = await timer.time('business', () =>
                  deriveBusinessStatuses(repo, documents, links, tx, at, locked.uploadedBy),
                );
                history.push(...business.history);
                await timer.time('dups', () => warnDuplicates(repo, documents, tx));
                const inserted = new Set(await timer.time('insert', () => repo.insertDocuments(documents, tx)));
                await timer.time('history', () =>
                  repo.insertHistory(
                    history.filter((h) => inserted.has(h.documentId)),
                    tx,
                  ),
                );
                await timer.time('business-apply', () => applyBusinessStatuses(repo, business.earlier, inserted, tx));
                await timer.time('links', () =>
                  repo.insertLinks(
                    links.filter((l) => inserted.has(l.fromId) && (l.kind !== 'copy' || inserted.has(l.toId))),
                    tx,
                  ),
                );
                // A price catalogue received without errors fills the receiver's products, with the document or not at all.
                if (deps.products) {
                  for (const d of documents) {
                    if (
                      d.direction === 'in' &&
                      d.kind === 'price_catalogue' &&
                      d.status !== 'error' &&
                      inserted.has(d.id!)
                    ) {
                      await timer.time('products', () =>
                        deps.products!.fillFromPriceCatalogue(d.companyId, d.body as CanonicalDocument, tx),
                      );
                    }
                  }
                }
                // Invoices sent (not a demo session's, not in error) follow up in this transaction: KSeF (issue 13).
                if (deps.outbox) {
                  const invoices = documents.filter(
                    (d) =>
                      inserted.has(d.id!) &&
                      d.direction === 'out' &&
                      !d.sessionId &&
                      d.status !== 'error' &&
                      (d.kind === 'invoice' || d.kind === 'credit_note'),
                  );
                  if (invoices.length > 0) {
                    const outbox = deps.outbox;
                    await timer.time('outbox', () =>
                      outbox.afterStored(
                        invoices.map((d) => ({ documentId: d.id!, companyId: d.companyId, kind: d.kind })),
                        tx,
                      ),
                    );
                  }
                }
                // A CONTRL received: the outbox documents it answers show its result (decision 0035).
                await timer.time('acknowledge', () =>
                  acknowledge(
                    reports.filter((r) => inserted.has(r.id!)),
                    at,
                    tx,
                  ),
                );
                await timer.time('notify', () =>
                  notifyPartners(
                    partners,
                    documents.filter((d) => inserted.has(d.id!)),
                    sent,
                    tx,
                  ),
                );
                for (const f of result.findings) {
                  if (ONCE_PER_FILE.has(f.code)) {
                    if (once.has(f.code)) continue;
                    once.add(f.code);
                  }
                  findings.push(f);
                }
                const done =
                  piece.offset === 0 && piece.last ? messages.length : piece.firstIndex + piece.starts.length;
                // The interchange received is answered with a CONTRL, once: its job is written with its last batch.
                if (piece.last && deps.jobs) {
                  const job = await contrlJobOf(
                    locked,
                    messages.map((m) => m.type),
                    lookup(locked.recipientId)?.id ?? null,
                    tx,
                  );
                  if (job) await deps.jobs.enqueue(tx, 'documents.contrl', job, { key: id });
                }
                await repo.advanceInterchange(
                  id,
                  {
                    messagesDone: done,
                    findings: findings.slice(0, DOCUMENT_MAX_FINDINGS),
                    ...(piece.last ? { finish: { state: 'done' as const, messageCount: done, at } } : {}),
                  },
                  tx,
                );
              }),
            ),
          () => {
            findings.length = findingsBefore;
            once.clear();
            for (const code of onceBefore) once.add(code);
            sent.clear();
            for (const [key, count] of sentBefore) sent.set(key, count);
            // The partners ensured in the rolled-back transaction went with it.
            partnerIds.clear();
            stopped = false;
          },
        );
        if (stopped || 'failed' in result) return 'done';
      }
    } finally {
      await pieces.return(undefined);
      blob.body.destroy();
      if (PROFILE) {
        process.stderr.write(`ingest ${id} (${interchange.messagesDone} done before): ${timer.report()} ms\n`);
      }
    }
  }

  return {
    /**
     * Reads an uploaded interchange into documents, batch by batch, exactly once: a run finds the interchange's
     * progress marker and goes on from there; a second run at the same time finds the marker moved and stops with
     * an error (a job is retried, and then finds the interchange done).
     */
    async ingest(interchangeId: string): Promise<void> {
      const interchange = await repo.findInterchange(interchangeId);
      if (!interchange || interchange.state !== 'queued') return;
      const outcome = await run(interchange, false);
      if (outcome === 'done') return;
      // The parser found the messages elsewhere than the split: read the file in one piece, if nothing is stored yet.
      const now = await repo.findInterchange(interchangeId);
      if (!now || now.state !== 'queued') return;
      if (now.messagesDone === 0) {
        await run(now, true);
        return;
      }
      await db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await repo.advanceInterchange(
          interchangeId,
          {
            messagesDone: now.messagesDone,
            findings: [
              ...(now.findings as DocumentFinding[]),
              limitFinding(new AppError('request.processing_limit', { data: { reason: 'split' } })),
            ].slice(0, DOCUMENT_MAX_FINDINGS),
            finish: { state: 'failed', messageCount: now.messagesDone, at: clock.now() },
          },
          tx,
        );
      });
    },
  };
}

/** Another run of the same interchange moved its progress marker: this one stops (see `ingest`). */
export class IngestMoved extends Error {
  constructor(interchangeId: string) {
    super(`The ingest of interchange ${interchangeId} is run elsewhere`);
    this.name = 'IngestMoved';
  }
}
