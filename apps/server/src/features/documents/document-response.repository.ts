import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documentStatusHistory, interchanges } from './documents.table.ts';

/** The history field an answer (accepted or rejected) of an inbox document is recorded under. */
export const RESPONSE_FIELD = 'response';

/** Drizzle queries of the answers to received documents (APERAK); all in the caller's transaction. */
export function createDocumentResponseRepository() {
  return {
    /**
     * A control reference from the platform-wide sequence the drafts' Send takes its references from (decision
     * 0033), so an answer's UNB never repeats a sent draft's. Read by name: the sequence belongs to the drafts'
     * tables, whose internals this feature does not import.
     */
    async nextControlReference(tx: Db): Promise<string> {
      const result = (await tx.execute(sql`select nextval('interchange_control_seq')::text as value`)) as unknown as {
        rows: { value: string }[];
      };
      return result.rows[0]!.value;
    },

    /**
     * The document's answer: the last `response` row of its history (`accepted`, `rejected`, or null when the APERAK
     * of an answer could not be stored and the answer was withdrawn by a row of its own: the history stays
     * append-only).
     */
    async answerOf(documentId: string, tx: Db): Promise<string | null> {
      const [row] = await tx
        .select({ toValue: documentStatusHistory.toValue })
        .from(documentStatusHistory)
        .where(and(eq(documentStatusHistory.documentId, documentId), eq(documentStatusHistory.field, RESPONSE_FIELD)))
        .orderBy(desc(documentStatusHistory.id))
        .limit(1);
      return row?.toValue ?? null;
    },

    /** The UNB recipient of a stored interchange: the GLN a received document was addressed to. */
    async interchangeRecipient(interchangeId: string, tx: Db): Promise<string | undefined> {
      const [row] = await tx
        .select({ recipientId: interchanges.recipientId })
        .from(interchanges)
        .where(eq(interchanges.id, interchangeId))
        .limit(1);
      return row?.recipientId;
    },
  };
}
export type DocumentResponseRepository = ReturnType<typeof createDocumentResponseRepository>;
