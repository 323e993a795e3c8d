import { randomUUID } from 'node:crypto';
import {
  INVITATION_TTL_SECONDS,
  REFRESH_TOKEN_ABSOLUTE_SECONDS,
  REFRESH_TOKEN_IDLE_SECONDS,
  REGISTRATION_TOKEN_TTL_SECONDS,
  RESET_PASSWORD_TTL_SECONDS,
  VERIFY_EMAIL_TTL_SECONDS,
  isLanguage,
  type ActionPurpose,
  type LoginResponse,
  type LoginMessage,
  type RegisterRequest,
  type TokenSet,
} from '@portal/contracts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { addSeconds, seconds, type Clock } from '../../lib/clock.ts';
import { hashSecret, isUuid, newSecret } from '../../lib/secrets.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { evaluateCompanyStatus, type CompaniesService } from '../companies/companies.service.ts';
import type { GroupsService } from '../groups/groups.service.ts';
import { renderActionMail, type MailService } from '../mail/mail.service.ts';
import type { UserRow, UsersService } from '../users/users.service.ts';
import { createAuthRepository, type AuthRepository, type OneTimePurpose } from './auth.repository.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';
import type { TokenService } from './tokens.service.ts';
import {
  ACCOUNT_LOCK_FAILURES,
  ACCOUNT_WINDOW_SECONDS,
  ADDRESS_CEILING_FAILURES,
  ADDRESS_WINDOW_SECONDS,
  KNOWN_ADDRESS_SECONDS,
  PAIR_FREE_FAILURES,
  PAIR_WINDOW_SECONDS,
  UNLOCK_TTL_SECONDS,
  pairWaitSeconds,
} from './login-limits.ts';

// Password hashing is the auth feature's; profile (change password) and the demo seed use it too.
export { hashPassword, verifyPassword } from './passwords.ts';
export type { OneTimePurpose } from './auth.repository.ts';
// A session's liveness as a subquery of the users owner's read of the caller (the authentication hook, decision 0043).
export { sessionLiveSql } from './auth.repository.ts';

/** Stores an account of the old EDI system (the demo seed's); a function of the transaction, needing no service. */
export const insertLegacyAccount = (values: Parameters<AuthRepository['insertLegacyAccount']>[0], tx: Db) =>
  createAuthRepository(tx).insertLegacyAccount(values, tx);

/**
 * Of these sessions, the ones live at `at` (for the job worker, which has no auth service; a function of the
 * database, as `insertLegacyAccount` is of a transaction).
 */
export const liveSessions = (db: Db, sessionIds: readonly string[], at: Date) =>
  createAuthRepository(db).liveFamilies(sessionIds, at);

/** A reset link mailed before the password last changed would undo that change: it no longer works. */
function isStale(link: { purpose: string; createdAt: Date }, user: { passwordChangedAt: Date | null }): boolean {
  return link.purpose === 'reset' && !!user.passwordChangedAt && link.createdAt < user.passwordChangedAt;
}

/** Thrown to roll back the stand-in writes of a registration of an existing address. */
const ROLLBACK = Symbol('rollback');

/** Minimum seconds between two e-mails of the same kind to the same user, so the endpoints cannot spam. */
const RESEND_INTERVAL_SECONDS = 60;
const REGISTRATIONS_PER_ADDRESS_PER_HOUR = 20;

export type AuthService = ReturnType<typeof createAuthService>;

/** A login session as the features that follow sessions see it. */
export type SessionInfo = { sessionId: string; userId: string; companyId: string | null; roles: readonly string[] };

/**
 * What other features do when a session starts or ends, in the transaction that starts or ends it (the demo
 * documents, decision 0027). Given by app.ts, so that auth needs none of those features.
 */
export type SessionHooks = {
  started(session: SessionInfo, tx: Db): Promise<void>;
  ended(session: Pick<SessionInfo, 'sessionId' | 'userId'>, tx: Db): Promise<void>;
  /** After the commit of a start or an end (to wake the jobs it enqueued). */
  committed?(): void;
};

