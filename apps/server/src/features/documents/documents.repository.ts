import { and, asc, count, desc, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DocumentSort } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { escapeLike, qualified as col } from '../../db/sql.ts';
import { isUuid } from '../../lib/secrets.ts';
import { documentScope, type DocumentReader, type DocumentScopeColumns } from '../../access/document-scope.ts';
import { documentLinks, documentStatusHistory, documents as doc, interchanges } from './documents.table.ts';

export type InterchangeRow = typeof interchanges.$inferSelect;
export type NewInterchange = typeof interchanges.$inferInsert;
export type DocumentRow = typeof doc.$inferSelect;
export type NewDocument = typeof doc.$inferInsert;
export type NewHistory = typeof documentStatusHistory.$inferInsert;
export type HistoryRow = typeof documentStatusHistory.$inferSelect;
export type DocumentListRow = Omit<DocumentRow, 'body' | 'findings'>;

/** Every column but the body and the findings: a list row does not carry them. */
const { body: _body, findings: _findings, ...docColumns } = getTableColumns(doc);

/** The columns of the documents table the access scope reads (decision 0010). */
const SCOPE: DocumentScopeColumns = {
  companyId: doc.companyId,
  direction: doc.direction,
  documentType: doc.documentType,
  partnerId: doc.partnerId,
  partnerGln: doc.partnerGln,
  deliveryPointGln: doc.deliveryPointGln,
  sessionId: doc.sessionId,
};

export type DocumentFilters = {
  direction: 'in' | 'out';
  documentNumber?: string | undefined;
  documentReferenceNumber?: string | undefined;
  businessTypeIds?: string[] | undefined;
  documentFunctionCode?: string | undefined;
  messageType?: string | undefined;
  messageCategory?: string | undefined;
  partnerIds?: string[] | undefined;
  processingDateFrom?: string | undefined;
  processingDateTo?: string | undefined;
  documentDateFrom?: string | undefined;
  documentDateTo?: string | undefined;
  expectedDeliveryDateFrom?: string | undefined;
  expectedDeliveryDateTo?: string | undefined;
  deliveryPointGln?: string | undefined;
  documentStatus?: string[] | undefined;
  documentAdditionalStatus?: string[] | undefined;
  standard?: string | undefined;
  version?: string | undefined;
  mode?: 'test' | 'production' | undefined;
  buyerTaxId?: string | undefined;
  sellerTaxId?: string | undefined;
};

export type DocumentOrder = { sort: DocumentSort; direction: 'asc' | 'desc' };

/**
 * The sort expression of each sort, never null, so that (key, id) orders every row exactly once. The platform
 * timestamp is compared as a timestamp (the list's index); the others as text (ISO dates sort as text).
 */
const text = (column: SQL) => sql`coalesce(${column}, '')`;
const SORT_KEYS: Record<Exclude<DocumentSort, 'timestamp'>, SQL> = {
  number: text(col(doc, doc.number)),
  referenceNumber: text(col(doc, doc.referenceNumber)),
  documentType: col(doc, doc.documentType),
  partnerName: text(sql`lower(${col(doc, doc.partnerName)})`),
  deliveryPointGln: text(col(doc, doc.deliveryPointGln)),
  expectedDeliveryDate: text(sql`${col(doc, doc.expectedDeliveryDate)}::text`),
  businessDate: text(sql`${col(doc, doc.businessDate)}::text`),
  status: col(doc, doc.status),
};
const TIMESTAMP = col(doc, doc.platformTimestamp);

/** The day range as timestamps: from the start of `from` to the end of `to` (UTC days). */
const dayStart = (day: string) => sql`${day}::date`;
const dayAfter = (day: string) => sql`(${day}::date + 1)`;

/**
 * The document's partner is one of these ids or GLNs: ids compared as uuids and GLNs as text, each on its own
 * column, so that each can use its index (a cast of the column to text could not).
 */
function partnerIn(values: readonly string[]): SQL {
  const ids = values.filter(isUuid).map((v) => v.toLowerCase());
  const glns = values.filter((v) => !isUuid(v));
  return or(
    ids.length ? inArray(doc.partnerId, ids) : undefined,
    glns.length ? inArray(doc.partnerGln, glns) : undefined,
  )!;
}

