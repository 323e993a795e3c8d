import { sql } from 'drizzle-orm';
import { FEATURE_PERMISSIONS, type FeaturePermission, type FeatureToggle } from '@portal/contracts';
import type { Db } from '../db/client.ts';
import { legacyAccounts } from '../features/auth/auth.table.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { companies } from '../features/companies/companies.table.ts';
import { groupMembers, groups } from '../features/groups/groups.table.ts';
import { users } from '../features/users/users.table.ts';

/** The demo accounts; tests and people rely on them exactly (README lists them). */
export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.example.com', password: 'Admin#Demo2026', what: 'platform admin (admin area)' },
  { email: 'user@demo.example.com', password: 'User#Demo2026', what: 'Demo Supplier, all permissions' },
  { email: 'clerk@demo.example.com', password: 'Clerk#Demo2026', what: 'Demo Supplier, inbox read only' },
  { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026', what: 'Demo Retailer, all permissions' },
  { email: 'demo@demo.example.com', password: 'Demo#Demo2026', what: 'role demo' },
  { email: 'ksef@demo.example.com', password: 'Ksef#Demo2026', what: 'role demo-ksef, KSeF toggles' },
] as const;
export const DEMO_LEGACY = { login: 'DEMO01', password: 'Legacy#2026' } as const;

const ALL: FeaturePermission[] = [...FEATURE_PERMISSIONS];

/** Seeds the demo companies, users, groups and the legacy account once; returns false when already there. */
export async function seedDemoData(db: Db): Promise<boolean> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = 'admin@demo.example.com'`);
  if (existing) return false;
  const now = new Date();
  const pw = async (email: string) => hashPassword(DEMO_ACCOUNTS.find((a) => a.email === email)!.password);

  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const company = async (
      name: string,
      extra: { vatId?: string; country?: string; toggles?: FeatureToggle[] } = {},
    ) => {
      const [row] = await tx
        .insert(companies)
        .values({ name, vatId: extra.vatId ?? null, country: extra.country ?? null, toggles: extra.toggles ?? [] })
        .returning({ id: companies.id });
      return row!.id;
    };
    const group = async (companyId: string, name: string, permissions: FeaturePermission[]) => {
      const [row] = await tx.insert(groups).values({ companyId, name, permissions }).returning({ id: groups.id });
      return row!.id;
    };
    const user = async (
      email: string,
      firstName: string,
      lastName: string,
      companyId: string | null,
      roles: string[],
      groupIds: string[],
    ) => {
      const [row] = await tx
        .insert(users)
        .values({
          email,
          firstName,
          lastName,
          companyId,
          roles,
          passwordHash: await pw(email),
          emailVerifiedAt: now,
          passwordChangedAt: now,
        })
        .returning({ id: users.id });
      for (const groupId of groupIds) await tx.insert(groupMembers).values({ groupId, userId: row!.id });
      return row!.id;
    };

    const supplier = await company('Demo Supplier', { vatId: 'PL5260001246', country: 'PL' });
    const retailer = await company('Demo Retailer', { vatId: 'DE811907980', country: 'DE' });
    const demoCo = await company('Demo Sandbox', { country: 'PL' });
    const ksefCo = await company('Demo KSeF', { vatId: 'PL7010002137', country: 'PL', toggles: ['KSEF', 'DEMO_KSEF'] });

    const supplierAll = await group(supplier, 'Administrators', ALL);
    const supplierInbox = await group(supplier, 'Inbox readers', ['INBOX_READ']);
    const retailerAll = await group(retailer, 'Administrators', ALL);
    const demoAll = await group(demoCo, 'Demo', ALL);
    const ksefAll = await group(ksefCo, 'Demo', ALL);

    await user('admin@demo.example.com', 'Ada', 'Admin', null, ['admin'], []);
    await user('user@demo.example.com', 'Uma', 'User', supplier, [], [supplierAll]);
    await user('clerk@demo.example.com', 'Carl', 'Clerk', supplier, [], [supplierInbox]);
    await user('buyer@demo.example.com', 'Bea', 'Buyer', retailer, [], [retailerAll]);
    await user('demo@demo.example.com', 'Dana', 'Demo', demoCo, ['demo'], [demoAll]);
    await user('ksef@demo.example.com', 'Kasia', 'Ksef', ksefCo, ['demo-ksef'], [ksefAll]);

    await tx.insert(legacyAccounts).values({
      login: DEMO_LEGACY.login,
      passwordHash: await hashPassword(DEMO_LEGACY.password),
      companyId: supplier,
      groupId: supplierAll,
    });
  });
  return true;
}
