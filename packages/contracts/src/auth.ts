import { z } from 'zod';
import { LANGUAGES } from './constants.ts';
import { EmailSchema, NameSchema, PasswordSchema, text } from './rules.ts';

/** Request and response shapes of the account endpoints (description, sections 3 and 7). */

export const LOGIN_STATUSES = ['OK', 'SYS_DISABLE', 'OK_LIMITED', 'BLOCKED', 'ERROR', 'NOTSET'] as const;
export type LoginStatus = (typeof LOGIN_STATUSES)[number];
export const LoginStatusSchema = z.enum(LOGIN_STATUSES);

export const VindicationInfoSchema = z.object({
  loginStatus: LoginStatusSchema,
  /** Minutes a limited company must wait between working windows. */
  restrictionWaitTime: z.number().int().nullable(),
  /** Minutes a limited company may work in one window. */
  restrictionWorkingTime: z.number().int().nullable(),
  /** ISO timestamp at which the current working window started. */
  restrictionWorkingStart: z.string().nullable(),
  restrictionMessage: z.string().nullable(),
});
export type VindicationInfo = z.infer<typeof VindicationInfoSchema>;

export const VindicationInfoResponseSchema = z.object({
  /** Seconds until a limited session is logged out; 0 when unlimited. */
  hoursDelayLogout: z.number().int().nonnegative(),
  vindicationInfo: VindicationInfoSchema,
});
export type VindicationInfoResponse = z.infer<typeof VindicationInfoResponseSchema>;

export const TokenSetSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  refresh_expires_in: z.number().int(),
  token_type: z.literal('Bearer'),
});
export type TokenSet = z.infer<typeof TokenSetSchema>;

export const LoginRequestSchema = z.object({
  /** An e-mail for new accounts, a login name for accounts of the old EDI system. */
  login: text({ error: 'required' }).trim().min(1, 'required').max(254, 'tooLong'),
  password: text({ error: 'required' }).min(1, 'required').max(1024, 'tooLong'),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

const ErrorPartSchema = z.object({
  code: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const LoginResponseSchema = z.object({
  success: z.boolean(),
  keycloakResponse: z.object({ token: TokenSetSchema }).optional(),
  registrationToken: z.string().optional(),
  vindicationInfoResponse: VindicationInfoResponseSchema.optional(),
  error: ErrorPartSchema.optional(),
  requestId: z.string().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RefreshRequestSchema = z.object({
  refreshToken: text().min(1, 'required').max(512, 'tooLong'),
});
export const RefreshResponseSchema = z.object({
  success: z.boolean(),
  error: z.string().optional(),
  token: TokenSetSchema.optional(),
});
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

export const LogoutRequestSchema = z.object({ refreshToken: text().max(512, 'tooLong').optional() });

export const LanguageSchema = z.enum(LANGUAGES, { error: 'language' });

export const RegisterRequestSchema = z.object({
  firstName: NameSchema,
  lastName: NameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  locale: LanguageSchema.optional(),
  registrationToken: text().max(512, 'tooLong').optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;
export const RegisterResponseSchema = z.object({ success: z.boolean(), id: z.string() });
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

export const SendVerifyEmailRequestSchema = z.object({ id: text().min(1, 'required').max(64, 'tooLong') });
export const SendResetPasswordEmailRequestSchema = z.object({ email: EmailSchema });
export const SuccessResponseSchema = z.object({ success: z.boolean() });

/** What a one-time link (`/set-password?token=…`) is for. */
export const ACTION_PURPOSES = ['reset', 'invite'] as const;
export type ActionPurpose = (typeof ACTION_PURPOSES)[number];

export const CheckActionTokenRequestSchema = z.object({ token: text().min(1, 'required').max(512, 'tooLong') });
export const CheckActionTokenResponseSchema = z.object({
  valid: z.boolean(),
  /** `auth.link_expired` or `auth.link_invalid` when not valid. */
  reason: z.string().optional(),
  purpose: z.enum(ACTION_PURPOSES).optional(),
  email: z.string().optional(),
});
export const SetPasswordRequestSchema = z.object({
  token: text().min(1, 'required').max(512, 'tooLong'),
  password: PasswordSchema,
});
/** What the spent link was for, so the page says "password changed" or "invitation accepted". */
export const SetPasswordResponseSchema = SuccessResponseSchema.extend({ purpose: z.enum(ACTION_PURPOSES) });
export type SetPasswordResponse = z.infer<typeof SetPasswordResponseSchema>;

/** Claims of the access token (JWT) that the web app reads. */
export const AccessTokenClaimsSchema = z.object({
  sub: z.string(),
  exp: z.number(),
  iat: z.number().optional(),
  email: z.string(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  preferred_username: z.string().optional(),
  locale: z.string().optional(),
  company_id: z.string().nullable().optional(),
  roles: z.array(z.string()),
  groups: z.array(z.string()),
  impersonator: z.object({ username: z.string() }).optional(),
  /** The session (refresh-token family) the token belongs to; a revoked session's tokens stop working at once. */
  sid: z.string().optional(),
});
export type AccessTokenClaims = z.infer<typeof AccessTokenClaimsSchema>;

/** `msgText` values the login page understands (query `msgType`/`msgText`); anything else is ignored. */
export const LOGIN_MESSAGES = [
  'emailVerified',
  'passwordChanged',
  'actionExpired',
  'actionError',
  'sessionExpired',
  'invitationAccepted',
  'accountUnlocked',
] as const;
export type LoginMessage = (typeof LOGIN_MESSAGES)[number];
