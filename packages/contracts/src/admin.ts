import { z } from 'zod';
import { LOGIN_STATUSES, LanguageSchema, LoginStatusSchema } from './auth.ts';
import { ISSUE_PRIORITIES, ISSUE_REPORT_STATUSES, ISSUE_TYPES, IssueReportSchema } from './issue-reports.ts';
import { FeatureToggleSchema, ROLES } from './permissions.ts';
import { isValidVatId } from './identifiers.ts';
import { COUNTRY_CODES } from './profile.ts';
import { IdParamsSchema, ListQuerySchema, ListSearchSchema, pageSchema } from './lists.ts';
import { EmailSchema, NameSchema, text } from './rules.ts';

/**
 * The admin area (description, sections 1, 4 and 6): companies, users across companies, the e-mail and audit logs,
 * issue reports and impersonation. Every list is keyset-paginated (`ListQuerySchema`, `pageSchema` of `lists.ts`):
 * pass `nextCursor` back as `cursor`; the cursor is opaque and only valid for the same filters.
 */

// ---------------------------------------------------------------------------------------------------------------
// Companies

/** Minutes of the status fields: whole, non-negative, at most a year. */
const MINUTES_MAX = 366 * 24 * 60;
const minutes = z.number({ error: 'integer' }).int('integer').min(0, 'min').max(MINUTES_MAX, 'max');
const COUNTRIES = new Set<string>(COUNTRY_CODES);
const optionalText = (max: number) => text().trim().max(max, 'tooLong').nullable().optional();
const identifier = optionalText(32).refine((v) => !v || /^[A-Za-z0-9 .\-/]+$/.test(v), 'pattern');
/** A VAT identifier with its country prefix (issue 10). */
const vatId = identifier.refine((v) => !v || isValidVatId(v, (code) => COUNTRIES.has(code)), 'vatId');
const country = optionalText(2).refine((v) => !v || COUNTRIES.has(v), 'country');
const companyName = text({ error: 'required' }).trim().min(1, 'required').max(200, 'tooLong');

export const AdminCompaniesQuerySchema = ListQuerySchema.extend({
  /** Part of the name, VAT id or tax id, any case. */
  search: ListSearchSchema,
});
export type AdminCompaniesQuery = z.infer<typeof AdminCompaniesQuerySchema>;

export const AdminCompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  vatId: z.string().nullable(),
  taxId: z.string().nullable(),
  country: z.string().nullable(),
  loginStatus: LoginStatusSchema,
  restrictionWaitTime: z.number().int().nullable(),
  restrictionWorkingTime: z.number().int().nullable(),
  restrictionWorkingStart: z.string().nullable(),
  restrictionMessage: z.string().nullable(),
  toggles: z.array(FeatureToggleSchema),
  overduePayment: z.boolean(),
  userCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminCompany = z.infer<typeof AdminCompanySchema>;
export const AdminCompanyPageSchema = pageSchema(AdminCompanySchema);

/** One company with its groups (to pick a new user's groups). */
export const AdminCompanyDetailSchema = AdminCompanySchema.extend({
  groups: z.array(
    z.object({ id: z.string(), name: z.string(), permissions: z.array(z.string()), memberCount: z.number().int() }),
  ),
});
export type AdminCompanyDetail = z.infer<typeof AdminCompanyDetailSchema>;

export const CreateCompanyRequestSchema = z.object({
  name: companyName,
  vatId,
  taxId: identifier,
  country,
});
export type CreateCompanyRequest = z.infer<typeof CreateCompanyRequestSchema>;

/** The profile basics; absent fields stay, null or empty clears (not the name). */
export const UpdateCompanyRequestSchema = z
  .object({ name: companyName.optional(), vatId, taxId: identifier, country })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'required', path: ['name'] });
export type UpdateCompanyRequest = z.infer<typeof UpdateCompanyRequestSchema>;

/** The company status (docs/decisions/0003-company-status.md). */
export const CompanyStatusRequestSchema = z
  .object({
    loginStatus: z.enum(LOGIN_STATUSES, { error: 'oneOf' }),
    restrictionWaitTime: minutes,
    restrictionWorkingTime: minutes,
    /** ISO timestamp; absent keeps the current window, null starts a new one at the next login. */
    restrictionWorkingStart: z.iso.datetime({ offset: true, error: 'dateTime' }).nullable().optional(),
    restrictionMessage: text().trim().max(2000, 'tooLong').nullable(),
  })
  .refine((v) => v.loginStatus !== 'OK_LIMITED' || v.restrictionWorkingTime > 0, {
    path: ['restrictionWorkingTime'],
    message: 'positive',
  });
export type CompanyStatusRequest = z.infer<typeof CompanyStatusRequestSchema>;

export const CompanyTogglesRequestSchema = z.object({
  toggles: z.array(FeatureToggleSchema).max(50, 'tooLong'),
});
export type CompanyTogglesRequest = z.infer<typeof CompanyTogglesRequestSchema>;

