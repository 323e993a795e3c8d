import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ksefSettings } from './ksef.table.ts';

export type KsefSettingsRow = typeof ksefSettings.$inferSelect;
export type KsefSettingsValues = Omit<typeof ksefSettings.$inferInsert, 'companyId'>;

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
  };
}

export type KsefRepository = ReturnType<typeof createKsefRepository>;
