import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  AdminAuditPageSchema,
  AdminChatPageSchema,
  AdminCompanyDetailSchema,
  AdminCompanyPageSchema,
  AdminEmailPageSchema,
  AdminIssueReportPageSchema,
  AdminUserPageSchema,
  AppConfigResponseSchema,
  EdifactDirectoriesResponseSchema,
  type Page,
} from '@portal/contracts';
import type { z } from 'zod';
import type { ApiClient } from '../../../lib/api-client.ts';
import type {
  AuditSearch,
  ChatSearch,
  CompaniesSearch,
  EmailsSearch,
  IssueReportsSearch,
  UsersSearch,
} from '../admin-search.ts';

/** Every admin key starts with 'admin', so leaving the area (impersonation) drops them all at once. */
export const adminKeys = {
  all: ['admin'] as const,
  companies: () => [...adminKeys.all, 'companies'] as const,
  companyList: (filters: CompaniesSearch) => [...adminKeys.companies(), 'list', filters] as const,
  company: (id: string) => [...adminKeys.companies(), 'detail', id] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  userList: (filters: UsersSearch) => [...adminKeys.users(), 'list', filters] as const,
  emails: (filters: EmailsSearch) => [...adminKeys.all, 'emails', filters] as const,
  issueReportLists: () => [...adminKeys.all, 'issue-reports'] as const,
  issueReports: (filters: IssueReportsSearch) => [...adminKeys.issueReportLists(), filters] as const,
  audit: (filters: AuditSearch) => [...adminKeys.all, 'audit', filters] as const,
  chat: (filters: ChatSearch) => [...adminKeys.all, 'chat', filters] as const,
  paymentReminder: () => [...adminKeys.all, 'app-config', 'PAYMENT_REMINDER'] as const,
  directories: () => [...adminKeys.all, 'edifact-directories'] as const,
};

type Filters = Record<string, string | undefined>;

/** A keyset-paginated admin list: each page hands its `nextCursor` to the next request as `cursor`. */
function pagedQuery<T>(
  api: ApiClient,
  path: string,
  schema: z.ZodType<Page<T>>,
  queryKey: readonly unknown[],
  filters: Filters,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => api.get(path, schema, { query: { ...filters, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Page<T>) => last.nextCursor ?? undefined,
  });
}

export const companiesQuery = (api: ApiClient, filters: CompaniesSearch) =>
  pagedQuery(api, '/admin/companies', AdminCompanyPageSchema, adminKeys.companyList(filters), filters);

export const companyQuery = (api: ApiClient, id: string) =>
  queryOptions({
    queryKey: adminKeys.company(id),
    queryFn: ({ signal }) =>
      api.get(`/admin/companies/${encodeURIComponent(id)}`, AdminCompanyDetailSchema, { signal }),
  });

export const usersQuery = (api: ApiClient, filters: UsersSearch) =>
  pagedQuery(api, '/admin/users', AdminUserPageSchema, adminKeys.userList(filters), filters);

export const emailsQuery = (api: ApiClient, filters: EmailsSearch) =>
  pagedQuery(api, '/admin/emails', AdminEmailPageSchema, adminKeys.emails(filters), filters);

export const issueReportsQuery = (api: ApiClient, filters: IssueReportsSearch) =>
  pagedQuery(api, '/admin/issue-reports', AdminIssueReportPageSchema, adminKeys.issueReports(filters), filters);

export const auditQuery = (api: ApiClient, filters: AuditSearch) =>
  pagedQuery(api, '/admin/audit', AdminAuditPageSchema, adminKeys.audit(filters), filters);

/** The AI assistant's questions (`GET /api/admin/chat`), newest first; `unanswered` goes as the text `true`. */
export const chatQuestionsQuery = (api: ApiClient, filters: ChatSearch) =>
  pagedQuery(api, '/admin/chat', AdminChatPageSchema, adminKeys.chat(filters), {
    feedback: filters.feedback,
    unanswered: filters.unanswered ? 'true' : undefined,
  });

export const paymentReminderQuery = (api: ApiClient) =>
  queryOptions({
    queryKey: adminKeys.paymentReminder(),
    queryFn: ({ signal }) =>
      api.get('/AppConfig', AppConfigResponseSchema, { query: { appConfigType: 'PAYMENT_REMINDER' }, signal }),
    select: (response) => response.httpResponse.body,
  });

export const directoriesQuery = (api: ApiClient) =>
  queryOptions({
    queryKey: adminKeys.directories(),
    queryFn: ({ signal }) => api.get('/admin/edifact/directories', EdifactDirectoriesResponseSchema, { signal }),
    select: (response) => response.directories,
  });
