import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { NewHistory } from './documents.repository.ts';
import { documents as doc, documentLinks, documentStatusHistory, interchangeKeys } from './documents.table.ts';

/**
 * Rows or ids a statement takes at most. An interchange may hold any number of messages, and PostgreSQL counts a
 * statement's parameters in 16 bits: 10,000 history rows of 7 values each overflowed it ("bind message has 4464
 * parameter formats"), and the CONTRL's ingest failed on every retry.
 */
export const CONTRL_STATEMENT_ROWS = 1000;

/** The items in pieces of CONTRL_STATEMENT_ROWS. */
function* pieces<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CONTRL_STATEMENT_ROWS) yield items.slice(i, i + CONTRL_STATEMENT_ROWS);
}

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
      for (const piece of pieces(ids))
        await tx.update(doc).set({ acknowledgement: value }).where(inArray(doc.id, piece));
    },

    async insertLinks(rows: readonly { fromId: string; toId: string; kind: string }[], tx: Db): Promise<void> {
      for (const piece of pieces(rows)) await tx.insert(documentLinks).values(piece).onConflictDoNothing();
    },

    async insertHistory(rows: readonly NewHistory[], tx: Db): Promise<void> {
      for (const piece of pieces(rows)) await tx.insert(documentStatusHistory).values(piece);
    },
  };
}
export type ContrlRepository = ReturnType<typeof createContrlRepository>;