export function createAuthService(deps: {
  db: Db;
  repo: AuthRepository;
  users: UsersService;
  companies: CompaniesService;
  groups: GroupsService;
  tokens: TokenService;
  mail: MailService;
  audit: AuditService;
  clock: Clock;
  publicUrl: string;
  sessions?: SessionHooks | undefined;
}) {
  const { repo, clock, audit, users, companies } = deps;

  /** A 429 with the wait in `retryAfter` and the Retry-After header (audited as a throttled login). */
  async function refuseAttempt(
    code: 'auth.too_many_attempts' | 'auth.account_locked',
    until: Date,
    login: string,
    meta: RequestMeta,
  ): Promise<never> {
    const retryAfter = Math.max(1, Math.ceil((until.getTime() - clock.now().getTime()) / 1000));
    await audit.record({
      event: 'auth.login_throttled',
      login,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { code, retryAfter },
    });
    throw new AppError(code, {
      data: { retryAfter },
      headers: { 'retry-after': String(retryAfter) },
      extra: { success: false },
    });
  }

  /**
   * Refuses an attempt the limits of login-limits.ts do not allow now, before any password is read: a locked
   * account; an address over its ceiling trying an account it never signed in to; a pair of account and address
   * still in its wait. Unknown logins are counted the same way, so none of this tells whether an account exists.
   */
  async function enforceLoginLimits(login: string, meta: RequestMeta): Promise<void> {
    const now = clock.now();
    const latest = (...dates: (Date | undefined)[]) => new Date(Math.max(...dates.map((d) => (d ? d.getTime() : 0))));

    const accountStart = addSeconds(now, -ACCOUNT_WINDOW_SECONDS);
    const unlocked = await audit.lastEventAt(
      ['auth.login_succeeded', 'auth.account_unlocked'],
      { login },
      addSeconds(now, -PAIR_WINDOW_SECONDS),
    );
    const account = await audit.recentEventTimes(
      'auth.login_failed',
      { login },
      latest(accountStart, unlocked),
      ACCOUNT_LOCK_FAILURES,
    );
    if (account.length >= ACCOUNT_LOCK_FAILURES) {
      // Locked until the oldest of the failures that lock it leaves the window (or the owner unlocks it).
      await refuseAttempt('auth.account_locked', addSeconds(account.at(-1)!, ACCOUNT_WINDOW_SECONDS), login, meta);
    }

    const address = await audit.recentEventTimes(
      'auth.login_failed',
      { ip: meta.ip },
      addSeconds(now, -ADDRESS_WINDOW_SECONDS),
      ADDRESS_CEILING_FAILURES,
    );
    if (address.length >= ADDRESS_CEILING_FAILURES) {
      const known = await audit.lastEventAt(
        ['auth.login_succeeded'],
        { login, ip: meta.ip },
        addSeconds(now, -KNOWN_ADDRESS_SECONDS),
      );
      if (!known)
        await refuseAttempt('auth.too_many_attempts', addSeconds(address.at(-1)!, ADDRESS_WINDOW_SECONDS), login, meta);
    }

    const pairSuccess = await audit.lastEventAt(
      ['auth.login_succeeded'],
      { login, ip: meta.ip },
      addSeconds(now, -PAIR_WINDOW_SECONDS),
    );
    const pair = await audit.recentEventTimes(
      'auth.login_failed',
      { login, ip: meta.ip },
      latest(addSeconds(now, -PAIR_WINDOW_SECONDS), pairSuccess, unlocked),
      PAIR_FREE_FAILURES + 8,
    );
    const wait = pairWaitSeconds(pair.length);
    if (wait > 0 && addSeconds(pair[0]!, wait) > now)
      await refuseAttempt('auth.too_many_attempts', addSeconds(pair[0]!, wait), login, meta);
  }

  /** Records a failed login; the failure that locks the account e-mails its owner an unlock link. */
  async function failLogin(login: string, meta: RequestMeta, reason: string): Promise<never> {
    await audit.record({
      event: 'auth.login_failed',
      login,
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: { reason },
    });
    const now = clock.now();
    const unlocked = await audit.lastEventAt(
      ['auth.login_succeeded', 'auth.account_unlocked'],
      { login },
      addSeconds(now, -PAIR_WINDOW_SECONDS),
    );
    const since = new Date(Math.max(addSeconds(now, -ACCOUNT_WINDOW_SECONDS).getTime(), unlocked?.getTime() ?? 0));
    const failures = await audit.recentEventTimes('auth.login_failed', { login }, since, ACCOUNT_LOCK_FAILURES + 1);
    if (failures.length === ACCOUNT_LOCK_FAILURES) await accountLocked(login, meta);
    throw new AppError('auth.invalid_credentials', { extra: { success: false } });
  }

  /** The account just locked: audit it and, when the login is a user's, e-mail the unlock link. */
  async function accountLocked(login: string, meta: RequestMeta): Promise<void> {
    const user = await users.findByEmail(login);
    await audit.record({ event: 'auth.account_locked', login, ip: meta.ip, subjectUserId: user?.id ?? null });
    if (!user || user.disabledAt) return;
    const token = newSecret();
    const now = clock.now();
    await repo.insertOneTimeToken({
      purpose: 'unlock',
      tokenHash: hashSecret(token),
      userId: user.id,
      expiresAt: addSeconds(now, UNLOCK_TTL_SECONDS),
      createdAt: now,
    });
    const link = `${deps.publicUrl}/api/users/unlock?token=${encodeURIComponent(token)}`;
    const mail = renderActionMail({ language: user.language, kind: 'unlock', name: user.firstName, link });
    await deps.mail.send({ kind: 'account_locked', to: user.email, language: user.language, userId: user.id, ...mail });
  }

  /** Starts a session (a new refresh-token family) and returns the Keycloak-shaped token set. */
  async function issueSession(user: UserRow, options: { impersonator?: UserRow } = {}): Promise<TokenSet> {
    const now = clock.now();
    const values = {
      userId: user.id,
      impersonatorId: options.impersonator?.id ?? null,
      absoluteExpiresAt: addSeconds(now, REFRESH_TOKEN_ABSOLUTE_SECONDS),
      createdAt: now,
    };
    const hooks = deps.sessions;
    // The family and its first refresh token commit together, before the hooks' jobs are woken: a job that asks
    // whether the session is live (the demo set's) must never find the family without its token, which reads as a
    // session already over (the demo set was then silently not made).
    const { family, refresh } = await deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const created = await repo.createFamily(values, tx);
      const first = await newRefreshToken(created.id, created.absoluteExpiresAt, now, tx);
      if (hooks) {
        const roles = new Set(user.roles);
        for (const role of options.impersonator?.roles ?? []) if (role !== 'admin') roles.add(role);
        await hooks.started(
          { sessionId: created.id, userId: user.id, companyId: user.companyId, roles: [...roles] },
          tx,
        );
      }
      return { family: created, refresh: first };
    });
    hooks?.committed?.();
    return signTokens(user, family.id, refresh, now, options.impersonator);
  }

  /** A new refresh token of a family: idle-limited, never past the family's absolute expiry. */
  async function newRefreshToken(
    familyId: string,
    absoluteExpiresAt: Date,
    now: Date,
    tx?: Db,
  ): Promise<{ secret: string; expiresAt: Date }> {
    const secret = newSecret();
    const expiresAt = new Date(
      Math.min(addSeconds(now, REFRESH_TOKEN_IDLE_SECONDS).getTime(), absoluteExpiresAt.getTime()),
    );
    await repo.insertRefreshToken({ familyId, tokenHash: hashSecret(secret), expiresAt, createdAt: now }, tx);
    return { secret, expiresAt };
  }

  async function mintTokens(
    user: UserRow,
    familyId: string,
    absoluteExpiresAt: Date,
    impersonator?: UserRow,
  ): Promise<TokenSet> {
    const now = clock.now();
    const refresh = await newRefreshToken(familyId, absoluteExpiresAt, now);
    return signTokens(user, familyId, refresh, now, impersonator);
  }

  /** The Keycloak-shaped token set of a session: its access token signed now, and the refresh token given. */
  async function signTokens(
    user: UserRow,
    familyId: string,
    refresh: { secret: string; expiresAt: Date },
    now: Date,
    impersonator?: UserRow,
  ): Promise<TokenSet> {
    const groupNames = await deps.groups.groupNames(user.id);
    // An impersonating admin keeps its other roles (description, section 4), never admin itself.
    const roles = new Set(user.roles);
    for (const role of impersonator?.roles ?? []) if (role !== 'admin') roles.add(role);
    const access = await deps.tokens.sign({
      sub: user.id,
      sid: familyId,
      email: user.email,
      preferred_username: user.email,
      given_name: user.firstName,
      family_name: user.lastName,
      locale: user.language,
      company_id: user.companyId,
      roles: [...roles].sort(),
      groups: groupNames,
      ...(impersonator ? { impersonator: { username: impersonator.email } } : {}),
    });
    return {
      access_token: access,
      refresh_token: refresh.secret,
      expires_in: deps.tokens.accessTtlSeconds,
      refresh_expires_in: Math.max(0, seconds(refresh.expiresAt) - seconds(now)),
      token_type: 'Bearer',
    };
  }

  /**
   * Writes a one-time link's token and the e-mail that carries it in one transaction, so the e-mail's job exists
   * exactly when its token does. `linkFor` turns the token into the link.
   */
  async function sendLink(
    user: UserRow,
    link: {
      purpose: OneTimePurpose;
      ttlSeconds: number;
      mailKind: string;
      linkFor: (token: string) => string;
      render: (link: string) => ReturnType<typeof renderActionMail>;
    },
  ): Promise<void> {
    const token = newSecret();
    const now = clock.now();
    const mail = link.render(link.linkFor(encodeURIComponent(token)));
    await deps.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const expiresAt = addSeconds(now, link.ttlSeconds);
      await repo.insertOneTimeToken(
        { purpose: link.purpose, tokenHash: hashSecret(token), userId: user.id, expiresAt, createdAt: now },
        tx,
      );
      await deps.mail.send(
        { kind: link.mailKind, to: user.email, language: user.language, userId: user.id, ...mail },
        { tx },
      );
    });
  }

  const sendVerification = (user: UserRow) =>
    sendLink(user, {
      purpose: 'verify_email',
      ttlSeconds: VERIFY_EMAIL_TTL_SECONDS,
      mailKind: 'verify_email',
      linkFor: (token) => `${deps.publicUrl}/api/users/verifyEmail?token=${token}`,
      render: (link) => renderActionMail({ language: user.language, kind: 'verify', name: user.firstName, link }),
    });

  const sendResetLink = (user: UserRow) =>
    sendLink(user, {
      purpose: 'reset',
      ttlSeconds: RESET_PASSWORD_TTL_SECONDS,
      mailKind: 'reset_password',
      linkFor: (token) => `${deps.publicUrl}/set-password?token=${token}`,
      render: (link) => renderActionMail({ language: user.language, kind: 'reset', name: user.firstName, link }),
    });

  /** An invitation link (`/set-password?token=`) with which an invited user sets a password; valid 7 days. */
  const sendInvitation = (user: UserRow, options: { inviterName: string; companyName: string }) =>
    sendLink(user, {
      purpose: 'invite',
      ttlSeconds: INVITATION_TTL_SECONDS,
      mailKind: 'invitation',
      linkFor: (token) => `${deps.publicUrl}/set-password?token=${token}`,
      render: (link) =>
        renderActionMail({
          language: user.language,
          kind: 'invite',
          name: user.firstName,
          link,
          params: { inviter: options.inviterName, company: options.companyName },
        }),
    });

  /**
   * Seconds to wait before another verification e-mail may be asked for under this id; 0 when it may. Registering
   * asks for the first one. Counted per id whether or not a user has it (a repeated registration answers with a random
   * id), so the answer does not tell an existing e-mail from a new one (decision 0005).
   */
  async function verificationWait(id: string): Promise<number> {
    const now = clock.now();
    const since = addSeconds(now, -RESEND_INTERVAL_SECONDS);
    const last = await audit.lastEventAt(['auth.verification_requested'], { login: id }, since);
    if (!last) return 0;
    return Math.max(1, Math.ceil(RESEND_INTERVAL_SECONDS - (now.getTime() - last.getTime()) / 1000));
  }
  const verificationRequested = (id: string, meta: RequestMeta) =>
    audit.record({ event: 'auth.verification_requested', login: id.toLowerCase(), ip: meta.ip });

  /**
   * The rows of a new account, in the caller's transaction: a company of its own with an Administrators group (or
   * the legacy account's company and group), the user, the membership, and the move of the legacy account.
   */
  async function createAccount(
    tx: Db,
    input: RegisterRequest,
    passwordHash: string,
    legacy: Awaited<ReturnType<AuthRepository['findLegacyAccountById']>>,
    email = input.email,
  ): Promise<UserRow> {
    const now = clock.now();
    const language = input.locale && isLanguage(input.locale) ? input.locale : 'en';
    let companyId = legacy?.companyId ?? null;
    let groupId = legacy?.groupId ?? null;
    if (!companyId) {
      // A self-registered user starts a company of their own and administers it (name editable in the profile).
      const created = await companies.createCompany(
        { name: `${input.firstName} ${input.lastName}`.trim(), createdAt: now, updatedAt: now },
        { tx },
      );
      companyId = created.company.id;
      groupId = created.administratorsGroupId;
    }
    const created = await users.insert(
      {
        companyId,
        email: email.trim(),
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        language,
        passwordChangedAt: now,
        createdAt: now,
        updatedAt: now,
      },
      tx,
    );
    if (groupId) await deps.groups.addMember(created.id, [groupId], tx);
    if (legacy) {
      // Each legacy login mints a token: only the first registration may move the account.
      if (!(await repo.moveLegacyAccount(legacy.id, created.id, now, tx))) {
        throw new AppError('validation.failed', {
          details: [{ field: 'registrationToken', code: 'registrationInvalid' }],
        });
      }
    }
    return created;
  }

  async function recentlySent(userId: string, purpose: 'verify_email' | 'reset'): Promise<boolean> {
    const last = await repo.lastOneTimeTokenAt(userId, purpose);
    return !!last && clock.now().getTime() - last.getTime() < RESEND_INTERVAL_SECONDS * 1000;
  }

  return {
    issueSession,
    /** For admins: e-mail a reset link to a user (no resend interval, unlike the public endpoint). */
    sendResetLink,
    sendInvitation,

    // Sessions and one-time links, for the features that end sessions or mail links themselves.

    /**
     * A new one-time link token of the user in the caller's transaction; the user's earlier open links of the same
     * purpose stop working. The caller mails it.
     */
    async newLinkToken(userId: string, purpose: OneTimePurpose, ttlSeconds: number, tx: Db): Promise<string> {
      const now = clock.now();
      const token = newSecret();
      await repo.spendOpenLinks(userId, [purpose], now, tx);
      await repo.insertOneTimeToken(
        { purpose, tokenHash: hashSecret(token), userId, expiresAt: addSeconds(now, ttlSeconds), createdAt: now },
        tx,
      );
      return token;
    },
    /** When the user's newest link of the purpose was made. */
    lastLinkAt: (userId: string, purpose: OneTimePurpose) => repo.lastOneTimeTokenAt(userId, purpose),
    /** Spends every open link of the user for these purposes. */
    spendOpenLinks: repo.spendOpenLinks,
    /** Every session of the user, and every impersonation the user started as an admin. */
    revokeAllSessions: repo.revokeAllFamilies,
    /** Every open session of the user but the one given. */
    revokeOtherSessions: repo.revokeOtherFamilies,
    /** The session a refresh token belongs to, rotated or not. */
    findSessionOfRefreshToken: (refreshToken: string) => repo.findFamilyOfToken(hashSecret(refreshToken)),
    /** Revokes one session; 1 when this call revoked it. */
    revokeSession: repo.revokeFamily,
    /** Every open session an impersonator holds as the user; how many there were. */
    revokeImpersonations: repo.revokeImpersonations,
    /** Of these sessions, the ones still live now (not revoked, not expired, not idle past their refresh token). */
    liveSessions: (sessionIds: readonly string[]) => repo.liveFamilies(sessionIds, clock.now()),

    async login(input: { login: string; password: string }, meta: RequestMeta): Promise<LoginResponse> {
      const login = input.login.trim();
      await enforceLoginLimits(login, meta);
      const user = await users.findByEmail(login);
      if (!user?.passwordHash) {
        await burnPasswordCheck(input.password);
        return failLogin(login, meta, user ? 'no_password' : 'unknown');
      }
      if (!(await verifyPassword(user.passwordHash, input.password))) return failLogin(login, meta, 'password');

      // From here the caller has proven the password, so telling the account's state reveals nothing new.
      const refused = (reason: string) =>
        audit.record({ event: 'auth.login_refused', subjectUserId: user.id, login, ip: meta.ip, details: { reason } });
      if (user.disabledAt) {
        await refused('disabled');
        throw new AppError('auth.account_disabled', { extra: { success: false } });
      }
      if (!user.emailVerifiedAt) {
        await refused('unverified');
        throw new AppError('auth.email_not_verified', { data: { id: user.id }, extra: { success: false } });
      }
      const company = user.companyId ? await companies.find(user.companyId) : undefined;
      const verdict = evaluateCompanyStatus(company, clock.now());
      if (!verdict.allowed) {
        await audit.record({
          event: 'auth.login_refused',
          subjectUserId: user.id,
          companyId: user.companyId,
          login,
          ip: meta.ip,
          details: { reason: verdict.code },
        });
        throw new AppError(verdict.code, { extra: { success: false, vindicationInfoResponse: verdict.response } });
      }
      if (verdict.startWindowAt && company) await companies.startWorkingWindow(company.id, verdict.startWindowAt);
      const token = await issueSession(user);
      await audit.record({
        event: 'auth.login_succeeded',
        subjectUserId: user.id,
        actorUserId: user.id,
        companyId: user.companyId,
        login,
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
      return { success: true, keycloakResponse: { token }, vindicationInfoResponse: verdict.response };
    },

    /** The old EDI system's accounts: valid credentials of an account not yet moved yield a registration token. */
    async legacyLogin(input: { login: string; password: string }, meta: RequestMeta): Promise<LoginResponse> {
      const login = input.login.trim();
      await enforceLoginLimits(login, meta);
      const account = await repo.findLegacyAccount(login);
      if (!account) {
        await burnPasswordCheck(input.password);
        return failLogin(login, meta, 'legacy_unknown');
      }
      if (!(await verifyPassword(account.passwordHash, input.password)))
        return failLogin(login, meta, 'legacy_password');
      if (account.migratedAt) throw new AppError('auth.legacy_already_migrated', { extra: { success: false } });
      const token = newSecret();
      const now = clock.now();
      await repo.insertOneTimeToken({
        purpose: 'registration',
        tokenHash: hashSecret(token),
        legacyAccountId: account.id,
        expiresAt: addSeconds(now, REGISTRATION_TOKEN_TTL_SECONDS),
        createdAt: now,
      });
      await audit.record({
        event: 'auth.legacy_login',
        login,
        ip: meta.ip,
        userAgent: meta.userAgent,
        companyId: account.companyId,
      });
      return { success: false, registrationToken: token };
    },

    async refresh(refreshToken: string): Promise<TokenSet> {
      const now = clock.now();
      const found = await repo.findRefreshToken(hashSecret(refreshToken));
      if (!found) throw new AppError('auth.token_invalid');
      const { token, family } = found;
      if (token.usedAt) {
        // A rotated token came back: whoever holds the family may be an attacker, so end the whole session.
        await repo.revokeFamily(family.id, 'reuse', now);
        await audit.record({
          event: 'auth.refresh_reuse',
          subjectUserId: family.userId,
          details: { familyId: family.id },
        });
        throw new AppError('auth.token_invalid');
      }
      if (family.revokedAt || token.expiresAt <= now || family.absoluteExpiresAt <= now) {
        throw new AppError('auth.token_invalid');
      }
      const user = await users.findById(family.userId);
      if (!user || user.disabledAt) throw new AppError('auth.token_invalid');
      const company = user.companyId ? await companies.find(user.companyId) : undefined;
      const verdict = evaluateCompanyStatus(company, now);
      if (!verdict.allowed) {
        await repo.revokeFamily(family.id, verdict.code, now);
        // Its 403 does not reach the client: the refresh route answers every failure with a 401.
        throw new AppError(verdict.code);
      }
      // A limited company's window starts at whichever comes first after a pause, a login or a refresh; else a
      // session that sat out the pause would work on without ever being limited again.
      if (verdict.startWindowAt && company) await companies.startWorkingWindow(company.id, verdict.startWindowAt);
      if (!(await repo.markRefreshTokenUsed(token.id, now))) {
        await repo.revokeFamily(family.id, 'reuse', now);
        await audit.record({
          event: 'auth.refresh_reuse',
          subjectUserId: family.userId,
          details: { familyId: family.id, race: true },
        });
        throw new AppError('auth.token_invalid');
      }
      const impersonator = family.impersonatorId ? await users.findById(family.impersonatorId) : undefined;
      if (
        family.impersonatorId &&
        (!impersonator || impersonator.disabledAt || !impersonator.roles.includes('admin'))
      ) {
        // The admin who started this impersonation was disabled (or is no admin any more): it ends with them.
        await repo.revokeFamily(family.id, 'impersonator_disabled', now);
        throw new AppError('auth.token_invalid');
      }
      return mintTokens(user, family.id, family.absoluteExpiresAt, impersonator);
    },

    async logout(refreshToken: string | undefined, meta: RequestMeta): Promise<void> {
      if (!refreshToken) return;
      const found = await repo.findRefreshToken(hashSecret(refreshToken));
      if (!found) return;
      const hooks = deps.sessions;
      if (hooks) {
        await deps.db.transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          await repo.revokeFamily(found.family.id, 'logout', clock.now(), tx);
          await hooks.ended({ sessionId: found.family.id, userId: found.family.userId }, tx);
        });
        hooks.committed?.();
      } else {
        await repo.revokeFamily(found.family.id, 'logout', clock.now());
      }
      await audit.record({
        event: 'auth.logout',
        subjectUserId: found.family.userId,
        actorUserId: found.family.userId,
        ip: meta.ip,
      });
    },

    /**
     * Creates an unverified user and e-mails the verification link. An e-mail that already has an account gets the
     * same answer (a fresh random id) and a message saying so, so the form cannot be used to find accounts.
     */
    async register(input: RegisterRequest, meta: RequestMeta): Promise<{ id: string }> {
      const now = clock.now();
      const recent = await audit.countEvents('auth.registered', { ip: meta.ip }, addSeconds(now, -3600));
      if (recent.count >= REGISTRATIONS_PER_ADDRESS_PER_HOUR) {
        throw new AppError('auth.too_many_registrations', {
          data: { retryAfter: 3600 },
          headers: { 'retry-after': '3600' },
        });
      }
      let legacy: Awaited<ReturnType<AuthRepository['findLegacyAccountById']>>;
      let registrationTokenId: string | undefined;
      if (input.registrationToken) {
        const row = await repo.findOneTimeToken(hashSecret(input.registrationToken), ['registration']);
        if (!row || row.usedAt || row.expiresAt <= now || !row.legacyAccountId) {
          throw new AppError('validation.failed', {
            details: [
              {
                field: 'registrationToken',
                code: row && row.expiresAt <= now ? 'registrationExpired' : 'registrationInvalid',
              },
            ],
          });
        }
        legacy = await repo.findLegacyAccountById(row.legacyAccountId);
        registrationTokenId = row.id;
      }
      // Hashed before the lookup, whatever it finds: an existing e-mail then costs the same argon2 work as a new
      // one and the answer time does not tell them apart (decision 0005). Both paths also send one e-mail.
      const passwordHash = await hashPassword(input.password);
      const existing = await users.findByEmail(input.email);
      if (existing) {
        // The same writes as a new account (and its verification link), rolled back, so that the answer time does not
        // tell an existing address from a new one either.
        await deps.db
          .transaction(async (txRaw) => {
            const tx = txRaw as unknown as Db;
            const dummy = await createAccount(tx, input, passwordHash, undefined, `${randomUUID()}@rollback.invalid`);
            await repo.insertOneTimeToken(
              {
                purpose: 'verify_email',
                tokenHash: hashSecret(newSecret()),
                userId: dummy.id,
                expiresAt: addSeconds(now, VERIFY_EMAIL_TTL_SECONDS),
                createdAt: now,
              },
              tx,
            );
            throw ROLLBACK;
          })
          .catch((error: unknown) => {
            if (error !== ROLLBACK) throw error;
          });
        const link = `${deps.publicUrl}/password-reset`;
        const mail = renderActionMail({
          language: existing.language,
          kind: 'alreadyRegistered',
          name: existing.firstName,
          link,
        });
        await deps.mail.send({
          kind: 'already_registered',
          to: existing.email,
          language: existing.language,
          userId: existing.id,
          ...mail,
        });
        await audit.record({ event: 'auth.registered', login: input.email, ip: meta.ip, details: { duplicate: true } });
        const id = randomUUID();
        await verificationRequested(id, meta);
        return { id };
      }
      const user = await deps.db
        .transaction(async (txRaw) => {
          const tx = txRaw as unknown as Db;
          if (registrationTokenId && !(await repo.consumeOneTimeToken(registrationTokenId, now, tx))) {
            throw new AppError('validation.failed', {
              details: [{ field: 'registrationToken', code: 'registrationInvalid' }],
            });
          }
          return createAccount(tx, input, passwordHash, legacy);
        })
        .catch((error: unknown) => {
          // The same e-mail registered a moment ago (a double-submitted form) trips the unique index: answer as for
          // any already registered e-mail rather than with a 500.
          const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
          if (e?.code === '23505' || e?.cause?.code === '23505') return undefined;
          throw error;
        });
      if (!user) {
        const id = randomUUID();
        await verificationRequested(id, meta);
        return { id };
      }
      await sendVerification(user);
      await verificationRequested(user.id, meta);
      await audit.record({
        event: 'auth.registered',
        subjectUserId: user.id,
        companyId: user.companyId,
        login: user.email,
        ip: meta.ip,
        details: legacy ? { legacyLogin: legacy.login } : {},
      });
      return { id: user.id };
    },

    /** Sends the verification e-mail again; too soon after the last one, 429 says how many seconds to wait. */
    async resendVerification(id: string, meta: RequestMeta): Promise<void> {
      if (!isUuid(id)) return;
      const wait = await verificationWait(id);
      if (wait > 0) {
        throw new AppError('auth.verification_resend_too_soon', {
          data: { retryAfter: wait },
          headers: { 'retry-after': String(wait) },
        });
      }
      await verificationRequested(id, meta);
      const user = await users.findById(id);
      if (!user || user.emailVerifiedAt || user.disabledAt) return;
      if (await recentlySent(user.id, 'verify_email')) return;
      await sendVerification(user);
    },

    /** Spends an e-mailed verification link; the result names the message the login page shows. */
    async verifyEmail(token: string): Promise<{ type: 'success' | 'error'; text: LoginMessage }> {
      const now = clock.now();
      const row = await repo.findOneTimeToken(hashSecret(token), ['verify_email']);
      if (!row?.userId) return { type: 'error', text: 'actionError' };
      const user = await users.findById(row.userId);
      if (user?.emailVerifiedAt && row.usedAt) return { type: 'success', text: 'emailVerified' };
      if (row.expiresAt <= now) return { type: 'error', text: 'actionExpired' };
      if (!(await repo.consumeOneTimeToken(row.id, now))) return { type: 'error', text: 'actionError' };
      await users.update(row.userId, { emailVerifiedAt: now, updatedAt: now });
      await audit.record({ event: 'auth.email_verified', subjectUserId: row.userId, actorUserId: row.userId });
      return { type: 'success', text: 'emailVerified' };
    },

    /** Spends an e-mailed unlock link: the account's failures so far no longer count, from any address. */
    async unlock(token: string, meta: RequestMeta): Promise<{ type: 'success' | 'error'; text: LoginMessage }> {
      const now = clock.now();
      const row = await repo.findOneTimeToken(hashSecret(token), ['unlock']);
      if (!row?.userId || row.usedAt) return { type: 'error', text: 'actionError' };
      if (row.expiresAt <= now) return { type: 'error', text: 'actionExpired' };
      const user = await users.findById(row.userId);
      if (!user || !(await repo.consumeOneTimeToken(row.id, now))) return { type: 'error', text: 'actionError' };
      await audit.record({
        event: 'auth.account_unlocked',
        subjectUserId: user.id,
        actorUserId: user.id,
        login: user.email,
        ip: meta.ip,
        userAgent: meta.userAgent,
      });
      return { type: 'success', text: 'accountUnlocked' };
    },

    async requestPasswordReset(email: string, meta: RequestMeta): Promise<void> {
      const user = await users.findByEmail(email);
      await audit.record({
        event: 'auth.password_reset_requested',
        login: email,
        ip: meta.ip,
        subjectUserId: user?.id ?? null,
      });
      if (!user || user.disabledAt) return;
      if (await recentlySent(user.id, 'reset')) return;
      await sendResetLink(user);
    },

    async checkActionToken(
      token: string,
    ): Promise<{ valid: boolean; reason?: string; purpose?: ActionPurpose; email?: string }> {
      const row = await repo.findOneTimeToken(hashSecret(token), ['reset', 'invite']);
      if (!row?.userId || row.usedAt) return { valid: false, reason: 'auth.link_invalid' };
      if (row.expiresAt <= clock.now()) return { valid: false, reason: 'auth.link_expired' };
      const user = await users.findById(row.userId);
      if (!user || user.disabledAt || isStale(row, user)) return { valid: false, reason: 'auth.link_invalid' };
      return { valid: true, purpose: row.purpose as ActionPurpose, email: user.email };
    },

    /** Sets a password from a reset or invitation link; ends every session of the user. */
    async setPassword(token: string, password: string, meta: RequestMeta): Promise<{ purpose: ActionPurpose }> {
      const now = clock.now();
      const row = await repo.findOneTimeToken(hashSecret(token), ['reset', 'invite']);
      if (!row?.userId || row.usedAt) throw new AppError('auth.link_invalid');
      if (row.expiresAt <= now) throw new AppError('auth.link_expired');
      const passwordHash = await hashPassword(password);
      const userId = row.userId;
      await deps.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        if (!(await repo.consumeOneTimeToken(row.id, now, tx))) throw new AppError('auth.link_invalid');
        const user = await users.findById(userId, tx);
        // As checkActionToken says: a user disabled since the link was sent, or whose password changed since,
        // cannot use it.
        if (!user || user.disabledAt || isStale(row, user)) throw new AppError('auth.link_invalid');
        // Following an e-mailed link proves the address, so it counts as verified.
        await users.update(
          userId,
          { passwordHash, passwordChangedAt: now, emailVerifiedAt: user?.emailVerifiedAt ?? now, updatedAt: now },
          tx,
        );
        await repo.revokeAllFamilies(userId, 'password_reset', now, tx);
        await repo.spendOpenLinks(userId, ['reset', 'invite'], now, tx);
      });
      await audit.record({
        event: 'auth.password_reset',
        subjectUserId: userId,
        actorUserId: userId,
        ip: meta.ip,
        details: { purpose: row.purpose },
      });
      return { purpose: row.purpose as ActionPurpose };
    },
  };
}
