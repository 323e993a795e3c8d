import { and, arrayOverlaps, asc, desc, eq, gt, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  ettnCredentials,
  ettnRegisteredFiles,
  ettnRegistryAliases,
  ettnRegistryDocuments,
  ettnRegistryEvents,
  ettnRegistryProcesses,
  ettnRegistrySignatures,
  ettnRegistrySubscriptions,
  ettnRegistryTransactions,
  ettnSupportingDocuments,
} from './ettn.table.ts';

export type ProcessRow = typeof ettnRegistryProcesses.$inferSelect;
export type DocumentRow = typeof ettnRegistryDocuments.$inferSelect;
export type TransactionRow = typeof ettnRegistryTransactions.$inferSelect;
export type TransactionHead = Omit<TransactionRow, 'body' | 'meta'>;
export type SignatureRow = typeof ettnRegistrySignatures.$inferSelect;
export type AliasRow = typeof ettnRegistryAliases.$inferSelect;
export type SubscriptionRow = typeof ettnRegistrySubscriptions.$inferSelect;
export type EventRow = typeof ettnRegistryEvents.$inferSelect;
export type RegisteredFileRow = typeof ettnRegisteredFiles.$inferSelect;
export type CredentialRow = typeof ettnCredentials.$inferSelect;
export type SupportingDocumentRow = typeof ettnSupportingDocuments.$inferSelect;

export type ProcessFilter = {
  partyIds: string[];
  status?: string;
  search?: string;
  dateFrom?: string;
  dateTo?: string;
  /** Only notes where one of these EDRPOU codes holds the role (consignor, carrier, …). */
  role?: { role: string; ids: string[] };
  after?: [string, string];
  limit: number;
};

const head = {
  id: ettnRegistryTransactions.id,
  documentId: ettnRegistryTransactions.documentId,
  processId: ettnRegistryTransactions.processId,
  seq: ettnRegistryTransactions.seq,
  transactionNo: ettnRegistryTransactions.transactionNo,
  status: ettnRegistryTransactions.status,
  signingRole: ettnRegistryTransactions.signingRole,
  actorIdentifier: ettnRegistryTransactions.actorIdentifier,
  createdAt: ettnRegistryTransactions.createdAt,
};

/**
 * The e-TTN tables: the registry simulator's storage (processes, documents, transactions, signatures, aliases,
 * subscriptions, events) and the portal's uploads and demo credentials. Every function takes the transaction to run
 * in, or runs on the database.
 */