export const OverduePaymentRequestSchema = z.object({ overduePayment: z.boolean({ error: 'boolean' }) });
export type OverduePaymentRequest = z.infer<typeof OverduePaymentRequestSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Users across companies

export const AdminRoleSchema = z.enum(ROLES, { error: 'oneOf' });
const roles = z.array(AdminRoleSchema).max(ROLES.length * 2, 'tooLong');

export const AdminUsersQuerySchema = ListQuerySchema.extend({
  /** Part of the e-mail or the name, any case. */
  search: ListSearchSchema,
  companyId: z.uuid({ error: 'uuid' }).optional(),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuerySchema>;

export const AdminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  language: z.string(),
  roles: z.array(z.string()),
  companyId: z.string().nullable(),
  companyName: z.string().nullable(),
  emailVerifiedAt: z.string().nullable(),
  disabledAt: z.string().nullable(),
  /** False for an invited user who has not set a password yet. */
  hasPassword: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const AdminUserPageSchema = pageSchema(AdminUserSchema);

export const CreateUserRequestSchema = z
  .object({
    email: EmailSchema,
    firstName: NameSchema,
    lastName: NameSchema,
    /** Null for a platform admin, who belongs to no company. */
    companyId: z.uuid({ error: 'uuid' }).nullable(),
    roles,
    language: LanguageSchema.default('en'),
    /** Groups of that company the user joins. */
    groupIds: z
      .array(z.uuid({ error: 'uuid' }))
      .max(100, 'tooLong')
      .default([]),
    /** E-mail an invitation link with which the user sets a password (and so verifies the address). */
    sendInvitation: z.boolean({ error: 'boolean' }),
  })
  .refine((v) => v.companyId !== null || v.roles.includes('admin'), { path: ['companyId'], message: 'required' })
  .refine((v) => v.companyId !== null || v.groupIds.length === 0, { path: ['groupIds'], message: 'oneOf' });
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>;

export const SetRolesRequestSchema = z.object({ roles });
export type SetRolesRequest = z.infer<typeof SetRolesRequestSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Logs

export const AdminEmailsQuerySchema = ListQuerySchema.extend({
  /** Part of the recipient address, any case. */
  to: ListSearchSchema,
  kind: text().trim().max(50, 'tooLong').optional(),
});
export const AdminEmailSchema = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  textBody: z.string(),
  htmlBody: z.string().nullable(),
  language: z.string(),
  /** stored (no SMTP server), sent or failed. */
  status: z.string(),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type AdminEmail = z.infer<typeof AdminEmailSchema>;
export const AdminEmailPageSchema = pageSchema(AdminEmailSchema);

export const AdminAuditQuerySchema = ListQuerySchema.extend({
  /** An exact event (`auth.login_failed`) or a prefix ending in a dot (`admin.`). */
  event: text()
    .trim()
    .max(100, 'tooLong')
    .regex(/^[a-z_.]*$/, 'pattern')
    .optional(),
  /** Entries where this user acted or was acted upon. */
  userId: z.uuid({ error: 'uuid' }).optional(),
});
export const AdminAuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  event: z.string(),
  actor: z.object({ id: z.string(), email: z.string().nullable() }).nullable(),
  subject: z.object({ id: z.string(), email: z.string().nullable() }).nullable(),
  companyId: z.string().nullable(),
  login: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminAuditEntry = z.infer<typeof AdminAuditEntrySchema>;
export const AdminAuditPageSchema = pageSchema(AdminAuditEntrySchema);

export const AdminIssueReportsQuerySchema = ListQuerySchema.extend({
  type: z.enum(ISSUE_TYPES, { error: 'oneOf' }).optional(),
  priority: z.enum(ISSUE_PRIORITIES, { error: 'oneOf' }).optional(),
  companyId: z.uuid({ error: 'uuid' }).optional(),
});
export const AdminIssueReportPageSchema = pageSchema(IssueReportSchema);
/** `PATCH /api/admin/issue-reports/:id`. */
export const UpdateIssueReportRequestSchema = z.object({ status: z.enum(ISSUE_REPORT_STATUSES, { error: 'oneOf' }) });
export type UpdateIssueReportRequest = z.infer<typeof UpdateIssueReportRequestSchema>;
export const IssueReportFileParamsSchema = IdParamsSchema.extend({ fileId: z.uuid({ error: 'uuid' }) });

// ---------------------------------------------------------------------------------------------------------------
// Impersonation

export const ImpersonateRequestSchema = z.object({ userId: z.uuid({ error: 'uuid' }) });
/** The admin's own tokens stay with the web app; this ends the session started by impersonate. */
export const EndImpersonationRequestSchema = z.object({ refreshToken: text().max(512, 'tooLong').optional() });

/** Why an impersonation was refused (`error.data.reason` of `admin.impersonation_refused`). */
export const IMPERSONATION_REFUSALS = ['admin', 'disabled', 'unverified', 'self'] as const;
export type ImpersonationRefusal = (typeof IMPERSONATION_REFUSALS)[number];
