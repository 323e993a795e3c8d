// Every table, for drizzle-kit and the typed database handle. Tables live with their features.
export * from '../features/companies/companies.table.ts';
export * from '../features/companies/company-locations.table.ts';
export * from '../features/users/users.table.ts';
export * from '../features/groups/groups.table.ts';
export * from '../features/auth/auth.table.ts';
export * from '../features/mail/mail.table.ts';
export * from '../features/audit/audit.table.ts';
export * from '../features/app-config/app-config.table.ts';
export * from '../features/restrictions/restrictions.table.ts';
export * from '../features/issue-reports/issue-reports.table.ts';
export * from '../features/address-book/address-book.table.ts';
export * from '../features/products/products.table.ts';
export * from '../storage/blobs.table.ts';
export * from '../features/partners/partners.table.ts';
export * from '../features/documents/documents.table.ts';
export * from '../features/api-keys/api-keys.table.ts';
export * from '../features/chat/chat.table.ts';
