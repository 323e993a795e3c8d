import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  AdminCompanyDetailSchema,
  AdminCompanySchema,
  AdminUserSchema,
  AppConfigEntrySchema,
  EdifactDirectoryInfoSchema,
  IssueReportSchema,
  LoginResponseSchema,
  type CompanyStatusRequest,
  type CreateCompanyRequest,
  type CreateUserRequest,
  type FeatureToggle,
  type Language,
  type PaymentReminderContent,
  type Role,
  type UpdateCompanyRequest,
  type UpdateIssueReportRequest,
} from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { useSession } from '../../../app/session/session-context.tsx';
import { startImpersonation } from '../impersonation.ts';
import { attachmentFilename, saveBlob, sendAuthorized, sendAuthorizedJson } from '../../../lib/api-files.ts';
import { adminKeys } from './admin-queries.ts';

const companyPath = (id: string) => `/admin/companies/${encodeURIComponent(id)}`;
const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

/** Company changes refresh the company lists and the company itself (and the users list, which shows its name). */
function useCompanyInvalidation() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.companies() }),
      queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
    ]);
}

export function useCreateCompany() {
  const api = useApi();
  const invalidate = useCompanyInvalidation();
  return useMutation({
    mutationFn: (body: CreateCompanyRequest) => api.post('/admin/companies', AdminCompanyDetailSchema, body),
    onSuccess: invalidate,
  });
}

export function useUpdateCompany(id: string) {
  const api = useApi();
  const invalidate = useCompanyInvalidation();
  return useMutation({
    mutationFn: (body: UpdateCompanyRequest) => api.patch(companyPath(id), AdminCompanySchema, body),
    onSuccess: invalidate,
  });
}

export function useSetCompanyStatus(id: string) {
  const api = useApi();
  const invalidate = useCompanyInvalidation();
  return useMutation({
    mutationFn: (body: CompanyStatusRequest) => api.put(`${companyPath(id)}/status`, AdminCompanySchema, body),
    onSuccess: invalidate,
  });
}

export function useSetCompanyToggles(id: string) {
  const api = useApi();
  const invalidate = useCompanyInvalidation();
  return useMutation({
    mutationFn: (toggles: FeatureToggle[]) => api.put(`${companyPath(id)}/toggles`, AdminCompanySchema, { toggles }),
    onSuccess: invalidate,
  });
}

export function useSetOverduePayment(id: string) {
  const api = useApi();
  const invalidate = useCompanyInvalidation();
  return useMutation({
    mutationFn: (overduePayment: boolean) =>
      api.put(`${companyPath(id)}/overdue-payment`, AdminCompanySchema, { overduePayment }),
    onSuccess: invalidate,
  });
}

export function useCreateUser() {
  const api = useApi();
  const invalidate = useCompanyInvalidation();
  return useMutation({
    mutationFn: (body: CreateUserRequest) => api.post('/admin/users', AdminUserSchema, body),
    onSuccess: invalidate,
  });
}

export type UserAction = 'verify' | 'disable' | 'enable' | 'send-reset';

export function useUserAction() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: UserAction }) =>
      api.post(`${userPath(id)}/${action}`, AdminUserSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export function useSetUserRoles() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, roles }: { id: string; roles: Role[] }) =>
      api.put(`${userPath(id)}/roles`, AdminUserSchema, { roles }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export function useSavePaymentReminder() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ lang, content }: { lang: Language; content: PaymentReminderContent }) =>
      api.put(`/admin/app-config/PAYMENT_REMINDER/${lang}`, AppConfigEntrySchema, content),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.paymentReminder() }),
  });
}

export function useUploadDirectory() {
  const session = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) =>
      sendAuthorizedJson(
        session,
        `/admin/edifact/directories?filename=${encodeURIComponent(file.name)}`,
        EdifactDirectoryInfoSchema,
        { method: 'POST', headers: { 'Content-Type': 'application/zip' }, body: file },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.directories() }),
  });
}

export function useDownloadDirectory() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    // UNECE may be unreachable from the server: its 502 is explained on the form rather than as a bare "Error 502".
    mutationFn: (name: string) =>
      api.post('/admin/edifact/directories/download', EdifactDirectoryInfoSchema, { name }, { quietStatuses: [502] }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.directories() }),
  });
}

export function useDownloadIssueFile() {
  const session = useSession();
  return useMutation({
    mutationFn: async ({ reportId, fileId, filename }: { reportId: string; fileId: string; filename: string }) => {
      const response = await sendAuthorized(
        session,
        `/admin/issue-reports/${encodeURIComponent(reportId)}/files/${encodeURIComponent(fileId)}`,
      );
      saveBlob(await response.blob(), attachmentFilename(response.headers.get('content-disposition'), filename));
    },
  });
}

/** Moves a report along (new, in progress, resolved, closed); every issue-report list is refetched. */
export function useSetIssueReportStatus() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string } & UpdateIssueReportRequest) =>
      api.patch(`/admin/issue-reports/${encodeURIComponent(id)}`, IssueReportSchema, {
        status,
      } satisfies UpdateIssueReportRequest),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.issueReportLists() }),
  });
}

/**
 * Impersonate a user (description, sections 1 and 4): keep the admin's session for 'Logout to Admin panel', switch
 * to the user's tokens and open their inbox. The admin lists are dropped only after the switch, so nothing asks the
 * server for admin data with the user's token.
 */
export function useImpersonate() {
  const api = useApi();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (userId: string) => {
      // A refused start (blocked company: 403) is explained in the dialog instead of an `Error 403` toast.
      const result = await api.post('/admin/impersonate', LoginResponseSchema, { userId }, { quietStatuses: [403] });
      const tokens = result.keycloakResponse?.token;
      if (!tokens || !startImpersonation(session, window.localStorage, tokens)) {
        throw new ApiError({ status: 200, code: 'auth.token_invalid' });
      }
    },
    onSuccess: async () => {
      await navigate({ to: '/' });
      queryClient.removeQueries({ queryKey: adminKeys.all });
    },
  });
}
