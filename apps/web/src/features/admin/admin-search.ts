import { z } from 'zod';
import { ISSUE_PRIORITIES, ISSUE_TYPES } from '@portal/contracts';

/**
 * Typed search parameters of the admin lists: the filters live in the address, so a filtered list can be shared and
 * survives a reload. Anything unreadable is dropped instead of failing the page.
 */
const text = z.string().trim().max(200).optional().catch(undefined);
const clean = <T extends Record<string, unknown>>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;

export const CompaniesSearchSchema = z.object({ search: text });
export type CompaniesSearch = { search?: string };

export const UsersSearchSchema = z.object({ search: text, companyId: z.uuid().optional().catch(undefined) });
export type UsersSearch = { search?: string; companyId?: string };

export const EmailsSearchSchema = z.object({ to: text });
export type EmailsSearch = { to?: string };

export const IssueReportsSearchSchema = z.object({
  type: z.enum(ISSUE_TYPES).optional().catch(undefined),
  priority: z.enum(ISSUE_PRIORITIES).optional().catch(undefined),
});
export type IssueReportsSearch = { type?: (typeof ISSUE_TYPES)[number]; priority?: (typeof ISSUE_PRIORITIES)[number] };

export const AuditSearchSchema = z.object({
  event: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-z_.]*$/)
    .optional()
    .catch(undefined),
});
export type AuditSearch = { event?: string };

// `validateSearch` of each list: parse, leave out empty values. Explicit return types keep the router's types
// from depending on inference through the route tree.
type RawSearch = Record<string, unknown>;
export const validateCompaniesSearch = (search: RawSearch): CompaniesSearch =>
  clean(CompaniesSearchSchema.parse(search));
export const validateUsersSearch = (search: RawSearch): UsersSearch => clean(UsersSearchSchema.parse(search));
export const validateEmailsSearch = (search: RawSearch): EmailsSearch => clean(EmailsSearchSchema.parse(search));
export const validateIssueReportsSearch = (search: RawSearch): IssueReportsSearch =>
  clean(IssueReportsSearchSchema.parse(search));
export const validateAuditSearch = (search: RawSearch): AuditSearch => clean(AuditSearchSchema.parse(search));
