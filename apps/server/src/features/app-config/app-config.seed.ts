import { LANGUAGES } from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { createAppConfigRepository } from './app-config.repository.ts';
import { DEFAULT_PAYMENT_REMINDERS } from './app-config.defaults.ts';

/** Stores the payment reminder of every language unless an entry is already there; safe to run on every start. */
export async function seedAppConfig(db: Db): Promise<void> {
  const repo = createAppConfigRepository(db);
  const at = new Date();
  for (const lang of LANGUAGES) {
    await repo.upsert(
      { type: 'PAYMENT_REMINDER', lang, content: DEFAULT_PAYMENT_REMINDERS[lang], updatedBy: null, at },
      { onlyIfMissing: true },
    );
  }
}
