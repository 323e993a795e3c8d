import { randomUUID } from 'node:crypto';
import {
  INVITATION_TTL_SECONDS,
  isLanguage,
  type CompanyUser,
  type CompanyUserDetail,
  type CompanyUsersPage,
  type CompanyUsersQuery,
  type InviteUserRequest,
  type UpdateCompanyUserRequest,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { companyOf, unique, unknownIds } from '../../lib/company-scope.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import { anyText, decodeCursor, takePage, uuid } from '../../lib/keyset.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { CompaniesService } from '../companies/companies.service.ts';
import {
  assertMayGrantGroups,
  assertNotOwnMembership,
  type GroupsCaller,
  type GroupsService,
} from '../groups/groups.service.ts';
import { renderActionMail, type MailService } from '../mail/mail.service.ts';
import type { RestrictionsService } from '../restrictions/restrictions.service.ts';
import { statusOf, type CompanyUserRow, type UsersService } from '../users/users.service.ts';

/** Who is asking, as far as user management cares. */
export type UserManagementCaller = GroupsCaller & { language: string };

/** Minimum seconds between two invitation e-mails to the same user. */
export const INVITATION_RESEND_INTERVAL_SECONDS = 60;

const emailTaken = () => new AppError('users.email_taken', { details: [{ field: 'email', code: 'emailTaken' }] });

export type CompanyUsersService = ReturnType<typeof createCompanyUsersService>;

/** A company's users and invitations; the users, groups and links are their owners' (decision 0013). */
export function createCompanyUsersService(deps: {
  db: Db;
  users: UsersService;
  groups: GroupsService;
  companies: CompaniesService;
  restrictions: RestrictionsService;
  auth: AuthService;
  audit: AuditService;
  mail: MailService;
  clock: Clock;
  publicUrl: string;
}) {
  const { db, users, groups: groupsOwner, audit, clock } = deps;
  const guardedChange = groupsOwner.guardedChange;
  const userName = async (id: string) => {
    const user = await users.findById(id);
    return user ? `${user.firstName} ${user.lastName}`.trim() : '';
  };
  const companyName = async (id: string) => (await deps.companies.find(id))?.name ?? '';

  async function toUsers(companyId: string, rows: CompanyUserRow[], tx: Db = db): Promise<CompanyUser[]> {
    const groups = await groupsOwner.groupsOfUsers(
      companyId,
      rows.map((r) => r.id),
      tx,
    );
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      firstName: r.firstName,
      lastName: r.lastName,
      telephone: r.telephone,
      language: isLanguage(r.language) ? r.language : 'en',
      status: statusOf(r),
      groups: groups.get(r.id) ?? [],
      lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  async function getUser(companyId: string, id: string): Promise<CompanyUserDetail> {
    const row = await users.findOfCompany(companyId, id);
    if (!row) throw notFound();
    const [user] = await toUsers(companyId, [row]);
    return { ...user!, restrictions: await deps.restrictions.ofUser(companyId, id) };
  }

  async function checkGroups(companyId: string, groupIds: readonly string[], tx: Db = db): Promise<string[]> {
    const known = await groupsOwner.idsOfCompany(companyId, groupIds, tx);
    const details = unknownIds('groupIds', groupIds, known);
    if (details.length > 0) throw new AppError('validation.failed', { details });
    return unique(groupIds);
  }

  /** Refuses (403) joining any of `joined` that grants a permission the caller does not hold. */
  async function checkGrants(
    caller: UserManagementCaller,
    companyId: string,
    requested: readonly string[],
    joined: readonly string[],
    tx: Db = db,
  ): Promise<void> {
    const rows = await groupsOwner.byIds(companyId, joined, tx);
    assertMayGrantGroups(
      caller,
      rows.map((g) => ({ field: `groupIds.${requested.indexOf(g.id)}`, permissions: g.permissions })),
    );
  }

  /**
   * An invitation to an address that already has an account in another company (or none): the caller gets the
   * answer of a new invitation, so the form tells nothing about other companies' users, and the account's owner an
   * e-mail saying who tried. Nothing is created.
   */
  async function answerAsInvited(
    caller: UserManagementCaller,
    companyId: string,
    input: InviteUserRequest,
    groupIds: readonly string[],
    account: { id: string; email: string; firstName: string; language: string },
    meta: RequestMeta,
  ): Promise<CompanyUserDetail> {
    const now = clock.now();
    const language = input.language ?? (isLanguage(caller.language) ? caller.language : 'en');
    const inviter = await userName(caller.userId);
    const company = await companyName(companyId);
    const mail = renderActionMail({
      language: account.language,
      kind: 'inviteExisting',
      name: account.firstName,
      link: `${deps.publicUrl}/login`,
      params: { inviter, company },
    });
    await deps.mail.send({
      kind: 'invitation_existing',
      to: account.email,
      language: account.language,
      userId: account.id,
      ...mail,
    });
    await audit.record({
      event: 'users.invited',
      actorUserId: caller.userId,
      subjectUserId: account.id,
      companyId,
      login: account.email,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { groupIds, existingAccount: true },
    });
    const groups = await groupsOwner.byIds(companyId, groupIds);
    return {
      id: randomUUID(),
      email: input.email.trim(),
      firstName: input.firstName,
      lastName: input.lastName,
      telephone: null,
      language,
      status: 'invited',
      groups: groups.map((g) => ({ id: g.id, name: g.name })),
      lastLoginAt: null,
      createdAt: now.toISOString(),
      restrictions: [],
    };
  }

  /** A new one-time `invite` link for the user; earlier links of the user stop working. */
  const createInvitationToken = (userId: string, tx: Db): Promise<string> =>
    deps.auth.newLinkToken(userId, 'invite', INVITATION_TTL_SECONDS, tx);

  /** E-mails the invitation link in the invitee's language (after the transaction that made the link). */
  async function mailInvitation(
    companyId: string,
    inviterId: string,
    invitee: { id: string; email: string; firstName: string; language: string },
    token: string,
  ): Promise<void> {
    const inviter = await userName(inviterId);
    const company = await companyName(companyId);
    const link = `${deps.publicUrl}/set-password?token=${encodeURIComponent(token)}`;
    const mail = renderActionMail({
      language: invitee.language,
      kind: 'invite',
      name: invitee.firstName,
      link,
      params: { inviter, company },
    });
    await deps.mail.send({
      kind: 'invitation',
      to: invitee.email,
      language: invitee.language,
      userId: invitee.id,
      ...mail,
    });
  }

  return {
    async list(caller: UserManagementCaller, query: CompanyUsersQuery): Promise<CompanyUsersPage> {
      const companyId = companyOf(caller);
      const key = decodeCursor(query.cursor, [anyText, anyText, uuid]);
      const after = key ? { lastName: key[0]!, firstName: key[1]!, id: key[2]! } : undefined;
      const filters = { search: query.search, status: query.status, groupId: query.groupId };
      const rows = await users.listOfCompany(companyId, filters, after, query.limit + 1);
      const page = takePage(rows, query.limit, (r) => [r.lastName, r.firstName, r.id]);
      return {
        items: await toUsers(companyId, page.rows),
        nextCursor: page.nextCursor,
        ...(query.includeTotal ? { total: await users.countOfCompany(companyId, filters) } : {}),
      };
    },

    get: (caller: UserManagementCaller, id: string) => getUser(companyOf(caller), id),

    /**
     * Creates a user without a password in the caller's company, in the given groups, and e-mails the invitation
     * link (`/set-password?token=…`). Accepting it sets the password and verifies the address.
     */
    async invite(
      caller: UserManagementCaller,
      input: InviteUserRequest,
      meta: RequestMeta,
    ): Promise<CompanyUserDetail> {
      const companyId = companyOf(caller);
      const email = input.email.trim();
      const groupIds = await checkGroups(companyId, input.groupIds);
      await checkGrants(caller, companyId, input.groupIds, groupIds);
      // A user of the caller's own company is on the caller's list already: saying so tells nothing new. An account
      // anywhere else is answered like a new address (decision 0005).
      const existing = await users.findByEmail(email);
      if (existing?.companyId === companyId) throw emailTaken();
      if (existing) return answerAsInvited(caller, companyId, input, groupIds, existing, meta);
      const language = input.language ?? (isLanguage(caller.language) ? caller.language : 'en');
      const now = clock.now();
      const created = await db
        .transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          const { id: userId } = await users.insert(
            {
              companyId,
              email,
              firstName: input.firstName,
              lastName: input.lastName,
              language,
              passwordHash: null,
              emailVerifiedAt: null,
              createdAt: now,
              updatedAt: now,
            },
            tx,
          );
          await groupsOwner.setUserGroups(companyId, userId, groupIds, tx);
          const invitation = await createInvitationToken(userId, tx);
          await audit.record(
            {
              event: 'users.invited',
              actorUserId: caller.userId,
              subjectUserId: userId,
              companyId,
              login: email,
              ip: meta.ip,
              userAgent: meta.userAgent,
              details: { groupIds },
            },
            tx,
          );
          return { id: userId, token: invitation };
        })
        .catch(async (error: unknown) => {
          // The same address invited a moment ago by someone else trips the unique index: answer as above.
          if (!isUniqueViolation(error)) throw error;
          const raced = await users.findByEmail(email);
          if (!raced || raced.companyId === companyId) throw emailTaken();
          return { raced };
        });
      if ('raced' in created) return answerAsInvited(caller, companyId, input, groupIds, created.raced, meta);
      const { id, token } = created;
      await mailInvitation(companyId, caller.userId, { id, email, firstName: input.firstName, language }, token);
      return getUser(companyId, id);
    },

    /** A new invitation link for a user who has not accepted yet; earlier links stop working. */
    async resendInvitation(caller: UserManagementCaller, id: string, meta: RequestMeta): Promise<CompanyUserDetail> {
      const companyId = companyOf(caller);
      const row = await users.findOfCompany(companyId, id);
      if (!row) throw notFound();
      if (statusOf(row) !== 'invited') throw new AppError('user_management.not_invited');
      const last = await deps.auth.lastLinkAt(id, 'invite');
      const since = last ? Math.floor((clock.now().getTime() - last.getTime()) / 1000) : Infinity;
      if (since < INVITATION_RESEND_INTERVAL_SECONDS) {
        const retryAfter = String(INVITATION_RESEND_INTERVAL_SECONDS - since);
        throw new AppError('user_management.invitation_resend_too_soon', {
          data: { retryAfter: Number(retryAfter) },
          headers: { 'retry-after': retryAfter },
        });
      }
      const token = await db.transaction((tx) => createInvitationToken(id, tx as unknown as Db));
      await mailInvitation(companyId, caller.userId, row, token);
      await audit.record({
        event: 'users.invitation_resent',
        actorUserId: caller.userId,
        subjectUserId: id,
        companyId,
        login: row.email,
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
      return getUser(companyId, id);
    },

    /** Names, telephone and, when given, the complete list of the user's groups. */
    async update(
      caller: UserManagementCaller,
      id: string,
      input: UpdateCompanyUserRequest,
      meta: RequestMeta,
    ): Promise<CompanyUserDetail> {
      const companyId = companyOf(caller);
      await guardedChange(companyId, async (tx) => {
        const row = await users.findOfCompany(companyId, id, tx);
        if (!row) throw notFound();
        const now = clock.now();
        const values: Parameters<UsersService['updateOfCompany']>[2] = {};
        if (input.firstName !== undefined) values.firstName = input.firstName;
        if (input.lastName !== undefined) values.lastName = input.lastName;
        if (input.telephone !== undefined) values.telephone = input.telephone ? input.telephone : null;
        const changed = Object.keys(values);
        if (changed.length > 0) {
          await users.updateOfCompany(companyId, id, values, now, tx);
          await audit.record(
            {
              event: 'users.updated',
              actorUserId: caller.userId,
              subjectUserId: id,
              companyId,
              ip: meta.ip,
              details: { fields: changed },
            },
            tx,
          );
        }
        if (input.groupIds !== undefined) {
          const groupIds = await checkGroups(companyId, input.groupIds, tx);
          const before = (await groupsOwner.groupsOfUsers(companyId, [id], tx)).get(id) ?? [];
          const had = new Set(before.map((g) => g.id));
          const joined = groupIds.filter((g) => !had.has(g));
          const left = before.filter((g) => !groupIds.includes(g.id));
          if (joined.length > 0 || left.length > 0) assertNotOwnMembership(caller, [id]);
          await checkGrants(caller, companyId, input.groupIds, joined, tx);
          await groupsOwner.setUserGroups(companyId, id, groupIds, tx);
          const after = (await groupsOwner.groupsOfUsers(companyId, [id], tx)).get(id) ?? [];
          const names = (list: { name: string }[]) => list.map((g) => g.name);
          if (names(before).join('\n') !== names(after).join('\n')) {
            await audit.record(
              {
                event: 'admin.permissions_changed',
                actorUserId: caller.userId,
                subjectUserId: id,
                companyId,
                ip: meta.ip,
                details: { change: 'user_groups', before: { groups: before }, after: { groups: after } },
              },
              tx,
            );
          }
        }
      });
      return getUser(companyId, id);
    },

    /** Disables the user and ends every session at once; nobody deactivates themselves. */
    async deactivate(caller: UserManagementCaller, id: string, meta: RequestMeta): Promise<CompanyUserDetail> {
      const companyId = companyOf(caller);
      if (id === caller.userId) throw new AppError('user_management.cannot_deactivate_self');
      await guardedChange(companyId, async (tx) => {
        const row = await users.findOfCompany(companyId, id, tx);
        if (!row) throw notFound();
        if (row.disabledAt) return;
        const now = clock.now();
        await users.updateOfCompany(companyId, id, { disabledAt: now }, now, tx);
        await deps.auth.revokeAllSessions(id, 'deactivated', now, tx);
        await audit.record(
          {
            event: 'users.deactivated',
            actorUserId: caller.userId,
            subjectUserId: id,
            companyId,
            login: row.email,
            ip: meta.ip,
          },
          tx,
        );
      });
      return getUser(companyId, id);
    },

    async activate(caller: UserManagementCaller, id: string, meta: RequestMeta): Promise<CompanyUserDetail> {
      const companyId = companyOf(caller);
      const row = await users.findOfCompany(companyId, id);
      if (!row) throw notFound();
      if (row.disabledAt) {
        await users.updateOfCompany(companyId, id, { disabledAt: null }, clock.now());
        await audit.record({
          event: 'users.activated',
          actorUserId: caller.userId,
          subjectUserId: id,
          companyId,
          login: row.email,
          ip: meta.ip,
        });
      }
      return getUser(companyId, id);
    },
  };
}
