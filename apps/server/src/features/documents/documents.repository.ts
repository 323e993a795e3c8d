import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNull,
  or,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import type { DocumentSort } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { escapeLike, qualified as col } from '../../db/sql.ts';
import { isUuid } from '../../lib/secrets.ts';
import { documentScope, type DocumentReader, type DocumentScopeColumns } from '../../access/document-scope.ts';
import {
  documentLinks,
  documentStatusHistory,
  documents as doc,
  interchangeKeys,
  interchanges,
} from './documents.table.ts';

export type InterchangeRow = typeof interchanges.$inferSelect;
export type NewInterchange = typeof interchanges.$inferInsert;
export type DocumentRow = typeof doc.$inferSelect;
export type NewDocument = typeof doc.$inferInsert;
export type NewHistory = typeof documentStatusHistory.$inferInsert;
export type HistoryRow = typeof documentStatusHistory.$inferSelect;
/**
 * The columns a list row shows or exports, and no more: a page is 50 rows, and every column more is read, sent,
 * parsed and mapped 50 times a request (the acknowledgement's JSON above all).
 */
const docColumns = {
  id: doc.id,
  direction: doc.direction,
  kind: doc.kind,
  documentType: doc.documentType,
  number: doc.number,
  referenceNumber: doc.referenceNumber,
  ksefNumber: doc.ksefNumber,
  functionCode: doc.functionCode,
  messageType: doc.messageType,
  messageCategory: doc.messageCategory,
  standard: doc.standard,
  version: doc.version,
  test: doc.test,
  partnerId: doc.partnerId,
  partnerGln: doc.partnerGln,
  partnerName: doc.partnerName,
  deliveryPointName: doc.deliveryPointName,
  deliveryPointGln: doc.deliveryPointGln,
  expectedDeliveryDate: doc.expectedDeliveryDate,
  businessDate: doc.businessDate,
  platformTimestamp: doc.platformTimestamp,
  status: doc.status,
  processingStatus: doc.processingStatus,
  businessStatus: doc.businessStatus,
  additionalStatus: doc.additionalStatus,
};
export type DocumentListRow = Pick<DocumentRow, keyof typeof docColumns>;

/** The values of the documents' columns with a default, for a row that has none (see insertJson). */
const DOC_DEFAULTS: Partial<Record<string, (at: Date) => unknown>> = {
  test: () => false,
  platformTimestamp: (at) => at,
  processingStatus: () => 'OK',
  findings: () => [],
  createdAt: (at) => at,
};

/**
 * Inserts rows 1,000 a statement, each statement's rows as one JSON parameter read by `jsonb_populate_recordset`
 * (the ingest's batches: one value to bind instead of one per column and row). Every column but a serial is written:
 * `defaults` gives those with a database default their value. `tail`: `on conflict do nothing`, `returning id`, ….
 */
async function insertJson(
  table: typeof doc | typeof documentStatusHistory | typeof documentLinks,
  defaults: Partial<Record<string, (at: Date) => unknown>>,
  rows: readonly object[],
  tx: Db,
  at: Date,
  tail: '' | 'on conflict do nothing' | 'returning id',
): Promise<string[]> {
  const columns = Object.entries(getTableColumns(table)).filter(([, c]) => c.columnType !== 'PgBigSerial53');
  const list = sql.join(
    columns.map(([, c]) => sql.identifier(c.name)),
    sql`, `,
  );
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const json = rows.slice(i, i + 1000).map((row) => {
      const out: Record<string, unknown> = {};
      for (const [key, column] of columns) {
        const value = (row as Record<string, unknown>)[key] ?? defaults[key]?.(at) ?? null;
        out[column.name] = value instanceof Date ? value.toISOString() : value;
      }
      return out;
    });
    const conflict = tail === 'returning id' ? sql`on conflict do nothing returning id` : sql.raw(tail);
    const result = (await tx.execute(
      sql`insert into ${table} (${list}) select ${list} from jsonb_populate_recordset(null::${table}, ${JSON.stringify(json)}::jsonb) ${conflict}`,
    )) as unknown as { rows: { id: string }[] };
    if (tail === 'returning id') ids.push(...result.rows.map((r) => r.id));
  }
  return ids;
}

