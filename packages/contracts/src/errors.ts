import { z } from 'zod';

/**
 * Stable error codes of the API. The web app shows `t('errors:' + code)`; `message` is for logs and developers.
 * Add a code here (and its text in every catalog) before throwing it.
 */
export const ERROR_CODES = [
  'auth.invalid_credentials',
  'auth.account_blocked',
  'auth.system_disabled',
  'auth.account_disabled',
  'auth.email_not_verified',
  /** Failed logins of an account or from an address (Retry-After). */
  'auth.too_many_attempts',
  /** Wrong current passwords when changing one's password (Retry-After). */
  'auth.too_many_password_attempts',
  /** Registrations from one address per hour (Retry-After). */
  'auth.too_many_registrations',
  /** A verification e-mail was asked for less than the resend interval ago (Retry-After, data.retryAfter). */
  'auth.verification_resend_too_soon',
  'auth.unauthenticated',
  'auth.token_invalid',
  'auth.session_expired',
  'auth.forbidden',
  'auth.link_expired',
  'auth.link_invalid',
  'auth.legacy_already_migrated',
  'auth.current_password_incorrect',
  'auth.password_same_as_current',
  'validation.failed',
  'request.malformed',
  'request.too_large',
  'request.unsupported_media_type',
  /** Any other 429. */
  'request.too_many_requests',
  'request.not_found',
  /** The input needed more time or memory than one request may use; its work was stopped (data: reason, seconds). */
  'request.processing_limit',
  'request.method_not_allowed',
  'resource.not_found',
  'resource.conflict',
  'server.internal',
  'server.unavailable',
  /** Every worker thread is busy and the queue is full (Retry-After). */
  'server.busy',
  'auth.password_change_failed',
  'user_management.would_lock_out',
  'user_management.cannot_deactivate_self',
  'user_management.not_invited',
  /** An invitation to the user was sent less than the resend interval ago (Retry-After). */
  'user_management.invitation_resend_too_soon',
  'admin.cannot_change_self',
  'admin.impersonation_refused',
  'auth.not_impersonating',
  /** Too many failed logins of an account from all addresses: locked until unlocked by e-mail or the window passes (Retry-After). */
  'auth.account_locked',
  /** A grant (group, invitation, membership) of a permission the caller does not hold (details: the field). */
  'user_management.permission_not_held',
  /** A group permission the company is not entitled to (ETTN without the company's ETTN toggle). */
  'user_management.permission_not_entitled',
  'user_management.cannot_change_own_groups',
  /** The GLN is already in the company's address book (details: gln). */
  'address_book.gln_taken',
  /** A CSV import found problems; nothing was saved (details: rows.<line>.<field> or file). */
  'address_book.import_invalid',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorDetailSchema = z.object({
  /** Dotted path of the failing field, e.g. `password` or `items.0.quantity`. */
  field: z.string(),
  /** Key of the `validation` namespace (e.g. `required`, `email`, `passwordRules`, `tooLong`). */
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(ErrorDetailSchema).optional(),
    /** Extra facts for the client, e.g. the user id to resend a verification e-mail. */
    data: z.record(z.string(), z.unknown()).optional(),
  }),
  requestId: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function isErrorBody(value: unknown): value is ErrorBody {
  return ErrorBodySchema.safeParse(value).success;
}
