import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentDrafts, interchangeControlSequence } from './drafts.table.ts';

export type DraftRow = typeof documentDrafts.$inferSelect;
export type NewDraft = typeof documentDrafts.$inferInsert;

/** Whose drafts: a company's real ones (`sessionId` null), or one demo login session's (decision 0027). */
export type DraftOwner = { companyId: string; sessionId: string | null };

const ownedBy = (owner: DraftOwner) =>
  and(
    eq(documentDrafts.companyId, owner.companyId),
    owner.sessionId === null ? isNull(documentDrafts.sessionId) : eq(documentDrafts.sessionId, owner.sessionId),
  );

export function createDraftsRepository(db: Db) {
  return {
    /** The drafts not yet sent, the last edited first. */
    async list(owner: DraftOwner, limit: number): Promise<DraftRow[]> {
      return db
        .select()
        .from(documentDrafts)
        .where(and(ownedBy(owner), eq(documentDrafts.state, 'draft')))
        .orderBy(desc(documentDrafts.updatedAt), desc(documentDrafts.id))
        .limit(limit);
    },

    async count(owner: DraftOwner, tx: Db = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(documentDrafts)
        .where(and(ownedBy(owner), eq(documentDrafts.state, 'draft')));
      return row?.n ?? 0;
    },

    async find(owner: DraftOwner, id: string, tx: Db = db): Promise<DraftRow | undefined> {
      const [row] = await tx
        .select()
        .from(documentDrafts)
        .where(and(ownedBy(owner), eq(documentDrafts.id, id)));
      return row;
    },

    async insert(values: NewDraft, tx: Db = db): Promise<DraftRow> {
      const [row] = await tx.insert(documentDrafts).values(values).returning();
      return row!;
    },

    /** Saves the form over `version`; undefined when the draft moved on (another save) or was sent meanwhile. */
    async save(
      owner: DraftOwner,
      id: string,
      version: number,
      values: Pick<NewDraft, 'form' | 'partnerId'>,
      at: Date,
    ): Promise<DraftRow | undefined> {
      const [row] = await db
        .update(documentDrafts)
        .set({ ...values, version: sql`${documentDrafts.version} + 1`, updatedAt: at })
        .where(
          and(
            ownedBy(owner),
            eq(documentDrafts.id, id),
            eq(documentDrafts.version, version),
            eq(documentDrafts.state, 'draft'),
          ),
        )
        .returning();
      return row;
    },

    async remove(owner: DraftOwner, id: string): Promise<boolean> {
      const rows = await db
        .delete(documentDrafts)
        .where(and(ownedBy(owner), eq(documentDrafts.id, id), eq(documentDrafts.state, 'draft')))
        .returning({ id: documentDrafts.id });
      return rows.length > 0;
    },

    /**
     * The draft's interchange control reference: taken once from the platform-wide sequence and kept, so every retry
     * of a send writes the same interchange (the outbox's duplicate check then answers with the first).
     */
    async controlReference(id: string): Promise<string> {
      const [taken] = await db
        .update(documentDrafts)
        .set({ controlReference: sql`nextval(${sql.raw(`'${interchangeControlSequence.seqName}'`)})::text` })
        .where(and(eq(documentDrafts.id, id), isNull(documentDrafts.controlReference)))
        .returning({ controlReference: documentDrafts.controlReference });
      if (taken?.controlReference) return taken.controlReference;
      const [kept] = await db
        .select({ controlReference: documentDrafts.controlReference })
        .from(documentDrafts)
        .where(eq(documentDrafts.id, id));
      return kept!.controlReference!;
    },

    async markSent(id: string, documentId: string, at: Date): Promise<void> {
      await db
        .update(documentDrafts)
        .set({ state: 'sent', sentDocumentId: documentId, sentAt: at, updatedAt: at })
        .where(eq(documentDrafts.id, id));
    },

    /** The forms of the sent drafts that answered `sourceDocumentId` (turnaround), of the given kinds. */
    async sentAnswers(
      owner: DraftOwner,
      sourceDocumentId: string,
      kinds: readonly string[],
    ): Promise<{ kind: string; form: Record<string, unknown> }[]> {
      return db
        .select({ kind: documentDrafts.kind, form: documentDrafts.form })
        .from(documentDrafts)
        .where(
          and(
            ownedBy(owner),
            eq(documentDrafts.sourceDocumentId, sourceDocumentId),
            eq(documentDrafts.state, 'sent'),
            inArray(documentDrafts.kind, [...kinds]),
          ),
        );
    },

    /** A demo session's drafts go with its documents when the session ends. */
    async removeSession(sessionId: string, tx: Db = db): Promise<void> {
      await tx.delete(documentDrafts).where(eq(documentDrafts.sessionId, sessionId));
    },
  };
}
export type DraftsRepository = ReturnType<typeof createDraftsRepository>;
