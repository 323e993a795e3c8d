import type { ImpersonationRefusal, LoginResponse } from '@portal/contracts';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { evaluateCompanyStatus, type CompaniesService } from '../companies/companies.service.ts';
import type { UsersService } from '../users/users.service.ts';

export type ImpersonationCaller = {
  userId: string;
  email: string;
  companyId: string | null;
  impersonator?: { username: string } | undefined;
};

export type ImpersonationService = ReturnType<typeof createImpersonationService>;

const refuse = (reason: ImpersonationRefusal) =>
  new AppError('admin.impersonation_refused', {
    message: `Cannot impersonate this user (${reason})`,
    data: { reason },
  });

/**
 * An admin works as a user (description, sections 1, 2 and 4): a session of the user whose access token carries
 * `impersonator: { username }` and the admin's roles except admin. Every start and end is audited.
 */
export function createImpersonationService(deps: {
  users: UsersService;
  companies: CompaniesService;
  auth: AuthService;
  audit: AuditService;
  clock: Clock;
}) {
  const { users, audit, clock } = deps;
  return {
    async start(admin: ImpersonationCaller, userId: string, meta: RequestMeta): Promise<LoginResponse> {
      const target = await users.findById(userId);
      if (!target) throw notFound();
      const impersonator = await users.findById(admin.userId);
      if (!impersonator) throw new AppError('auth.unauthenticated');
      if (target.id === impersonator.id) throw refuse('self');
      if (target.roles.includes('admin')) throw refuse('admin');
      if (target.disabledAt) throw refuse('disabled');
      if (!target.emailVerifiedAt) throw refuse('unverified');
      // A company that may not work now would refuse every call of the session anyway; say why at once. The
      // admin's session does not start a limited company's working window.
      const company = target.companyId ? await deps.companies.find(target.companyId) : undefined;
      const verdict = evaluateCompanyStatus(company, clock.now());
      if (!verdict.allowed) throw new AppError(verdict.code, { data: { vindicationInfoResponse: verdict.response } });
      const token = await deps.auth.issueSession(target, { impersonator });
      await audit.record({
        event: 'auth.impersonation_started',
        actorUserId: impersonator.id,
        subjectUserId: target.id,
        companyId: target.companyId,
        login: impersonator.email,
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
      return { success: true, keycloakResponse: { token } };
    },

    /**
     * Ends the impersonated session: the family of the given refresh token and any other session the same admin
     * holds as this user. The web app then restores the admin's own tokens.
     */
    async end(caller: ImpersonationCaller, refreshToken: string | undefined, meta: RequestMeta): Promise<void> {
      if (!caller.impersonator) throw new AppError('auth.not_impersonating');
      const now = clock.now();
      let revoked = 0;
      if (refreshToken) {
        const family = await deps.auth.findSessionOfRefreshToken(refreshToken);
        if (family && family.userId === caller.userId && family.impersonatorId)
          revoked += await deps.auth.revokeSession(family.id, 'impersonation_ended', now);
      }
      const impersonator = await users.findByEmail(caller.impersonator.username);
      if (impersonator)
        revoked += await deps.auth.revokeImpersonations(caller.userId, impersonator.id, 'impersonation_ended', now);
      await audit.record({
        event: 'auth.impersonation_ended',
        actorUserId: impersonator?.id ?? null,
        subjectUserId: caller.userId,
        companyId: caller.companyId,
        login: caller.impersonator.username,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { revokedSessions: revoked },
      });
    },
  };
}
