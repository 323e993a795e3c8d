import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies } from '../companies/companies.table.ts';
import { ksefSettings, ksefSubmissions } from './ksef.table.ts';

export type KsefSettingsRow = typeof ksefSettings.$inferSelect;
export type KsefSubmissionRow = typeof ksefSubmissions.$inferSelect;
export type KsefSettingsValues = Omit<typeof ksefSettings.$inferInsert, 'companyId' | 'receiveHwm' | 'receivedAt'>;

export function createKsefRepository(db: Db) {
  return {
    async find(companyId: string, tx: Db = db): Promise<KsefSettingsRow | undefined> {
      const [row] = await tx.select().from(ksefSettings).where(eq(ksefSettings.companyId, companyId)).limit(1);
      return row;
    },

    /** Writes the company's settings, creating them the first time. */
    async upsert(companyId: string, values: KsefSettingsValues, tx: Db = db): Promise<KsefSettingsRow> {
      const [row] = await tx
        .insert(ksefSettings)
        .values({ companyId, ...values })
        .onConflictDoUpdate({ target: ksefSettings.companyId, set: values })
        .returning();
      return row!;
    },

    /** Where the next export of received invoices starts, and when a run last finished (the `ksef.receive` job). */
    async setReceiveMark(companyId: string, values: { receiveHwm?: Date | null; receivedAt?: Date }): Promise<void> {
      await db.update(ksefSettings).set(values).where(eq(ksefSettings.companyId, companyId));
    },

    /**
     * The companies that may receive from KSeF, with their settings' environment when they have settings: the toggle
     * KSEF or DEMO_KSEF (a demo-ksef company without settings is bound to the simulator on its first run).
     */
    async receivingCompanies(): Promise<{ companyId: string; environment: string | null }[]> {
      return db
        .select({ companyId: companies.id, environment: ksefSettings.environment })
        .from(ksefSettings)
        .rightJoin(companies, eq(companies.id, ksefSettings.companyId))
        .where(sql`${companies.toggles} && array['KSEF', 'DEMO_KSEF']::text[]`);
    },

    /** New submissions, in the caller's transaction; one that exists already is left as it is. */
    async insertSubmissions(
      rows: readonly { documentId: string; companyId: string }[],
      at: Date,
      tx: Db,
    ): Promise<void> {
      if (rows.length === 0) return;
      await tx
        .insert(ksefSubmissions)
        .values(rows.map((r) => ({ ...r, state: 'queued', createdAt: at, updatedAt: at })))
        .onConflictDoNothing();
    },

    async submission(documentId: string, tx: Db = db): Promise<KsefSubmissionRow | undefined> {
      const [row] = await tx.select().from(ksefSubmissions).where(eq(ksefSubmissions.documentId, documentId)).limit(1);
      return row;
    },

    /** The states and KSeF numbers of the submissions of these documents of the company (those that have one). */
    async submissionStates(
      companyId: string,
      documentIds: readonly string[],
    ): Promise<{ documentId: string; state: string; ksefNumber: string | null }[]> {
      if (documentIds.length === 0) return [];
      return db
        .select({
          documentId: ksefSubmissions.documentId,
          state: ksefSubmissions.state,
          ksefNumber: ksefSubmissions.ksefNumber,
        })
        .from(ksefSubmissions)
        .where(and(eq(ksefSubmissions.companyId, companyId), inArray(ksefSubmissions.documentId, [...documentIds])));
    },

    async updateSubmission(
      documentId: string,
      values: Partial<Omit<KsefSubmissionRow, 'documentId' | 'companyId' | 'createdAt'>>,
      tx: Db = db,
    ): Promise<void> {
      await tx.update(ksefSubmissions).set(values).where(eq(ksefSubmissions.documentId, documentId));
    },
  };
}

export type KsefRepository = ReturnType<typeof createKsefRepository>;
