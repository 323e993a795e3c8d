import {
  DEFAULT_USER_SETTINGS,
  FILE_ENCODINGS,
  FILE_NAMING_FORMATS,
  PASSWORD_CHANGE_FAILURE_WINDOW_SECONDS,
  PASSWORD_CHANGE_FAILURES_PER_USER,
  TAX_SYSTEMS,
  TAXPAYER_KINDS,
  TAXPAYER_TYPES,
  VAT_ALGORITHMS,
  looksLikeIban,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
  type CompanyLocation,
  type CompanyLocationPage,
  type CompanyLocationValues,
  type CompanyLocationsQuery,
  type CompanyProfile,
  type CompanyProfileUpdate,
  type UpdateUserDataRequest,
  type UserSettings,
} from '@portal/contracts';
import { AppError, forbidden, notFound } from '../../lib/app-error.ts';
import { addSeconds, type Clock } from '../../lib/clock.ts';
import type { RequestMeta } from '../../lib/request-meta.ts';
import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/audit.service.ts';
import { hashPassword, verifyPassword, type AuthService } from '../auth/auth.service.ts';
import type { CompaniesService, CompanyRow } from '../companies/companies.service.ts';
import type { UsersService } from '../users/users.service.ts';

/** Audit event of a wrong current password; the brute-force limit counts these. */
const PASSWORD_CHANGE_FAILED_EVENT = 'auth.password_change_failed';

/** Who is asking, as far as the rules of this feature care. */
export type ProfileCaller = {
  userId: string;
  email: string;
  companyId: string | null;
  roles: readonly string[];
  impersonator?: { username: string } | undefined;
  sessionId?: string | undefined;
};

export type ProfileService = ReturnType<typeof createProfileService>;

/** Company profile fields kept in the company's `profile` document rather than in columns of their own. */
const PROFILE_KEYS = [
  'street',
  'postalCode',
  'city',
  'bankAccount',
  'electronicAddress',
  'electronicAddressScheme',
  'signerPost',
  'signerName',
  'signerCode',
  'companyPrefix',
  'legalForm',
  'taxSystem',
  'taxpayerKind',
  'taxpayerType',
] as const;

