import { z } from 'zod';
import { ISSUE_PRIORITIES, ISSUE_TYPES } from '@portal/contracts';
import { searchText, withoutEmpty } from '../../lib/search-params.ts';

/** Typed search parameters of the admin lists (see `lib/search-params.ts`). */
export const CompaniesSearchSchema = z.object({ search: searchText });
export type CompaniesSearch = { search?: string };

export const UsersSearchSchema = z.object({ search: searchText, companyId: z.uuid().optional().catch(undefined) });
export type UsersSearch = { search?: string; companyId?: string };

export const EmailsSearchSchema = z.object({ to: searchText });
export type EmailsSearch = { to?: string };

export const IssueReportsSearchSchema = z.object({
  type: z.enum(ISSUE_TYPES).optional().catch(undefined),
  priority: z.enum(ISSUE_PRIORITIES).optional().catch(undefined),
});
export type IssueReportsSearch = { type?: (typeof ISSUE_TYPES)[number]; priority?: (typeof ISSUE_PRIORITIES)[number] };

export const CHAT_FEEDBACK_FILTERS = ['negative', 'positive', 'none'] as const;
export type ChatFeedbackFilter = (typeof CHAT_FEEDBACK_FILTERS)[number];
export const ChatSearchSchema = z.object({
  feedback: z.enum(CHAT_FEEDBACK_FILTERS).optional().catch(undefined),
  // The router reads `?unanswered=true` as a boolean; a hand-typed 'true' is the same filter.
  unanswered: z
    .unknown()
    .transform((value) => (value === true || value === 'true' ? true : undefined))
    .optional(),
});
export type ChatSearch = { feedback?: ChatFeedbackFilter; unanswered?: true };

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
  withoutEmpty(CompaniesSearchSchema.parse(search));
export const validateUsersSearch = (search: RawSearch): UsersSearch => withoutEmpty(UsersSearchSchema.parse(search));
export const validateEmailsSearch = (search: RawSearch): EmailsSearch => withoutEmpty(EmailsSearchSchema.parse(search));
export const validateIssueReportsSearch = (search: RawSearch): IssueReportsSearch =>
  withoutEmpty(IssueReportsSearchSchema.parse(search));
export const validateChatSearch = (search: RawSearch): ChatSearch => withoutEmpty(ChatSearchSchema.parse(search));
export const validateAuditSearch = (search: RawSearch): AuditSearch => withoutEmpty(AuditSearchSchema.parse(search));