function filtersOf(reader: DocumentReader, f: DocumentFilters): SQL[] {
  const where: SQL[] = [documentScope(reader, SCOPE), eq(doc.direction, f.direction)];
  if (f.documentNumber) where.push(sql`${doc.number} like ${`${escapeLike(f.documentNumber)}%`}`);
  if (f.documentReferenceNumber) {
    where.push(sql`${doc.referenceNumber} like ${`${escapeLike(f.documentReferenceNumber)}%`}`);
  }
  if (f.businessTypeIds?.length) where.push(inArray(doc.kind, f.businessTypeIds));
  if (f.documentFunctionCode) where.push(eq(doc.functionCode, f.documentFunctionCode));
  if (f.messageType) where.push(eq(doc.messageType, f.messageType.toUpperCase()));
  if (f.messageCategory) where.push(eq(doc.messageCategory, f.messageCategory));
  if (f.partnerIds?.length) where.push(partnerIn(f.partnerIds));
  if (f.processingDateFrom) where.push(sql`${doc.platformTimestamp} >= ${dayStart(f.processingDateFrom)}`);
  if (f.processingDateTo) where.push(sql`${doc.platformTimestamp} < ${dayAfter(f.processingDateTo)}`);
  if (f.documentDateFrom) where.push(sql`${doc.businessDate} >= ${f.documentDateFrom}::date`);
  if (f.documentDateTo) where.push(sql`${doc.businessDate} <= ${f.documentDateTo}::date`);
  if (f.expectedDeliveryDateFrom) {
    where.push(sql`${doc.expectedDeliveryDate} >= ${f.expectedDeliveryDateFrom}::date`);
  }
  if (f.expectedDeliveryDateTo) where.push(sql`${doc.expectedDeliveryDate} <= ${f.expectedDeliveryDateTo}::date`);
  if (f.deliveryPointGln) where.push(eq(doc.deliveryPointGln, f.deliveryPointGln));
  if (f.documentStatus?.length) where.push(inArray(doc.status, f.documentStatus));
  if (f.documentAdditionalStatus?.length) where.push(inArray(doc.additionalStatus, f.documentAdditionalStatus));
  if (f.standard) where.push(eq(doc.standard, f.standard));
  if (f.version) where.push(eq(doc.version, f.version.toUpperCase()));
  if (f.mode) where.push(eq(doc.test, f.mode === 'test'));
  if (f.buyerTaxId) where.push(eq(doc.buyerTaxId, f.buyerTaxId));
  if (f.sellerTaxId) where.push(eq(doc.sellerTaxId, f.sellerTaxId));
  return where;
}

/** At most this many days between the bounds of a document or delivery date range make it "short" (see list). */
const NARROW_DAYS = 92;
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
const narrowDates = (f: DocumentFilters): boolean =>
  (!!f.documentDateFrom && !!f.documentDateTo && daysBetween(f.documentDateFrom, f.documentDateTo) <= NARROW_DAYS) ||
  (!!f.expectedDeliveryDateFrom &&
    !!f.expectedDeliveryDateTo &&
    daysBetween(f.expectedDeliveryDateFrom, f.expectedDeliveryDateTo) <= NARROW_DAYS);

