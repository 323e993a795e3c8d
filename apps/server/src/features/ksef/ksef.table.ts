import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from '../companies/companies.table.ts';
import { users } from '../users/users.table.ts';

/**
 * A company's KSeF connection (issue 13, part 3). The token and the private key are sealed with the secrets key
 * (`lib/secret-box.ts`, decision 0037) and never leave the server; the certificate itself is public.
 */
export const ksefSettings = pgTable('ksef_settings', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  nip: text('nip').notNull(),
  /** simulator, test, demo, production or custom (then `base_url`). */
  environment: text('environment').notNull(),
  baseUrl: text('base_url'),
  /** token or certificate. */
  authMethod: text('auth_method').notNull(),
  tokenSealed: text('token_sealed'),
  certificatePem: text('certificate_pem'),
  privateKeySealed: text('private_key_sealed'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});
