import type { Db } from '../../db/client.ts';
import { createEttnRepository } from './ettn.repository.ts';

/** The demo companies' aliases with the registry simulator (EDRPOU codes whose check digits hold). */
export const DEMO_ETTN_ALIASES = {
  supplier: '14360570',
  retailer: '00032129',
  transport: '32855961',
} as const;

const DAY_MS = 86_400_000;

/**
 * The demo's e-TTN registrations (issue 14): each demo company's alias and subscription with the registry
 * simulator. Demo Supplier's subscription expires in 10 days, so its expiry dialog shows; the others' in a year.
 */
export async function seedDemoEttn(
  db: Db,
  companies: { supplier: string; retailer: string; transport: string },
  now: Date,
  tx: Db = db,
): Promise<void> {
  const repo = createEttnRepository(db);
  const entries = [
    { companyId: companies.supplier, value: DEMO_ETTN_ALIASES.supplier, subscriptionDays: 10 },
    { companyId: companies.retailer, value: DEMO_ETTN_ALIASES.retailer, subscriptionDays: 365 },
    { companyId: companies.transport, value: DEMO_ETTN_ALIASES.transport, subscriptionDays: 365 },
  ];
  for (const e of entries) {
    await repo.upsertAlias(
      {
        companyId: e.companyId,
        qualifier: 'EDRPOU',
        value: e.value,
        registeredAt: now,
        expiresAt: new Date(now.getTime() + 365 * DAY_MS),
      },
      tx,
    );
    await repo.upsertSubscription(
      {
        companyId: e.companyId,
        aliasQualifier: 'EDRPOU',
        aliasValue: e.value,
        startDate: now,
        expiresAt: new Date(now.getTime() + e.subscriptionDays * DAY_MS),
      },
      tx,
    );
  }
}
