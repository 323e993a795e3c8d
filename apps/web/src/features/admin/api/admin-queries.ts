import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  AdminAuditEntry,
  AdminCompany,
  AdminCompanyDetail,
  AdminEmail,
  AdminUser,
  AppConfigResponse,
  EdifactDirectoryInfo,
  IssueReport,
  Page,
} from '@portal/contracts';
import type { ApiClient } from '../../../lib/api-client.ts';
import type { AuditSearch, CompaniesSearch, EmailsSearch, IssueReportsSearch, UsersSearch } from '../admin-search.ts';

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
  paymentReminder: () => [...adminKeys.all, 'app-config', 'PAYMENT_REMINDER'] as const,
  directories: () => [...adminKeys.all, 'edifact-directories'] as const,
};

type Filters = Record<string, string | undefined>;

/** A keyset-paginated admin list: each page hands its `nextCursor` to the next request as `cursor`. */
function pagedQuery<T, F extends Filters>(api: ApiClient, path: string, queryKey: readonly unknown[], filters: F) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => api.get<Page<T>>(path, { query: { ...filters, cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: Page<T>) => last.nextCursor ?? undefined,
  });
}

export const companiesQuery = (api: ApiClient, filters: CompaniesSearch) =>
  pagedQuery<AdminCompany, CompaniesSearch>(api, '/admin/companies', adminKeys.companyList(filters), filters);

export const companyQuery = (api: ApiClient, id: string) =>
  queryOptions({
    queryKey: adminKeys.company(id),
    queryFn: ({ signal }) => api.get<AdminCompanyDetail>(`/admin/companies/${encodeURIComponent(id)}`, { signal }),
  });

export const usersQuery = (api: ApiClient, filters: UsersSearch) =>
  pagedQuery<AdminUser, UsersSearch>(api, '/admin/users', adminKeys.userList(filters), filters);

export const emailsQuery = (api: ApiClient, filters: EmailsSearch) =>
  pagedQuery<AdminEmail, EmailsSearch>(api, '/admin/emails', adminKeys.emails(filters), filters);

export const issueReportsQuery = (api: ApiClient, filters: IssueReportsSearch) =>
  pagedQuery<IssueReport, IssueReportsSearch>(api, '/admin/issue-reports', adminKeys.issueReports(filters), filters);

export const auditQuery = (api: ApiClient, filters: AuditSearch) =>
  pagedQuery<AdminAuditEntry, AuditSearch>(api, '/admin/audit', adminKeys.audit(filters), filters);

export const paymentReminderQuery = (api: ApiClient) =>
  queryOptions({
    queryKey: adminKeys.paymentReminder(),
    queryFn: ({ signal }) =>
      api.get<AppConfigResponse>('/AppConfig', { query: { appConfigType: 'PAYMENT_REMINDER' }, signal }),
    select: (response) => response.httpResponse.body,
  });

export const directoriesQuery = (api: ApiClient) =>
  queryOptions({
    queryKey: adminKeys.directories(),
    queryFn: ({ signal }) => api.get<{ directories: EdifactDirectoryInfo[] }>('/admin/edifact/directories', { signal }),
    select: (response) => response.directories,
  });