function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T;
function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: null): T | null;
function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T | null): T | null {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

const blankToNull = (value: string | null | undefined): string | null => (value ? value : null);

/** Stored settings are validated field by field, so a stale or hand-edited value falls back to its default. */
export function readUserSettings(stored: Record<string, string>): UserSettings {
  return {
    fileEncoding: oneOf(FILE_ENCODINGS, stored.fileEncoding, DEFAULT_USER_SETTINGS.fileEncoding),
    vatAlgorithm: oneOf(VAT_ALGORITHMS, stored.vatAlgorithm, DEFAULT_USER_SETTINGS.vatAlgorithm),
    fileNamingFormat: oneOf(FILE_NAMING_FORMATS, stored.fileNamingFormat, DEFAULT_USER_SETTINGS.fileNamingFormat),
  };
}

function toCompanyProfile(row: CompanyRow): CompanyProfile {
  const p = row.profile;
  const str = (key: (typeof PROFILE_KEYS)[number]) => (typeof p[key] === 'string' && p[key] ? p[key] : null);
  return {
    id: row.id,
    name: row.name,
    vatId: row.vatId,
    taxId: row.taxId,
    street: str('street'),
    postalCode: str('postalCode'),
    city: str('city'),
    country: row.country,
    bankAccount: str('bankAccount'),
    electronicAddress: str('electronicAddress'),
    electronicAddressScheme: str('electronicAddressScheme'),
    signerPost: str('signerPost'),
    signerName: str('signerName'),
    signerCode: str('signerCode'),
    companyPrefix: str('companyPrefix'),
    legalForm: str('legalForm'),
    taxSystem: oneOf(TAX_SYSTEMS, p.taxSystem, null),
    taxpayerKind: oneOf(TAXPAYER_KINDS, p.taxpayerKind, null),
    taxpayerType: oneOf(TAXPAYER_TYPES, p.taxpayerType, null),
  };
}

/** The body of a failed password change keeps the description's `{ success, message }` beside the error. */
const failure = (message: 'CURRENT_PASSWORD_INCORRECT' | 'GENERAL_ERROR') => ({ success: false, message });

export function createProfileService(deps: {
  db: Db;
  users: UsersService;
  companies: CompaniesService;
  auth: AuthService;
  audit: AuditService;
  clock: Clock;
}) {
  const { users, companies, audit, clock } = deps;

  /** Every company operation works on the caller's own company only; no company (admins) is a 404. */
  async function ownCompany(caller: ProfileCaller): Promise<CompanyRow> {
    if (!caller.companyId) throw notFound();
    const company = await companies.find(caller.companyId);
    if (!company) throw notFound();
    return company;
  }

  return {
    async updateUserData(caller: ProfileCaller, input: UpdateUserDataRequest): Promise<void> {
      const values: Parameters<UsersService['update']>[1] = {
        firstName: input.firstName,
        lastName: input.lastName,
        updatedAt: clock.now(),
      };
      // Absent leaves the number alone; null or empty clears it.
      if (input.telephone !== undefined) values.telephone = blankToNull(input.telephone);
      await users.update(caller.userId, values);
    },

    async getSettings(caller: ProfileCaller): Promise<UserSettings> {
      const user = await users.findById(caller.userId);
      if (!user) throw notFound();
      return readUserSettings(user.settings);
    },

    async setSettings(caller: ProfileCaller, settings: UserSettings): Promise<UserSettings> {
      await users.update(caller.userId, { settings: { ...settings }, updatedAt: clock.now() });
      return settings;
    },

    /**
     * Changes the caller's password after checking the current one. Ends every other session of the user; the
     * caller's own session (named by its refresh token, else the access token's session id) survives.
     */
    async changePassword(
      caller: ProfileCaller,
      input: ChangePasswordRequest,
      meta: RequestMeta,
    ): Promise<ChangePasswordResponse> {
      // An admin working as someone must not take over their account; the demo accounts are shared by everyone.
      if (caller.impersonator || caller.roles.includes('demo')) throw forbidden();
      const now = clock.now();
      const user = await users.findById(caller.userId);
      if (!user) throw notFound();

      const windowStart = addSeconds(now, -PASSWORD_CHANGE_FAILURE_WINDOW_SECONDS);
      // Failures before the last change no longer count (a change in the future, from a skewed clock, is ignored).
      const changedAt = user.passwordChangedAt;
      const since = changedAt && changedAt > windowStart && changedAt <= now ? changedAt : windowStart;
      const failures = await audit.countEvents(
        PASSWORD_CHANGE_FAILED_EVENT,
        { login: user.email, subjectUserId: user.id },
        since,
      );
      if (failures.count >= PASSWORD_CHANGE_FAILURES_PER_USER) {
        const oldest = failures.oldest ?? now;
        const retryAfter = Math.max(
          1,
          PASSWORD_CHANGE_FAILURE_WINDOW_SECONDS - Math.floor((now.getTime() - oldest.getTime()) / 1000),
        );
        throw new AppError('auth.too_many_password_attempts', {
          data: { retryAfter },
          headers: { 'retry-after': String(retryAfter) },
          extra: failure('GENERAL_ERROR'),
        });
      }

      if (input.newPassword === input.currentPassword) {
        throw new AppError('auth.password_same_as_current', {
          details: [{ field: 'newPassword', code: 'passwordSameAsCurrent' }],
          extra: failure('GENERAL_ERROR'),
        });
      }
      if (!user.passwordHash) {
        // An invited user who never set a password has no current password to prove.
        throw new AppError('auth.password_change_failed', { extra: failure('GENERAL_ERROR') });
      }
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        await audit.record({
          event: PASSWORD_CHANGE_FAILED_EVENT,
          actorUserId: user.id,
          subjectUserId: user.id,
          companyId: user.companyId,
          login: user.email,
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
        throw new AppError('auth.current_password_incorrect', {
          details: [{ field: 'currentPassword', code: 'currentPasswordIncorrect' }],
          extra: failure('CURRENT_PASSWORD_INCORRECT'),
        });
      }

      let keepFamilyId: string | undefined = caller.sessionId;
      if (input.refreshToken) {
        const family = await deps.auth.findSessionOfRefreshToken(input.refreshToken);
        if (family && family.userId === user.id && !family.revokedAt) keepFamilyId = family.id;
      }
      const passwordHash = await hashPassword(input.newPassword);
      // The new hash and the end of every other session, atomically.
      await deps.db.transaction(async (txRaw) => {
        const tx = txRaw as unknown as Db;
        await users.update(user.id, { passwordHash, passwordChangedAt: now, updatedAt: now }, tx);
        await deps.auth.revokeOtherSessions(user.id, keepFamilyId, 'password_changed', now, tx);
        // A reset link mailed before the change must not undo it (someone who read the mailbox then, or the owner's
        // own stale link): every open reset link of the user is spent.
        await deps.auth.spendOpenLinks(user.id, ['reset'], now, tx);
      });
      await audit.record({
        event: 'auth.password_changed',
        actorUserId: user.id,
        subjectUserId: user.id,
        companyId: user.companyId,
        login: user.email,
        ip: meta.ip,
        userAgent: meta.userAgent,
        details: { keptCurrentSession: !!keepFamilyId },
      });
      return { success: true, message: 'Operation successful' };
    },

    async getCompanyProfile(caller: ProfileCaller): Promise<CompanyProfile> {
      return toCompanyProfile(await ownCompany(caller));
    },

    async updateCompanyProfile(caller: ProfileCaller, input: CompanyProfileUpdate): Promise<CompanyProfile> {
      const company = await ownCompany(caller);
      const profile: Record<string, string | null> = { ...company.profile };
      for (const key of PROFILE_KEYS) profile[key] = blankToNull(input[key]);
      // An IBAN is kept in its electronic form (no spaces, upper case); other account numbers as typed.
      if (profile.bankAccount && looksLikeIban(profile.bankAccount)) {
        profile.bankAccount = profile.bankAccount.replace(/\s+/g, '').toUpperCase();
      }
      const updated = await companies.update(company.id, {
        name: input.name,
        vatId: blankToNull(input.vatId),
        taxId: blankToNull(input.taxId),
        country: blankToNull(input.country),
        profile,
        updatedAt: clock.now(),
      });
      if (!updated) throw notFound();
      return toCompanyProfile(updated);
    },

    // GLNs and delivery points of the caller's own company (the companies feature holds the rules).

    async listLocations(caller: ProfileCaller, query: CompanyLocationsQuery): Promise<CompanyLocationPage> {
      const { id } = await ownCompany(caller);
      return companies.locations.list({ companyId: id }, query);
    },

    async addLocation(caller: ProfileCaller, input: CompanyLocationValues): Promise<CompanyLocation> {
      const { id } = await ownCompany(caller);
      return companies.locations.create({ companyId: id }, input, clock.now());
    },

    async updateLocation(caller: ProfileCaller, gln: string, input: CompanyLocationValues): Promise<CompanyLocation> {
      const { id } = await ownCompany(caller);
      return companies.locations.update({ companyId: id }, gln, input);
    },

    async removeLocation(caller: ProfileCaller, gln: string): Promise<void> {
      const { id } = await ownCompany(caller);
      await companies.locations.remove({ companyId: id }, gln);
    },
  };
}
