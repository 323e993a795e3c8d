import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { appConfig } from './app-config.table.ts';

export function createAppConfigRepository(db: Db) {
  return {
    async listByType(type: string): Promise<{ lang: string; content: Record<string, unknown> }[]> {
      return db
        .select({ lang: appConfig.lang, content: appConfig.content })
        .from(appConfig)
        .where(eq(appConfig.type, type));
    },
    /** Inserts or replaces one language's entry; `onlyIfMissing` keeps what is there (seeding). */
    async upsert(
      values: { type: string; lang: string; content: Record<string, unknown>; updatedBy: string | null; at: Date },
      options: { onlyIfMissing?: boolean } = {},
    ): Promise<void> {
      const insert = db.insert(appConfig).values({
        type: values.type,
        lang: values.lang,
        content: values.content,
        updatedBy: values.updatedBy,
        createdAt: values.at,
        updatedAt: values.at,
      });
      if (options.onlyIfMissing) {
        await insert.onConflictDoNothing({ target: [appConfig.type, appConfig.lang] });
        return;
      }
      await insert.onConflictDoUpdate({
        target: [appConfig.type, appConfig.lang],
        set: { content: values.content, updatedBy: values.updatedBy, updatedAt: values.at },
      });
    },
  };
}

export type AppConfigRepository = ReturnType<typeof createAppConfigRepository>;
