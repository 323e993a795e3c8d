import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  FEATURE_PERMISSIONS,
  FEATURE_TOGGLES,
  hasPermission,
  type FeaturePermission,
  type FeatureToggle,
  type Principal,
} from '@portal/contracts';
import { AppError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { isUuid } from '../lib/secrets.ts';
import { sessionLiveSql } from '../features/auth/auth.service.ts';
import type { TokenService } from '../features/auth/tokens.service.ts';
import { evaluateCompanyStatus } from '../features/companies/companies.service.ts';
import { membershipsJson } from '../features/groups/groups.service.ts';
import { effectiveRestrictionsSql, type EffectiveRestriction } from '../features/restrictions/restrictions.service.ts';
import type { UsersService } from '../features/users/users.service.ts';

/** The signed-in caller, loaded fresh from the database on every request so revocations apply at once. */
export type RequestPrincipal = Principal & {
  userId: string;
  email: string;
  companyId: string | null;
  groups: string[];
  language: string;
  impersonator?: { username: string };
  /** The session (refresh-token family) of the access token. */
  sessionId?: string;
  /** The restrictions of the user and the user's groups, read with the rest (the documents' scope uses them). */
  restrictions: readonly EffectiveRestriction[];
};

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting Fastify's interface
  interface FastifyRequest {
    principal: RequestPrincipal | undefined;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting Fastify's interface
  interface FastifyContextConfig {
    /** Routes are private unless they opt out. */
    public?: boolean;
  }
}

const PERMISSIONS = new Set<string>(FEATURE_PERMISSIONS);
const TOGGLES = new Set<string>(FEATURE_TOGGLES);

/** What the hook reads: the users owner's read of the caller, with the other owners' parts in it. */
type AuthDeps = {
  clock: Clock;
  tokens: TokenService;
  users: Pick<UsersService, 'preparePrincipal'>;
};

type PrincipalRead = ReturnType<typeof preparePrincipalRead>;

function preparePrincipalRead(deps: AuthDeps) {
  return deps.users.preparePrincipal('auth_principal', {
    sessionLive: sessionLiveSql(),
    memberships: membershipsJson(),
    restrictions: effectiveRestrictionsSql.select(),
  });
}

/**
 * The caller, in one round trip (decision 0043): the user with their company, whether the token's session is still
 * live, their groups of their own company and their restrictions. Logout, a password reset, ending an impersonation
 * or token reuse revoke a session, and its access tokens die with it. An impersonation lives only as long as its
 * admin: once the admin is disabled or no longer an admin, the session is dead too.
 */
async function loadPrincipal(
  deps: AuthDeps,
  read: PrincipalRead,
  userId: string,
  sessionId: string | undefined,
): Promise<RequestPrincipal> {
  const now = deps.clock.now();
  const row = await read({ userId, sessionId: sessionId && isUuid(sessionId) ? sessionId : null, at: now });
  if (!row || (sessionId && !row.sessionLive)) throw new AppError('auth.unauthenticated');
  if (row.user.disabledAt || !row.user.emailVerifiedAt) throw new AppError('auth.unauthenticated');
  const verdict = evaluateCompanyStatus(row.company ?? undefined, now);
  if (!verdict.allowed) throw new AppError(verdict.code);
  // Only groups of the user's own company count (the subquery's condition), whatever rows exist.
  const memberships = row.user.companyId ? row.memberships : [];
  const permissions = new Set<FeaturePermission>();
  for (const m of memberships)
    for (const p of m.permissions) if (PERMISSIONS.has(p)) permissions.add(p as FeaturePermission);
  return {
    userId,
    email: row.user.email,
    companyId: row.user.companyId,
    roles: row.user.roles,
    groups: memberships.map((m) => m.name).sort(),
    language: row.user.language,
    permissions: [...permissions].sort(),
    toggles: (row.company?.toggles ?? []).filter((t): t is FeatureToggle => TOGGLES.has(t)),
    restrictions: row.user.companyId ? effectiveRestrictionsSql.read(row.restrictions) : [],
    ...(sessionId ? { sessionId } : {}),
  };
}

/**
 * Authenticates every route that is not marked public: a valid bearer access token, a user that still exists, is
 * enabled and verified, and a company that may work now.
 */
export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.decorateRequest('principal', undefined);
  const read = preparePrincipalRead(deps);
  // API answers carry tokens, one-time links and company data: no shared or browser cache may keep them. A route
  // that means to be cached says so itself.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public || !request.routeOptions.url) return;
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw new AppError('auth.unauthenticated');
    const claims = await deps.tokens.verify(token);
    if (!claims) throw new AppError('auth.unauthenticated');
    // An impersonation is always a session: without one it could not be ended.
    if (claims.impersonator && !claims.sid) throw new AppError('auth.unauthenticated');
    const principal = await loadPrincipal(deps, read, claims.sub, claims.sid);
    if (claims.impersonator) {
      principal.impersonator = claims.impersonator;
      const roles = new Set(principal.roles);
      for (const r of claims.roles) if (r !== 'admin') roles.add(r);
      principal.roles = [...roles];
    }
    request.principal = principal;
  });
}

/** The principal of an authenticated route (the hook guarantees it). */
export function principalOf(request: FastifyRequest): RequestPrincipal {
  if (!request.principal) throw new AppError('auth.unauthenticated');
  return request.principal;
}

/** preHandler: the caller must hold a feature permission. */
export function requirePermission(permission: FeaturePermission) {
  return async (request: FastifyRequest) => {
    if (!hasPermission(principalOf(request), permission)) throw new AppError('auth.forbidden');
  };
}

/** preHandler: the caller must hold a role (admin routes). */
export function requireRole(role: string) {
  return async (request: FastifyRequest) => {
    if (!principalOf(request).roles.includes(role)) throw new AppError('auth.forbidden');
  };
}