export function createDocumentsRepository(db: Db) {
  return {
    async findInterchangeByKey(
      key: { companyId: string; direction: string; senderId: string; controlReference: string },
      tx: Db = db,
    ): Promise<InterchangeRow | undefined> {
      const [row] = await tx
        .select()
        .from(interchanges)
        .where(
          and(
            eq(interchanges.companyId, key.companyId),
            eq(interchanges.direction, key.direction),
            eq(interchanges.senderId, key.senderId),
            eq(interchanges.controlReference, key.controlReference),
          ),
        )
        .limit(1);
      return row;
    },

    /** Inserts the interchange unless the same one (company, direction, sender, control reference) is there. */
    async insertInterchange(values: NewInterchange, tx: Db): Promise<InterchangeRow | undefined> {
      const [row] = await tx.insert(interchanges).values(values).onConflictDoNothing().returning();
      return row;
    },

    async findInterchange(id: string, tx: Db = db): Promise<InterchangeRow | undefined> {
      const [row] = await tx.select().from(interchanges).where(eq(interchanges.id, id)).limit(1);
      return row;
    },

    /** The interchange's row, locked until the transaction ends: one ingest of it at a time. */
    async lockInterchange(id: string, tx: Db): Promise<InterchangeRow | undefined> {
      const [row] = await tx.select().from(interchanges).where(eq(interchanges.id, id)).for('update').limit(1);
      return row;
    },

    async finishInterchange(
      id: string,
      values: { state: 'done' | 'failed'; findings: unknown[]; messageCount: number; at: Date },
      tx: Db,
    ): Promise<void> {
      await tx
        .update(interchanges)
        .set({
          state: values.state,
          findings: values.findings,
          messageCount: values.messageCount,
          processedAt: values.at,
        })
        .where(eq(interchanges.id, id));
    },

    /** Inserts the documents, 200 a statement; a copy already there (same message, company, direction) is skipped. */
    async insertDocuments(rows: readonly NewDocument[], tx: Db): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < rows.length; i += 200) {
        const inserted = await tx
          .insert(doc)
          .values(rows.slice(i, i + 200))
          .onConflictDoNothing()
          .returning({ id: doc.id });
        ids.push(...inserted.map((r) => r.id));
      }
      return ids;
    },

    async insertHistory(rows: readonly NewHistory[], tx: Db): Promise<void> {
      for (let i = 0; i < rows.length; i += 500) await tx.insert(documentStatusHistory).values(rows.slice(i, i + 500));
    },

    async insertLinks(rows: readonly { fromId: string; toId: string; kind: string }[], tx: Db): Promise<void> {
      for (let i = 0; i < rows.length; i += 500) {
        await tx
          .insert(documentLinks)
          .values(rows.slice(i, i + 500))
          .onConflictDoNothing();
      }
    },

    /** The company's documents of these numbers (for the chain: a response, despatch advice or invoice names its order). */
    async findByNumbers(
      companyId: string,
      numbers: readonly string[],
      tx: Db,
    ): Promise<
      { id: string; number: string; kind: string; direction: string; documentType: string; partnerGln: string | null }[]
    > {
      if (numbers.length === 0) return [];
      const rows = await tx
        .select({
          id: doc.id,
          number: doc.number,
          kind: doc.kind,
          direction: doc.direction,
          documentType: doc.documentType,
          partnerGln: doc.partnerGln,
        })
        .from(doc)
        .where(and(eq(doc.companyId, companyId), inArray(doc.number, [...numbers])))
        .orderBy(desc(doc.platformTimestamp), desc(doc.id))
        .limit(1000);
      return rows.map((r) => ({ ...r, number: r.number! }));
    },

    /** The copies of an interchange's messages that a company holds in a direction, in message order. */
    async documentsOfInterchange(
      interchangeId: string,
      companyId: string,
      direction: string,
      tx: Db = db,
    ): Promise<DocumentRow[]> {
      return tx
        .select()
        .from(doc)
        .where(and(eq(doc.interchangeId, interchangeId), eq(doc.companyId, companyId), eq(doc.direction, direction)))
        .orderBy(asc(doc.messageIndex));
    },

    /** One page in the given order, after the key of the previous page's last row; the reader's scope always applies. */
    async list(
      reader: DocumentReader,
      filters: DocumentFilters,
      order: DocumentOrder,
      after: { key: string; id: string } | undefined,
      limit: number,
    ): Promise<(DocumentListRow & { sortKey: string })[]> {
      const where = filtersOf(reader, filters);
      const by = order.direction === 'asc' ? asc : desc;
      const cmp = order.direction === 'asc' ? sql`>` : sql`<`;
      const id = col(doc, doc.id);
      if (order.sort === 'timestamp') {
        if (after) where.push(sql`(${TIMESTAMP}, ${id}) ${cmp} (${after.key}::timestamptz, ${after.id}::uuid)`);
        // A short range of document or delivery dates: PostgreSQL would walk the list's index (newest first) until a
        // page matched, which for a range months back is most of the list; ordering by the same value as an
        // expression makes it read the date's index and sort the range instead (decision 0028).
        const byTimestamp = narrowDates(filters) ? sql`(${TIMESTAMP} + interval '0 seconds')` : doc.platformTimestamp;
        return db
          .select({ ...docColumns, sortKey: sql<string>`${TIMESTAMP}::text` })
          .from(doc)
          .where(and(...where))
          .orderBy(by(byTimestamp), by(doc.id))
          .limit(limit);
      }
      const key = SORT_KEYS[order.sort];
      if (after) where.push(sql`(${key}, ${id}) ${cmp} (${after.key}, ${after.id}::uuid)`);
      return db
        .select({ ...docColumns, sortKey: sql<string>`${key}` })
        .from(doc)
        .where(and(...where))
        .orderBy(by(key), by(doc.id))
        .limit(limit);
    },

    async count(reader: DocumentReader, filters: DocumentFilters): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(doc)
        .where(and(...filtersOf(reader, filters)));
      return row?.n ?? 0;
    },

    /** One document, when the reader's scope holds it. */
    async find(reader: DocumentReader, id: string, tx: Db = db): Promise<DocumentRow | undefined> {
      const [row] = await tx
        .select()
        .from(doc)
        .where(and(documentScope(reader, SCOPE), eq(doc.id, id)))
        .limit(1);
      return row;
    },

    /** Of the ids, those the reader's scope holds. */
    async visible(reader: DocumentReader, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: doc.id })
        .from(doc)
        .where(and(documentScope(reader, SCOPE), inArray(doc.id, [...ids])));
      return new Set(rows.map((r) => r.id));
    },

    async history(documentId: string): Promise<HistoryRow[]> {
      return db
        .select()
        .from(documentStatusHistory)
        .where(eq(documentStatusHistory.documentId, documentId))
        .orderBy(asc(documentStatusHistory.id));
    },

    async links(documentId: string): Promise<{ fromId: string; toId: string; kind: string }[]> {
      return db
        .select({ fromId: documentLinks.fromId, toId: documentLinks.toId, kind: documentLinks.kind })
        .from(documentLinks)
        .where(or(eq(documentLinks.fromId, documentId), eq(documentLinks.toId, documentId)))
        .orderBy(asc(documentLinks.createdAt));
    },

    /** Moves a document from `received` to `read`; false when it was not `received` (someone read it first). */
    async markRead(id: string, tx: Db): Promise<boolean> {
      const rows = await tx
        .update(doc)
        .set({ status: 'read' })
        .where(and(eq(doc.id, id), eq(doc.status, 'received')))
        .returning({ id: doc.id });
      return rows.length > 0;
    },
  };
}
export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
