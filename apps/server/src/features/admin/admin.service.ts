import {
  FEATURE_TOGGLES,
  LOGIN_STATUSES,
  type AdminAuditEntry,
  type AdminCompany,
  type AdminCompanyDetail,
  type AdminEmail,
  type CompanyLocation,
  type CompanyLocationPage,
  type CompanyLocationValues,
  type CompanyLocationsQuery,
  type Page,
  type AdminUser,
  type CompanyStatusRequest,
  type CreateCompanyRequest,
  type CreateUserRequest,
  type FeatureToggle,
  type LoginStatus,
  type UpdateCompanyRequest,
} from '@portal/contracts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, serialId, shortText, timestampText, toPage, uuid } from '../../lib/keyset.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import type { Db } from '../../db/client.ts';
import type { AuditListRow, AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { CompaniesService, CompanyListRow, NewCompany } from '../companies/companies.service.ts';
import type { GroupsService } from '../groups/groups.service.ts';
import type { EmailListRow, MailService } from '../mail/mail.service.ts';
import type { UsersService, UserWithCompanyName as UserListRow } from '../users/users.service.ts';

/** The admin who asks, as far as these rules care. */
export type AdminCaller = { userId: string; email: string; ip: string };

export type AdminService = ReturnType<typeof createAdminService>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const blankToNull = (v: string | null | undefined): string | null => (v ? v : null);
const STATUSES = new Set<string>(LOGIN_STATUSES);
const TOGGLES = new Set<string>(FEATURE_TOGGLES);
/** Cursor keys: (lower(name or e-mail), id); (created_at as text, id); audit id. */
const NAME_KEY = [shortText, uuid];
const TIME_KEY = [timestampText, uuid];

function toCompany(row: CompanyListRow): AdminCompany {
  return {
    id: row.id,
    name: row.name,
    vatId: row.vatId,
    taxId: row.taxId,
    country: row.country,
    loginStatus: (STATUSES.has(row.loginStatus) ? row.loginStatus : 'NOTSET') as LoginStatus,
    restrictionWaitTime: row.restrictionWaitTime,
    restrictionWorkingTime: row.restrictionWorkingTime,
    restrictionWorkingStart: iso(row.restrictionWorkingStart),
    restrictionMessage: row.restrictionMessage,
    toggles: row.toggles.filter((t): t is FeatureToggle => TOGGLES.has(t)),
    overduePayment: row.overduePayment,
    userCount: row.userCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toUser(row: UserListRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    language: row.language,
    roles: [...row.roles].sort(),
    companyId: row.companyId,
    companyName: row.companyName,
    emailVerifiedAt: iso(row.emailVerifiedAt),
    disabledAt: iso(row.disabledAt),
    hasPassword: !!row.passwordHash,
    createdAt: row.createdAt.toISOString(),
  };
}

function toEmail(row: EmailListRow): AdminEmail {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    textBody: row.textBody,
    htmlBody: row.htmlBody,
    language: row.language,
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
  };
}

function toAuditEntry(row: AuditListRow): AdminAuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    event: row.event,
    actor: row.actorUserId ? { id: row.actorUserId, email: row.actorEmail } : null,
    subject: row.subjectUserId ? { id: row.subjectUserId, email: row.subjectEmail } : null,
    companyId: row.companyId,
    login: row.login,
    ip: row.ip,
    userAgent: row.userAgent,
    details: row.details ?? null,
  };
}