/** The columns of the documents table the access scope reads (decision 0010). */
/** The columns the document access scope reads (decision 0010), for this feature's repositories. */
export const SCOPE: DocumentScopeColumns = {
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

/** Documents of the list, newest first, that a prefix search looks at before it reads the prefix's index. */
const PREFIX_WINDOW = 5000;

/** At most this many days between the bounds of a document or delivery date range make it "short" (see list). */
const NARROW_DAYS = 92;
const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
/** The narrowest short range of dates of the filters (document date or expected delivery date), if any. */
function narrowRange(f: DocumentFilters): { column: AnyColumn; from: string; to: string } | undefined {
  const ranges = [
    { column: doc.businessDate, from: f.documentDateFrom, to: f.documentDateTo },
    { column: doc.expectedDeliveryDate, from: f.expectedDeliveryDateFrom, to: f.expectedDeliveryDateTo },
  ].flatMap((r) =>
    r.from && r.to && daysBetween(r.from, r.to) <= NARROW_DAYS ? [{ ...r, from: r.from, to: r.to }] : [],
  );
  return ranges.sort((a, b) => daysBetween(a.from, a.to) - daysBetween(b.from, b.to))[0];
}

/**
 * The ids of a page of the documents matching `where` whose `range.column` is in the range, in the list's order: each
 * day's first `limit` in the list's order (from the date's index, whose key is the date, then the platform timestamp
 * and the id), and of those the first `limit`. Any page of the whole range is among them.
 */
function pageByDay(
  range: { column: AnyColumn; from: string; to: string },
  where: SQL,
  direction: 'asc' | 'desc',
  limit: number,
): SQL {
  const dir = sql.raw(direction === 'asc' ? 'asc' : 'desc');
  return sql`(select page.id from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') as day(v)
    cross join lateral (
      select ${col(doc, doc.id)} as id, ${TIMESTAMP} as ts from ${doc}
      where ${where} and ${col(doc, range.column)} = day.v::date
      order by ${TIMESTAMP} ${dir}, ${col(doc, doc.id)} ${dir}
      limit ${limit}
    ) as page
    order by page.ts ${dir}, page.id ${dir}
    limit ${limit})`;
}

/**
 * A prefix search that the prefix's index answers alone: one prefix, the direction, and a scope without restrictions
 * (the index's key holds the company, the direction, the prefix's column, the list's order and the session).
 */
function prefixAlone(f: DocumentFilters, reader: DocumentReader): boolean {
  if (reader.restrictions.length > 0 || (f.documentNumber && f.documentReferenceNumber)) return false;
  return Object.entries(f).every(
    ([key, value]) =>
      value === undefined ||
      (Array.isArray(value) && value.length === 0) ||
      key === 'direction' ||
      key === 'documentNumber' ||
      key === 'documentReferenceNumber',
  );
}

/** `prefixWindow`: tests make it small, to see both ways of a prefix search. */
export function createDocumentsRepository(db: Db, options: { prefixWindow?: number } = {}) {
  const prefixWindow = options.prefixWindow ?? PREFIX_WINDOW;
  return {
    /**
     * The upload holding each of these interchange keys (company, direction, sender, control reference), by
     * `sender/controlReference`: the first upload of an interchange, whichever file it came in.
     */
    async findKeyHolders(
      companyId: string,
      direction: string,
      keys: readonly { senderId: string; controlReference: string }[],
      tx: Db = db,
    ): Promise<Map<string, InterchangeRow>> {
      const found = new Map<string, InterchangeRow>();
      if (keys.length === 0) return found;
      const rows = await tx
        .select({ key: interchangeKeys, interchange: interchanges })
        .from(interchangeKeys)
        .innerJoin(interchanges, eq(interchanges.id, interchangeKeys.interchangeId))
        .where(
          and(
            eq(interchangeKeys.companyId, companyId),
            eq(interchangeKeys.direction, direction),
            or(
              ...keys.map((k) =>
                and(eq(interchangeKeys.senderId, k.senderId), eq(interchangeKeys.controlReference, k.controlReference)),
              ),
            ),
          ),
        );
      for (const r of rows) found.set(`${r.key.senderId}/${r.key.controlReference}`, r.interchange);
      return found;
    },

    /** Claims the keys for an upload; those another upload holds already are left to it. Answers the ones claimed. */
    async claimKeys(
      interchangeId: string,
      companyId: string,
      direction: string,
      keys: readonly { senderId: string; controlReference: string }[],
      tx: Db,
    ): Promise<number> {
      let claimed = 0;
      for (let i = 0; i < keys.length; i += 500) {
        const rows = await tx
          .insert(interchangeKeys)
          .values(keys.slice(i, i + 500).map((k) => ({ ...k, companyId, direction, interchangeId })))
          .onConflictDoNothing()
          .returning({ senderId: interchangeKeys.senderId });
        claimed += rows.length;
      }
      return claimed;
    },

    /**
     * Brings the planner's statistics of the documents up to date when the table changed by more than its size since
     * they were taken (as autovacuum would, but now): a large ingest grows the table faster than autovacuum looks, and
     * with statistics of an almost empty table the look-ups by number were planned as walks through a whole company's
     * documents. Not more often: an ANALYZE reads a sample of 30,000 rows (a second at 70,000 documents), and at
     * autovacuum's tenth it ran every few batches, a third of an ingest's time (decision 0024, amended).
     */
    async keepStatistics(): Promise<void> {
      const result = (await db.execute(
        sql`select n_mod_since_analyze::int as changed, n_live_tup::int as live from pg_stat_user_tables where relname = 'documents'`,
      )) as unknown as { rows: { changed: number; live: number }[] };
      const row = result.rows[0];
      if (row && row.changed > 1000 && row.changed > row.live) await db.execute(sql`analyze ${doc}`);
    },

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

    /**
     * One batch's end (decision 0024): the progress marker, the findings outside messages so far, and for the last
     * batch the state and the message count.
     */
    async advanceInterchange(
      id: string,
      values: {
        messagesDone: number;
        findings: unknown[];
        finish?: { state: 'done' | 'failed'; messageCount: number; at: Date };
      },
      tx: Db,
    ): Promise<void> {
      await tx
        .update(interchanges)
        .set({
          messagesDone: values.messagesDone,
          findings: values.findings,
          ...(values.finish
            ? {
                state: values.finish.state,
                messageCount: values.finish.messageCount,
                processedAt: values.finish.at,
              }
            : {}),
        })
        .where(eq(interchanges.id, id));
    },

    /**
     * Of an interchange's copies stored so far, how many there are per company, partner and notification event
     * (received, failed): the partner notifications already sent for it, when an ingest goes on after a crash.
     */
    async notifiedSoFar(interchangeId: string): Promise<{ key: string; count: number }[]> {
      const event = sql<string>`case when ${doc.status} = 'error' then 'failed' else 'received' end`;
      const rows = await db
        .select({ companyId: doc.companyId, partnerId: doc.partnerId, event, n: count() })
        .from(doc)
        .where(
          and(
            eq(doc.interchangeId, interchangeId),
            sql`${doc.partnerId} is not null`,
            or(eq(doc.status, 'error'), and(eq(doc.direction, 'in'), inArray(doc.status, ['received', 'read']))),
          ),
        )
        .groupBy(doc.companyId, doc.partnerId, event);
      return rows.map((r) => ({ key: `${r.companyId}/${r.partnerId}/${r.event}`, count: r.n }));
    },

    /**
     * Inserts the documents, up to 1,000 a statement as one JSON parameter (`jsonb_populate_recordset`: one value
     * to bind instead of 38 a row, measured about twice as fast for a batch of the ingest); a copy already there
     * (same message, company, direction) is skipped. Answers the ids inserted.
     */
    async insertDocuments(rows: readonly NewDocument[], tx: Db, at: Date = new Date()): Promise<string[]> {
      return insertJson(doc, DOC_DEFAULTS, rows, tx, at, 'returning id');
    },

    async insertHistory(rows: readonly NewHistory[], tx: Db, at: Date = new Date()): Promise<void> {
      await insertJson(documentStatusHistory, { at: (now) => now }, rows, tx, at, '');
    },

    async insertLinks(rows: readonly { fromId: string; toId: string; kind: string }[], tx: Db): Promise<void> {
      await insertJson(documentLinks, { createdAt: (now) => now }, rows, tx, new Date(), 'on conflict do nothing');
    },

    /** The company's documents of these numbers (for the chain: a response, despatch advice or invoice names its order). */
    async findByNumbers(
      companyId: string,
      numbers: readonly string[],
      tx: Db,
    ): Promise<
      {
        id: string;
        interchangeId: string;
        number: string;
        kind: string;
        direction: string;
        documentType: string;
        partnerGln: string | null;
      }[]
    > {
      if (numbers.length === 0) return [];
      // One index probe per number and direction (documents_number_idx), whatever the planner's statistics say:
      // during a large ingest they are stale, and a plain `number in (…)` was planned as a walk through every
      // document of the company (seconds a batch at 100,000 documents).
      const result = (await tx.execute(sql`
        select d.id, d.interchange_id as "interchangeId", d.number, d.kind, d.direction,
          d.document_type as "documentType", d.partner_gln as "partnerGln", d.platform_timestamp as "platformTimestamp"
        from jsonb_array_elements_text(${JSON.stringify([...numbers])}::jsonb) as n(number)
        cross join (values ('in'), ('out')) as side(direction)
        cross join lateral (
          select * from ${doc} x
          where x.company_id = ${companyId} and x.direction = side.direction and x.number = n.number
          limit 20
        ) d`)) as unknown as {
        rows: {
          id: string;
          interchangeId: string;
          number: string;
          kind: string;
          direction: string;
          documentType: string;
          partnerGln: string | null;
          platformTimestamp: Date | string;
        }[];
      };
      const rows = result.rows.map((r) => ({ ...r, platformTimestamp: new Date(r.platformTimestamp) }));
      rows.sort((a, b) => b.platformTimestamp.getTime() - a.platformTimestamp.getTime() || (a.id < b.id ? 1 : -1));
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
      /** The list's row with its sort key, the one select every path below reads. */
      const rows = (sortKey: SQL) => db.select({ ...docColumns, sortKey: sql<string>`${sortKey}` }).from(doc);
      if (order.sort === 'timestamp') {
        if (after) where.push(sql`(${TIMESTAMP}, ${id}) ${cmp} (${after.key}::timestamptz, ${after.id}::uuid)`);
        const prefix = !!(filters.documentNumber || filters.documentReferenceNumber);
        if (prefix && !prefixAlone(filters, reader)) {
          // A number prefix that many documents share ("PO2025"), with other conditions that the prefix's index does
          // not hold (another filter, a restriction), would have all of the prefix's rows read from the table. The
          // newest PREFIX_WINDOW documents of the list are looked at first, in the list's order: when a page of them
          // matches, it is the page (anything older comes after it); else the matches are few (under a page in
          // PREFIX_WINDOW), and the prefix's index with a sort of them is cheap (decision 0028). A prefix alone is
          // answered from its index, whose key holds the list's order, whatever the number of matches (below).
          const window = db
            .select({ id: doc.id })
            .from(doc)
            .where(
              and(
                documentScope(reader, SCOPE),
                eq(doc.direction, filters.direction),
                ...(after ? [sql`(${TIMESTAMP}, ${id}) ${cmp} (${after.key}::timestamptz, ${after.id}::uuid)`] : []),
              ),
            )
            .orderBy(by(doc.platformTimestamp), by(doc.id))
            .limit(prefixWindow);
          // The page's ids first, from the prefix's index alone (its key holds the list's order and the scope's
          // columns), then only the page's rows from the table.
          const recentPage = db
            .select({ id: doc.id })
            .from(doc)
            .where(and(...where, inArray(doc.id, window)))
            .orderBy(by(doc.platformTimestamp), by(doc.id))
            .limit(limit);
          const recent = await rows(sql`${TIMESTAMP}::text`)
            .where(and(documentScope(reader, SCOPE), inArray(doc.id, recentPage)))
            .orderBy(by(doc.platformTimestamp), by(doc.id));
          if (recent.length === limit) return recent;
        }
        // A short range of dates, or a prefix (alone, or with matches too few among the newest documents above):
        // PostgreSQL would walk the list's index (newest first) until a page matched, which for a range months back
        // or an old prefix is most of the list (decision 0028).
        const range = narrowRange(filters);
        if (range || prefix) {
          // The page's ids first: with only the dates or the prefix, the scope and the cursor to check, the date's or
          // the prefix's index answers alone (index-only) and only the page's rows are read from the table.
          const page = range
            ? // Day by day: the date's index holds each day's documents in the list's order, so each day gives its
              // first page from the index's start (a page at most), and the range's page is the first of those
              // (decision 0028): a fortnight of 9,000 documents reads 16 short runs instead of all 9,000.
              pageByDay(range, and(...where)!, order.direction, limit)
            : // Ordered by the timestamp as an expression, which no index holds: PostgreSQL reads the prefix's index
              // and sorts its matches instead of walking the list's index.
              db
                .select({ id: doc.id })
                .from(doc)
                .where(and(...where))
                .orderBy(by(sql`(${TIMESTAMP} + interval '0 seconds')`), by(doc.id))
                .limit(limit);
          return rows(sql`${TIMESTAMP}::text`)
            .where(and(documentScope(reader, SCOPE), inArray(doc.id, page)))
            .orderBy(by(doc.platformTimestamp), by(doc.id));
        }
        return rows(sql`${TIMESTAMP}::text`)
          .where(and(...where))
          .orderBy(by(doc.platformTimestamp), by(doc.id))
          .limit(limit);
      }
      const key = SORT_KEYS[order.sort];
      if (after) where.push(sql`(${key}, ${id}) ${cmp} (${after.key}, ${after.id}::uuid)`);
      return rows(key)
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

    /**
     * Of the ids, the documents the reader's scope holds, locked until the transaction ends (a status change reads
     * the values it replaces under the lock, so two changes at once each write a true history).
     */
    async lockVisible(
      reader: DocumentReader,
      ids: readonly string[],
      tx: Db,
    ): Promise<{ id: string; direction: string; status: string; additionalStatus: string | null }[]> {
      if (ids.length === 0) return [];
      return tx
        .select({ id: doc.id, direction: doc.direction, status: doc.status, additionalStatus: doc.additionalStatus })
        .from(doc)
        .where(and(documentScope(reader, SCOPE), inArray(doc.id, [...ids])))
        .orderBy(asc(doc.id))
        .for('update');
    },

    async setStatus(id: string, values: { status?: string; additionalStatus?: string | null }, tx: Db): Promise<void> {
      await tx.update(doc).set(values).where(eq(doc.id, id));
    },

    /**
     * Sets a document's KSeF number, only when it is the company's (a job acting for the company, not a user): answers
     * whether a row was changed.
     */
    async setKsefNumber(companyId: string, id: string, ksefNumber: string, tx: Db): Promise<boolean> {
      const rows = await tx
        .update(doc)
        .set({ ksefNumber })
        .where(and(eq(doc.id, id), eq(doc.companyId, companyId)))
        .returning({ id: doc.id });
      return rows.length > 0;
    },

    /**
     * A company's outbox invoices and credit notes of that number and issue date (business date), not a demo
     * session's: the invoice a correction names (`documents_number_idx`). A few at most, those with a KSeF number
     * first.
     */
    async outboxInvoicesByNumber(
      companyId: string,
      number: string,
      issueDate: string,
    ): Promise<{ id: string; ksefNumber: string | null }[]> {
      return db
        .select({ id: doc.id, ksefNumber: doc.ksefNumber })
        .from(doc)
        .where(
          and(
            eq(doc.companyId, companyId),
            eq(doc.direction, 'out'),
            eq(doc.number, number),
            eq(doc.businessDate, issueDate),
            inArray(doc.kind, ['invoice', 'credit_note']),
            isNull(doc.sessionId),
          ),
        )
        .orderBy(sql`${doc.ksefNumber} is null`, asc(doc.platformTimestamp), asc(doc.id))
        .limit(10);
    },

    /** Of the ids, the reader's documents with the size of their original (the whole file when it holds one message). */
    async originalSizes(reader: DocumentReader, ids: readonly string[]): Promise<{ id: string; size: number }[]> {
      if (ids.length === 0) return [];
      return db
        .select({
          id: doc.id,
          size: sql<number>`case when ${interchanges.messageCount} = 1 then ${interchanges.size} else ${doc.payloadLength} end`,
        })
        .from(doc)
        .innerJoin(interchanges, eq(interchanges.id, doc.interchangeId))
        .where(and(documentScope(reader, SCOPE), inArray(doc.id, [...ids])));
    },

    /** The rows of the ids the reader's scope holds in the filters' direction, in the given order (an export). */
    async listByIds(
      reader: DocumentReader,
      direction: 'in' | 'out',
      ids: readonly string[],
      order: DocumentOrder,
    ): Promise<DocumentListRow[]> {
      if (ids.length === 0) return [];
      const by = order.direction === 'asc' ? asc : desc;
      const key = order.sort === 'timestamp' ? col(doc, doc.platformTimestamp) : SORT_KEYS[order.sort];
      return db
        .select(docColumns)
        .from(doc)
        .where(and(documentScope(reader, SCOPE), eq(doc.direction, direction), inArray(doc.id, [...ids])))
        .orderBy(by(key), by(doc.id));
    },

    /** The business statuses of these documents of a company (the orders a new document's chain points at). */
    async businessStatuses(
      companyId: string,
      ids: readonly string[],
      tx: Db,
    ): Promise<{ id: string; kind: string; businessStatus: string | null }[]> {
      if (ids.length === 0) return [];
      return tx
        .select({ id: doc.id, kind: doc.kind, businessStatus: doc.businessStatus })
        .from(doc)
        .where(and(eq(doc.companyId, companyId), inArray(doc.id, [...ids])))
        .for('update');
    },

    /**
     * The bodies of a company's orders and of the invoices stored with a reference to them (for whether the invoices
     * cover the orders), 1,000 orders a query.
     */
    async ordersWithInvoices(
      companyId: string,
      orderIds: readonly string[],
      tx: Db,
    ): Promise<{ orders: { id: string; body: unknown }[]; invoices: { orderId: string; body: unknown }[] }> {
      const orders: { id: string; body: unknown }[] = [];
      const invoices: { orderId: string; body: unknown }[] = [];
      for (let i = 0; i < orderIds.length; i += 1000) {
        const ids = orderIds.slice(i, i + 1000);
        orders.push(
          ...(await tx
            .select({ id: doc.id, body: doc.body })
            .from(doc)
            .where(and(eq(doc.companyId, companyId), eq(doc.kind, 'order'), inArray(doc.id, ids)))),
        );
        invoices.push(
          ...(await tx
            .select({ orderId: documentLinks.toId, body: doc.body })
            .from(documentLinks)
            .innerJoin(doc, eq(doc.id, documentLinks.fromId))
            .where(
              and(
                inArray(documentLinks.toId, ids),
                eq(documentLinks.kind, 'reference'),
                eq(doc.companyId, companyId),
                eq(doc.kind, 'invoice'),
              ),
            )),
        );
      }
      return { orders, invoices };
    },

    /** Sets each document's business status, 1,000 a statement (a file of invoices moves thousands of orders). */
    async setBusinessStatuses(changes: readonly { id: string; to: string }[], tx: Db): Promise<void> {
      for (let i = 0; i < changes.length; i += 1000) {
        const json = JSON.stringify(changes.slice(i, i + 1000));
        await tx.execute(
          sql`update ${doc} set business_status = v."to" from jsonb_to_recordset(${json}::jsonb) as v(id uuid, "to" text) where ${doc.id} = v.id`,
        );
      }
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
