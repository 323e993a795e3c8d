import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents as doc, interchanges } from './documents.table.ts';

/** The demo sessions' interchanges and documents (issue 11, part 5; decision 0027). */
export function createDemoDocumentsRepository(db: Db) {
  return {
    /** Whether the session has any interchange (so its end has something to remove). */
    async hasSession(sessionId: string, tx: Db = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: interchanges.id })
        .from(interchanges)
        .where(eq(interchanges.sessionId, sessionId))
        .limit(1);
      return !!row;
    },

    /** The blob keys of the session's interchanges. */
    async payloadKeys(sessionId: string): Promise<string[]> {
      const rows = await db
        .select({ key: interchanges.payloadKey })
        .from(interchanges)
        .where(eq(interchanges.sessionId, sessionId));
      return rows.map((r) => r.key);
    },

    /**
     * Deletes the session's documents and interchanges (their history and links go with the documents); how many
     * documents there were.
     */
    async deleteSession(sessionId: string): Promise<number> {
      return db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        const deleted = await tx.delete(doc).where(eq(doc.sessionId, sessionId)).returning({ id: doc.id });
        await tx.delete(interchanges).where(eq(interchanges.sessionId, sessionId));
        return deleted.length;
      });
    },

    /** Up to `limit` sessions that have interchanges, by id, after `after` (the sweep walks them all). */
    async sessions(after: string | null, limit: number): Promise<string[]> {
      const rows = await db
        .selectDistinct({ sessionId: interchanges.sessionId })
        .from(interchanges)
        .where(
          and(isNotNull(interchanges.sessionId), after ? sql`${interchanges.sessionId} > ${after}::uuid` : undefined),
        )
        .orderBy(interchanges.sessionId)
        .limit(limit);
      return rows.map((r) => r.sessionId!);
    },
  };
}
export type DemoDocumentsRepository = ReturnType<typeof createDemoDocumentsRepository>;