/** Rules of the admin area: companies, users across companies and the logs. Callers are admins (the routes check). */
export function createAdminService(deps: {
  db: Db;
  companies: CompaniesService;
  users: UsersService;
  groups: GroupsService;
  mail: MailService;
  audit: AuditService;
  auth: AuthService;
  clock: Clock;
}) {
  const { companies, users, audit, clock } = deps;

  async function getCompanyRow(id: string): Promise<CompanyListRow> {
    const row = await companies.findWithUserCount(id);
    if (!row) throw notFound();
    return row;
  }

  async function getUserRow(id: string): Promise<UserListRow> {
    const row = await users.findWithCompanyName(id);
    if (!row) throw notFound();
    return row;
  }

  /** Applies a change to a company and records what it was before and after. */
  async function changeCompany(
    caller: AdminCaller,
    id: string,
    change: 'profile' | 'status' | 'toggles' | 'overduePayment',
    values: Partial<NewCompany>,
  ): Promise<AdminCompany> {
    const before = await getCompanyRow(id);
    const now = clock.now();
    await companies.update(id, { ...values, updatedAt: now });
    const after = await getCompanyRow(id);
    const pick = (row: CompanyListRow) =>
      Object.fromEntries(Object.keys(values).map((k) => [k, row[k as keyof CompanyListRow] ?? null]));
    await audit.record({
      event: 'admin.company_changed',
      actorUserId: caller.userId,
      companyId: id,
      login: caller.email,
      ip: caller.ip,
      details: { change, before: pick(before), after: pick(after) },
    });
    return toCompany(after);
  }

  async function userEvent(
    caller: AdminCaller,
    event:
      | 'admin.user_created'
      | 'admin.user_verified'
      | 'admin.user_disabled'
      | 'admin.user_enabled'
      | 'admin.user_reset_sent'
      | 'admin.user_roles_changed',
    user: UserListRow,
    details?: Record<string, unknown>,
  ): Promise<void> {
    await audit.record({
      event,
      actorUserId: caller.userId,
      subjectUserId: user.id,
      companyId: user.companyId,
      login: caller.email,
      ip: caller.ip,
      ...(details ? { details } : {}),
    });
  }

  async function getCompany(id: string): Promise<AdminCompanyDetail> {
    const row = await getCompanyRow(id);
    const groups = await deps.groups.ofCompany(id);
    return { ...toCompany(row), groups: groups.map((g) => ({ ...g, permissions: [...g.permissions].sort() })) };
  }

  /** Records a change of a company's GLNs and delivery points. */
  async function locationEvent(
    caller: AdminCaller,
    companyId: string,
    action: 'created' | 'updated' | 'deleted',
    gln: string,
    location: CompanyLocation,
  ): Promise<void> {
    await audit.record({
      event: 'admin.company_changed',
      actorUserId: caller.userId,
      companyId,
      login: caller.email,
      ip: caller.ip,
      details: {
        change: 'location',
        action,
        gln,
        location: { gln: location.gln, kind: location.kind, name: location.name },
      },
    });
  }

  const cannotChangeSelf = (what: string) =>
    new AppError('admin.cannot_change_self', { message: `An admin cannot ${what} their own account` });

  return {
    // Companies -------------------------------------------------------------------------------------------------

    async listCompanies(query: {
      search?: string | undefined;
      cursor?: string | undefined;
      limit: number;
    }): Promise<Page<AdminCompany>> {
      const after = decodeCursor(query.cursor, NAME_KEY);
      const rows = await companies.list({ search: query.search || undefined, after, limit: query.limit });
      return toPage(rows, query.limit, toCompany, (r) => [r.sortKey, r.id]);
    },

    getCompany,

    /** A new company starts with an "Administrators" group holding every feature permission but e-TTN. */
    async createCompany(caller: AdminCaller, input: CreateCompanyRequest): Promise<AdminCompanyDetail> {
      const now = clock.now();
      const { company } = await companies.createCompany({
        name: input.name,
        vatId: blankToNull(input.vatId),
        taxId: blankToNull(input.taxId),
        country: blankToNull(input.country),
        createdAt: now,
        updatedAt: now,
      });
      await audit.record({
        event: 'admin.company_created',
        actorUserId: caller.userId,
        companyId: company.id,
        login: caller.email,
        ip: caller.ip,
        details: { name: company.name },
      });
      return getCompany(company.id);
    },

    async updateCompany(caller: AdminCaller, id: string, input: UpdateCompanyRequest): Promise<AdminCompany> {
      const values: Partial<NewCompany> = {};
      if (input.name !== undefined) values.name = input.name;
      if (input.vatId !== undefined) values.vatId = blankToNull(input.vatId);
      if (input.taxId !== undefined) values.taxId = blankToNull(input.taxId);
      if (input.country !== undefined) values.country = blankToNull(input.country);
      return changeCompany(caller, id, 'profile', values);
    },

    /** The status takes effect at once: the authentication hook and refresh read it on every call. */
    async setCompanyStatus(caller: AdminCaller, id: string, input: CompanyStatusRequest): Promise<AdminCompany> {
      const values: Partial<NewCompany> = {
        loginStatus: input.loginStatus,
        restrictionWaitTime: input.restrictionWaitTime,
        restrictionWorkingTime: input.restrictionWorkingTime,
        restrictionMessage: blankToNull(input.restrictionMessage),
      };
      if (input.restrictionWorkingStart !== undefined) {
        values.restrictionWorkingStart = input.restrictionWorkingStart ? new Date(input.restrictionWorkingStart) : null;
      }
      return changeCompany(caller, id, 'status', values);
    },

    async setCompanyToggles(caller: AdminCaller, id: string, toggles: FeatureToggle[]): Promise<AdminCompany> {
      return changeCompany(caller, id, 'toggles', { toggles: [...new Set(toggles)].sort() });
    },

    async setOverduePayment(caller: AdminCaller, id: string, overduePayment: boolean): Promise<AdminCompany> {
      return changeCompany(caller, id, 'overduePayment', { overduePayment });
    },

    // GLNs and delivery points of a company (decision 0020) --------------------------------------------------------

    async listLocations(companyId: string, query: CompanyLocationsQuery): Promise<CompanyLocationPage> {
      // The list first: a bad cursor is the caller's 400 whether or not the company exists (then the 404).
      const page = await companies.locations.list({ companyId }, query);
      await getCompanyRow(companyId);
      return page;
    },

    async addLocation(caller: AdminCaller, companyId: string, input: CompanyLocationValues): Promise<CompanyLocation> {
      await getCompanyRow(companyId);
      const location = await companies.locations.create({ companyId }, input, clock.now());
      await locationEvent(caller, companyId, 'created', location.gln, location);
      return location;
    },

    async updateLocation(
      caller: AdminCaller,
      companyId: string,
      gln: string,
      input: CompanyLocationValues,
    ): Promise<CompanyLocation> {
      await getCompanyRow(companyId);
      const location = await companies.locations.update({ companyId }, gln, input);
      await locationEvent(caller, companyId, 'updated', gln, location);
      return location;
    },

    async removeLocation(caller: AdminCaller, companyId: string, gln: string): Promise<void> {
      await getCompanyRow(companyId);
      const location = await companies.locations.remove({ companyId }, gln);
      await locationEvent(caller, companyId, 'deleted', gln, location);
    },

    // Users -----------------------------------------------------------------------------------------------------

    async listUsers(query: {
      search?: string | undefined;
      companyId?: string | undefined;
      cursor?: string | undefined;
      limit: number;
    }): Promise<Page<AdminUser>> {
      const after = decodeCursor(query.cursor, NAME_KEY);
      const rows = await users.list({
        search: query.search || undefined,
        companyId: query.companyId,
        after,
        limit: query.limit,
      });
      return toPage(rows, query.limit, toUser, (r) => [r.sortKey, r.id]);
    },

    async getUser(id: string): Promise<AdminUser> {
      return toUser(await getUserRow(id));
    },

    /**
     * Creates a user without a password. With `sendInvitation` the user gets a link to set one (which also
     * verifies the address); without, an admin verifies them and sends a reset link when ready.
     */
    async createUser(caller: AdminCaller, input: CreateUserRequest): Promise<AdminUser> {
      let companyName = 'Open EDI Portal';
      let groupIds: string[] = [];
      if (input.companyId) {
        const company = await companies.find(input.companyId);
        if (!company) throw new AppError('validation.failed', { details: [{ field: 'companyId', code: 'notFound' }] });
        companyName = company.name;
        const wanted = [...new Set(input.groupIds)];
        groupIds = [...(await deps.groups.idsOfCompany(company.id, wanted))];
        if (groupIds.length !== wanted.length) {
          throw new AppError('validation.failed', { details: [{ field: 'groupIds', code: 'oneOf' }] });
        }
      }
      if (await users.findByEmail(input.email)) {
        throw new AppError('users.email_taken', {
          message: 'E-mail already in use',
          details: [{ field: 'email', code: 'emailTaken' }],
        });
      }
      const now = clock.now();
      // The user and their group memberships, atomically.
      const created = await deps.db
        .transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          const user = await users.insert(
            {
              email: input.email,
              firstName: input.firstName,
              lastName: input.lastName,
              companyId: input.companyId,
              roles: [...new Set(input.roles)].sort(),
              language: input.language,
              createdAt: now,
              updatedAt: now,
            },
            tx,
          );
          await deps.groups.addMember(user.id, groupIds, tx);
          return user;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) {
            throw new AppError('users.email_taken', {
              message: 'E-mail already in use',
              details: [{ field: 'email', code: 'emailTaken' }],
            });
          }
          throw error;
        });
      const user = await getUserRow(created.id);
      await userEvent(caller, 'admin.user_created', user, {
        roles: user.roles,
        groupIds,
        invitation: input.sendInvitation,
      });
      if (input.sendInvitation) {
        const inviter = await users.findById(caller.userId);
        const inviterName = inviter ? `${inviter.firstName} ${inviter.lastName}`.trim() : caller.email;
        await deps.auth.sendInvitation(created, { inviterName, companyName });
      }
      return toUser(user);
    },

    async verifyUser(caller: AdminCaller, id: string): Promise<AdminUser> {
      const user = await getUserRow(id);
      if (!user.emailVerifiedAt) {
        const now = clock.now();
        await users.update(id, { emailVerifiedAt: now, updatedAt: now });
        await userEvent(caller, 'admin.user_verified', user);
      }
      return toUser(await getUserRow(id));
    },

    /** Disabling ends every session of the user at once; their running access tokens stop at the next call. */
    async disableUser(caller: AdminCaller, id: string): Promise<AdminUser> {
      if (id === caller.userId) throw cannotChangeSelf('disable');
      const user = await getUserRow(id);
      if (!user.disabledAt) {
        // Disabled and every session of theirs ended, atomically. Impersonations the user started end too:
        // re-enabling the user later must not bring one back.
        const at = clock.now();
        await deps.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          await users.update(id, { disabledAt: at, updatedAt: at }, tx);
          await deps.auth.revokeAllSessions(id, 'disabled', at, tx);
        });
        await userEvent(caller, 'admin.user_disabled', user);
      }
      return toUser(await getUserRow(id));
    },

    async enableUser(caller: AdminCaller, id: string): Promise<AdminUser> {
      const user = await getUserRow(id);
      if (user.disabledAt) {
        await users.update(id, { disabledAt: null, updatedAt: clock.now() });
        await userEvent(caller, 'admin.user_enabled', user);
      }
      return toUser(await getUserRow(id));
    },

    /** The same reset e-mail as "Forgot password", without its resend interval. */
    async sendReset(caller: AdminCaller, id: string): Promise<AdminUser> {
      const user = await getUserRow(id);
      if (user.disabledAt) {
        // The link would be refused (a disabled user cannot set a password), so say so now.
        throw new AppError('users.disabled', {
          message: 'User is disabled',
          details: [{ field: 'id', code: 'userDisabled' }],
        });
      }
      await deps.auth.sendResetLink(user);
      await userEvent(caller, 'admin.user_reset_sent', user);
      return toUser(user);
    },

    async setRoles(caller: AdminCaller, id: string, roles: string[]): Promise<AdminUser> {
      const next = [...new Set(roles)].sort();
      const user = await getUserRow(id);
      if (id === caller.userId && !next.includes('admin')) throw cannotChangeSelf('demote');
      if (!user.companyId && !next.includes('admin')) {
        // Only platform admins live outside a company; such a user would see nothing.
        throw new AppError('validation.failed', { details: [{ field: 'roles', code: 'companyRequired' }] });
      }
      const before = [...user.roles].sort();
      if (before.join() !== next.join()) {
        await users.update(id, { roles: next, updatedAt: clock.now() });
        await userEvent(caller, 'admin.user_roles_changed', user, { before, after: next });
      }
      return toUser(await getUserRow(id));
    },

    // Logs ------------------------------------------------------------------------------------------------------

    async listEmails(query: {
      to?: string | undefined;
      kind?: string | undefined;
      cursor?: string | undefined;
      limit: number;
    }): Promise<Page<AdminEmail>> {
      const after = decodeCursor(query.cursor, TIME_KEY);
      const rows = await deps.mail.list({
        to: query.to || undefined,
        kind: query.kind || undefined,
        after,
        limit: query.limit,
      });
      return toPage(rows, query.limit, toEmail, (r) => [r.cursorAt, r.id]);
    },

    async listAudit(query: {
      event?: string | undefined;
      userId?: string | undefined;
      cursor?: string | undefined;
      limit: number;
    }): Promise<Page<AdminAuditEntry>> {
      const after = decodeCursor(query.cursor, [serialId]);
      const rows = await audit.list({
        event: query.event || undefined,
        userId: query.userId,
        beforeId: after ? Number(after[0]) : undefined,
        limit: query.limit,
      });
      return toPage(rows, query.limit, toAuditEntry, (r) => [String(r.id)]);
    },
  };
}
