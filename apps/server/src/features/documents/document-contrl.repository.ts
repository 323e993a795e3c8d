import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents as doc, interchangeKeys } from './documents.table.ts';

/**
 * Ids a statement takes at most. An interchange may hold any number of messages, and PostgreSQL counts a statement's
 * parameters in 16 bits: a CONTRL of 10,000 messages overflowed it, and its ingest failed on every retry.
 */
const IDS_A_STATEMENT = 1000;

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
    ): Promise<{ id: string; messageIndex: number; messageType: string; acknowledgement: string | null }[]> {
      return tx
        .select({
          id: doc.id,
          messageIndex: doc.messageIndex,
          messageType: doc.messageType,
          acknowledgement: doc.acknowledgement,
        })
        .from(doc)
        .where(and(eq(doc.interchangeId, interchangeId), eq(doc.companyId, companyId), eq(doc.direction, direction)))
        .orderBy(doc.messageIndex);
    },

    async setAcknowledgement(ids: readonly string[], value: string, tx: Db): Promise<void> {
      for (let i = 0; i < ids.length; i += IDS_A_STATEMENT) {
        const piece = ids.slice(i, i + IDS_A_STATEMENT);
        await tx.update(doc).set({ acknowledgement: value }).where(inArray(doc.id, piece));
      }
    },
  };
}
export type ContrlRepository = ReturnType<typeof createContrlRepository>;