export function createEttnRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => work(tx as unknown as Db));
    },

    // --- processes, documents, transactions ---------------------------------------------------------------------

    async insertProcess(values: typeof ettnRegistryProcesses.$inferInsert, tx: Db = db): Promise<ProcessRow> {
      const [row] = await tx.insert(ettnRegistryProcesses).values(values).returning();
      return row!;
    },

    async updateProcess(id: string, values: Partial<typeof ettnRegistryProcesses.$inferInsert>, tx: Db = db) {
      await tx.update(ettnRegistryProcesses).set(values).where(eq(ettnRegistryProcesses.id, id));
    },

    /** A process, locked for the step being registered when `lock` (two steps of one note never interleave). */
    async findProcess(id: string, options: { tx?: Db; lock?: boolean } = {}): Promise<ProcessRow | undefined> {
      const q = (options.tx ?? db).select().from(ettnRegistryProcesses).where(eq(ettnRegistryProcesses.id, id));
      const [row] = options.lock ? await q.for('update') : await q;
      return row;
    },

    async insertDocument(values: typeof ettnRegistryDocuments.$inferInsert, tx: Db = db): Promise<DocumentRow> {
      const [row] = await tx.insert(ettnRegistryDocuments).values(values).returning();
      return row!;
    },

    async updateDocument(id: string, values: Partial<typeof ettnRegistryDocuments.$inferInsert>, tx: Db = db) {
      await tx.update(ettnRegistryDocuments).set(values).where(eq(ettnRegistryDocuments.id, id));
    },

    async documentsOf(processId: string, tx: Db = db): Promise<DocumentRow[]> {
      return tx
        .select()
        .from(ettnRegistryDocuments)
        .where(eq(ettnRegistryDocuments.processId, processId))
        .orderBy(asc(ettnRegistryDocuments.createdAt), asc(ettnRegistryDocuments.id));
    },

    async insertTransaction(
      values: typeof ettnRegistryTransactions.$inferInsert,
      signatures: Omit<typeof ettnRegistrySignatures.$inferInsert, 'transactionId'>[],
      tx: Db = db,
    ): Promise<TransactionRow> {
      const [row] = await tx.insert(ettnRegistryTransactions).values(values).returning();
      if (signatures.length > 0) {
        await tx.insert(ettnRegistrySignatures).values(signatures.map((s) => ({ ...s, transactionId: row!.id })));
      }
      return row!;
    },

    /** A document's transactions with their XML, oldest first. */
    async transactionsOfDocument(documentId: string, tx: Db = db): Promise<TransactionRow[]> {
      return tx
        .select()
        .from(ettnRegistryTransactions)
        .where(eq(ettnRegistryTransactions.documentId, documentId))
        .orderBy(asc(ettnRegistryTransactions.transactionNo));
    },

    /** Every transaction of a process without its XML, oldest first. */
    async transactionHeads(processId: string): Promise<TransactionHead[]> {
      return db
        .select(head)
        .from(ettnRegistryTransactions)
        .where(eq(ettnRegistryTransactions.processId, processId))
        .orderBy(asc(ettnRegistryTransactions.seq));
    },

    async findTransaction(id: string): Promise<TransactionRow | undefined> {
      const [row] = await db.select().from(ettnRegistryTransactions).where(eq(ettnRegistryTransactions.id, id));
      return row;
    },

    /** The signatures recorded with these transactions (each storage repeats the earlier transactions' ones). */
    async signaturesOf(transactionIds: string[], tx: Db = db): Promise<SignatureRow[]> {
      if (transactionIds.length === 0) return [];
      return tx
        .select()
        .from(ettnRegistrySignatures)
        .where(inArray(ettnRegistrySignatures.transactionId, transactionIds));
    },

    async listProcesses(filter: ProcessFilter): Promise<(ProcessRow & { cursorAt: string })[]> {
      const where: SQL[] = [arrayOverlaps(ettnRegistryProcesses.partyIds, filter.partyIds)];
      if (filter.status) where.push(eq(ettnRegistryProcesses.status, filter.status));
      if (filter.search) {
        const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        where.push(ilike(ettnRegistryProcesses.searchText, pattern));
      }
      if (filter.dateFrom) where.push(sql`left(${ettnRegistryProcesses.issueDateTime}, 10) >= ${filter.dateFrom}`);
      if (filter.dateTo) where.push(sql`left(${ettnRegistryProcesses.issueDateTime}, 10) <= ${filter.dateTo}`);
      if (filter.role) {
        // A party of that role whose code is one of the company's: jsonb containment per code.
        const conditions = filter.role.ids.map(
          (id) =>
            sql`${ettnRegistryProcesses.parties} @> ${JSON.stringify([{ role: filter.role!.role, edrpou: id }])}::jsonb`,
        );
        where.push(conditions.length ? sql`(${sql.join(conditions, sql` or `)})` : sql`false`);
      }
      if (filter.after) {
        const [at, id] = filter.after;
        where.push(
          sql`(${ettnRegistryProcesses.updatedAt}, ${ettnRegistryProcesses.id}) < (${at}::timestamptz, ${id}::uuid)`,
        );
      }
      const rows = await db
        .select({ process: ettnRegistryProcesses, cursorAt: sql<string>`${ettnRegistryProcesses.updatedAt}::text` })
        .from(ettnRegistryProcesses)
        .where(and(...where))
        .orderBy(desc(ettnRegistryProcesses.updatedAt), desc(ettnRegistryProcesses.id))
        .limit(filter.limit + 1);
      return rows.map((r) => ({ ...r.process, cursorAt: r.cursorAt }));
    },

    /** The acts of many processes at once (the list's "who must act"). */
    async pendingActsOf(processIds: string[]): Promise<DocumentRow[]> {
      if (processIds.length === 0) return [];
      return db
        .select()
        .from(ettnRegistryDocuments)
        .where(
          and(
            inArray(ettnRegistryDocuments.processId, processIds),
            eq(ettnRegistryDocuments.kind, 'act'),
            eq(ettnRegistryDocuments.status, 'SIGNATURE_PENDING'),
          ),
        );
    },

    // --- aliases and subscriptions ------------------------------------------------------------------------------

    async aliasesOf(companyId: string): Promise<AliasRow[]> {
      return db
        .select()
        .from(ettnRegistryAliases)
        .where(eq(ettnRegistryAliases.companyId, companyId))
        .orderBy(asc(ettnRegistryAliases.value));
    },

    async findAlias(qualifier: string, value: string): Promise<AliasRow | undefined> {
      const [row] = await db
        .select()
        .from(ettnRegistryAliases)
        .where(and(eq(ettnRegistryAliases.qualifier, qualifier), eq(ettnRegistryAliases.value, value)));
      return row;
    },

    async upsertAlias(values: typeof ettnRegistryAliases.$inferInsert, tx: Db = db): Promise<AliasRow> {
      const [row] = await tx
        .insert(ettnRegistryAliases)
        .values(values)
        .onConflictDoUpdate({
          target: [ettnRegistryAliases.qualifier, ettnRegistryAliases.value],
          set: { expiresAt: values.expiresAt, registeredAt: values.registeredAt },
        })
        .returning();
      return row!;
    },

    async subscriptionsOf(companyId: string): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(ettnRegistrySubscriptions)
        .where(eq(ettnRegistrySubscriptions.companyId, companyId))
        .orderBy(asc(ettnRegistrySubscriptions.expiresAt));
    },

    async upsertSubscription(values: typeof ettnRegistrySubscriptions.$inferInsert, tx: Db = db) {
      const [row] = await tx
        .insert(ettnRegistrySubscriptions)
        .values(values)
        .onConflictDoUpdate({
          target: [
            ettnRegistrySubscriptions.companyId,
            ettnRegistrySubscriptions.aliasQualifier,
            ettnRegistrySubscriptions.aliasValue,
          ],
          set: { expiresAt: values.expiresAt },
        })
        .returning();
      return row!;
    },

    /** The companies with a live subscription to any of these EDRPOU codes. */
    async subscribersOf(partyIds: string[], now: Date, tx: Db = db): Promise<string[]> {
      if (partyIds.length === 0) return [];
      const rows = await tx
        .selectDistinct({ companyId: ettnRegistrySubscriptions.companyId })
        .from(ettnRegistrySubscriptions)
        .where(
          and(
            eq(ettnRegistrySubscriptions.aliasQualifier, 'EDRPOU'),
            inArray(ettnRegistrySubscriptions.aliasValue, partyIds),
            gt(ettnRegistrySubscriptions.expiresAt, now),
          ),
        );
      return rows.map((r) => r.companyId);
    },

    // --- events -------------------------------------------------------------------------------------------------

    async insertEvents(values: (typeof ettnRegistryEvents.$inferInsert)[], tx: Db = db) {
      if (values.length > 0) await tx.insert(ettnRegistryEvents).values(values);
    },

    async listEvents(filter: { companyId: string; processId?: string; after?: number; limit: number }) {
      const where: SQL[] = [eq(ettnRegistryEvents.companyId, filter.companyId)];
      if (filter.processId) where.push(eq(ettnRegistryEvents.processId, filter.processId));
      if (filter.after !== undefined) where.push(lt(ettnRegistryEvents.id, filter.after));
      return db
        .select()
        .from(ettnRegistryEvents)
        .where(and(...where))
        .orderBy(desc(ettnRegistryEvents.id))
        .limit(filter.limit + 1);
    },

    // --- the portal's uploads and credentials -------------------------------------------------------------------

    async insertRegisteredFile(values: typeof ettnRegisteredFiles.$inferInsert): Promise<RegisteredFileRow> {
      const [row] = await db.insert(ettnRegisteredFiles).values(values).returning();
      return row!;
    },

    async findRegisteredFile(id: string, companyId: string): Promise<RegisteredFileRow | undefined> {
      const [row] = await db
        .select()
        .from(ettnRegisteredFiles)
        .where(and(eq(ettnRegisteredFiles.id, id), eq(ettnRegisteredFiles.companyId, companyId)));
      return row;
    },

    async markRegisteredFileSent(id: string, processId: string, at: Date, tx: Db = db) {
      await tx
        .update(ettnRegisteredFiles)
        .set({ status: 'SENT', processId, updatedAt: at })
        .where(eq(ettnRegisteredFiles.id, id));
    },

    async listRegisteredFiles(filter: { companyId: string; after?: [string, string]; limit: number }) {
      const where: SQL[] = [
        eq(ettnRegisteredFiles.companyId, filter.companyId),
        eq(ettnRegisteredFiles.status, 'PENDING'),
      ];
      if (filter.after) {
        const [at, id] = filter.after;
        where.push(
          sql`(${ettnRegisteredFiles.updatedAt}, ${ettnRegisteredFiles.id}) < (${at}::timestamptz, ${id}::uuid)`,
        );
      }
      const rows = await db
        .select({ file: ettnRegisteredFiles, cursorAt: sql<string>`${ettnRegisteredFiles.updatedAt}::text` })
        .from(ettnRegisteredFiles)
        .where(and(...where))
        .orderBy(desc(ettnRegisteredFiles.updatedAt), desc(ettnRegisteredFiles.id))
        .limit(filter.limit + 1);
      return rows.map((r) => ({ ...r.file, cursorAt: r.cursorAt }));
    },

    // --- supporting documents -----------------------------------------------------------------------------------

    async insertSupportingDocument(
      values: typeof ettnSupportingDocuments.$inferInsert,
    ): Promise<SupportingDocumentRow> {
      const [row] = await db.insert(ettnSupportingDocuments).values(values).returning();
      return row!;
    },

    async findSupportingDocument(id: string, options: { tx?: Db; lock?: boolean } = {}) {
      const query = (options.tx ?? db).select().from(ettnSupportingDocuments).where(eq(ettnSupportingDocuments.id, id));
      const [row] = options.lock ? await query.for('update') : await query;
      return row as SupportingDocumentRow | undefined;
    },

    async updateSupportingDocument(
      id: string,
      values: Pick<SupportingDocumentRow, 'status' | 'signedBy' | 'updatedAt'>,
      tx: Db = db,
    ): Promise<SupportingDocumentRow> {
      const [row] = await tx
        .update(ettnSupportingDocuments)
        .set(values)
        .where(eq(ettnSupportingDocuments.id, id))
        .returning();
      return row!;
    },

    /** A note's supporting documents, newest first. */
    async supportingDocumentsOf(processId: string): Promise<SupportingDocumentRow[]> {
      return db
        .select()
        .from(ettnSupportingDocuments)
        .where(eq(ettnSupportingDocuments.processId, processId))
        .orderBy(desc(ettnSupportingDocuments.createdAt), desc(ettnSupportingDocuments.id));
    },

    async findCredential(userId: string): Promise<CredentialRow | undefined> {
      const [row] = await db.select().from(ettnCredentials).where(eq(ettnCredentials.userId, userId));
      return row;
    },

    /** Keeps the first credential made for a user (two requests at once may both make one). */
    async insertCredential(values: typeof ettnCredentials.$inferInsert): Promise<CredentialRow> {
      await db.insert(ettnCredentials).values(values).onConflictDoNothing();
      const [row] = await db.select().from(ettnCredentials).where(eq(ettnCredentials.userId, values.userId));
      return row!;
    },
  };
}

export type EttnRepository = ReturnType<typeof createEttnRepository>;
