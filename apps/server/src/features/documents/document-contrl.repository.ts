import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents as doc, documentStatusHistory as history, interchangeKeys } from './documents.table.ts';

/**
 * Ids a statement takes at most. An interchange may hold any number of messages, and PostgreSQL counts a statement's
 * parameters in 16 bits: a CONTRL of 10,000 messages overflowed it, and its ingest failed on every retry.
 */
const IDS_A_STATEMENT = 1000;

/** The history field of an outbox document's CONTRL result, the only record of it (decision 0047). */
export const ACKNOWLEDGEMENT_FIELD = 'acknowledgement';

/** Drizzle queries of the CONTRL answers; each in the caller's transaction. */
export function createContrlRepository() {
  return {
    /**
     * A control reference from the platform-wide sequence the drafts' Send and the APERAK answers take theirs from
     * (decisions 0033 and 0034): read by name, the drafts' tables are not imported.
     */
    async nextControlReference(tx: Db): Promise<string> {
      const result = (await tx.execute(sql`select nextval('interchange_control_seq')::text as value`)) as unknown as {
        rows: { value: string }[];
      };
      return result.rows[0]!.value;
    },

    /** The outbox interchange of a company holding this UNB key (decision 0024), if any. */
    async outboxInterchange(
      companyId: string,
      senderId: string,
      controlReference: string,
      tx: Db,
    ): Promise<string | undefined> {
      const [row] = await tx
        .select({ id: interchangeKeys.interchangeId })
        .from(interchangeKeys)
        .where(
          and(
            eq(interchangeKeys.companyId, companyId),
            eq(interchangeKeys.direction, 'out'),
            eq(interchangeKeys.senderId, senderId),
            eq(interchangeKeys.controlReference, controlReference),
          ),
        )
        .limit(1);
      return row?.id;
    },

    /** A company's copies of an interchange's messages in a direction, in message order. */
    async copies(
      interchangeId: string,
      companyId: string,
      direction: 'in' | 'out',
      tx: Db,
    ): Promise<{ id: string; messageIndex: number; messageType: string }[]> {
      return tx
        .select({ id: doc.id, messageIndex: doc.messageIndex, messageType: doc.messageType })
        .from(doc)
        .where(and(eq(doc.interchangeId, interchangeId), eq(doc.companyId, companyId), eq(doc.direction, direction)))
        .orderBy(doc.messageIndex);
    },

    /**
     * The documents' acknowledgements: the last `acknowledgement` entry of each one's history (decision 0047), for
     * those that have one.
     */
    async acknowledgements(ids: readonly string[], tx: Db): Promise<Map<string, string | null>> {
      const found = new Map<string, string | null>();
      for (let i = 0; i < ids.length; i += IDS_A_STATEMENT) {
        const rows = await tx
          .selectDistinctOn([history.documentId], { documentId: history.documentId, value: history.toValue })
          .from(history)
          .where(
            and(
              inArray(history.documentId, ids.slice(i, i + IDS_A_STATEMENT)),
              eq(history.field, ACKNOWLEDGEMENT_FIELD),
            ),
          )
          .orderBy(history.documentId, desc(history.id));
        for (const row of rows) found.set(row.documentId, row.value);
      }
      return found;
    },
  };
}
export type ContrlRepository = ReturnType<typeof createContrlRepository>;
