import { z } from 'zod';
import { ETTN_API_ERROR_CODES, ETTN_ERROR_STATUS } from './ettn.ts';

/**
 * Stable error codes of the API. The web app shows `t('errors:' + code)`; `message` is for logs and developers.
 * Add a code here, named `<feature>.<situation>`, with its status in `ERROR_STATUS` and its text in every catalog,
 * before throwing it (decision 0014).
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
  /** Another account already has this e-mail address (details: the field). */
  'users.email_taken',
  /** The user is disabled, so a link sent to them would be refused. */
  'users.disabled',
  /** The company already has a group of this name (details: the field). */
  'groups.name_taken',
  /** The company already has a restriction of this name (details: the field). */
  'restrictions.name_taken',
  /** UNECE's directory zip could not be fetched, or held another directory than the one asked for. */
  'edifact.directory_download_failed',
  /** The GLN is already in the company's address book (details: gln). */
  'address_book.gln_taken',
  /** A CSV import found problems; nothing was saved (details: rows.<line>.<field> or file). */
  'address_book.import_invalid',
  /** The GTIN is already in the company's products (details: gtin). */
  'products.gtin_taken',
  /** A products CSV import found problems; nothing was saved (details: rows.<line>.<field> or file). */
  'products.import_invalid',
  /** The company already has a partner of this GLN (details: gln). */
  'partners.gln_taken',
  /** The GLN belongs to a company already, this one or another (details: gln, glnAlreadyListed or glnOfAnotherCompany). */
  'companies.gln_taken',
  /** The company holds the most GLNs and delivery points it may (data: max). */
  'companies.too_many_locations',
  /** An outbox upload whose UNB sender is not one of the company's GLNs (details: files.<n>). */
  'documents.sender_not_own',
  /** An uploaded file that is not an EDIFACT interchange with a UNB (details: files.<n>). */
  'documents.not_interchange',
  /** An export whose filters match more rows than one export holds (data: max, total). */
  'documents.export_too_large',
  /** A zip whose originals hold more bytes than one zip may (data: maxBytes). */
  'documents.zip_too_large',
  /** A status change that does not apply to a selected document: `read` of an outbox document (details: read). */
  'documents.status_not_applicable',
  /** The chosen file encoding cannot hold a character of the document (details: the character and its place). */
  'documents.unencodable',
  /** The document was answered already (accepted or rejected with an APERAK): one answer per document. */
  'documents.already_answered',
  /** A draft saved over an older version of it: another tab or user saved in between (reload it). */
  'drafts.version_conflict',
  /** A draft that was sent already: it cannot be changed or deleted any more (copy it instead). */
  'drafts.sent',
  /** The company keeps the most drafts it may (data: max). */
  'drafts.limit_reached',
  /** The draft is being sent by another request right now (a double click): its answer will say the document. */
  'drafts.sending',
  /** The EDIFACT engine found errors in what the draft would send (details: form.<field>, the finding's code). */
  'drafts.check_failed',
  /** A request to the inbound endpoint without an API key, or with one that is unknown or revoked (never which). */
  'api_keys.invalid',
  /** The company holds the most keys it may that are not revoked (data: max). */
  'api_keys.limit_reached',
  /** The answer has feedback already: one per answer. */
  'chat.feedback_exists',
  /** A user's questions to the help assistant in the last minute are at the limit (Retry-After, data.retryAfter). */
  'chat.too_many_questions',
  /** The e-TTN codes 0–32 of the description (`ettn.7`), each with its text in every language (contracts' ettn.ts). */
  ...ETTN_API_ERROR_CODES,
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The HTTP status of every code: the server takes a response's status from here, never from the throw site, so one
 * situation has one status everywhere. A code without a status fails the typecheck.
 */
export const ERROR_STATUS = {
  'auth.invalid_credentials': 401,
  'auth.account_blocked': 403,
  'auth.system_disabled': 403,
  'auth.account_disabled': 403,
  'auth.email_not_verified': 403,
  'auth.too_many_attempts': 429,
  'auth.too_many_password_attempts': 429,
  'auth.too_many_registrations': 429,
  'auth.verification_resend_too_soon': 429,
  'auth.unauthenticated': 401,
  'auth.token_invalid': 401,
  'auth.session_expired': 401,
  'auth.forbidden': 403,
  'auth.link_expired': 400,
  'auth.link_invalid': 400,
  'auth.legacy_already_migrated': 401,
  'auth.current_password_incorrect': 400,
  'auth.password_same_as_current': 400,
  'auth.password_change_failed': 400,
  'auth.not_impersonating': 400,
  'auth.account_locked': 429,
  'validation.failed': 400,
  'request.malformed': 400,
  'request.too_large': 413,
  'request.unsupported_media_type': 415,
  'request.too_many_requests': 429,
  'request.not_found': 404,
  'request.processing_limit': 422,
  'request.method_not_allowed': 405,
  'resource.not_found': 404,
  'server.internal': 500,
  'server.unavailable': 503,
  'server.busy': 503,
  'user_management.would_lock_out': 409,
  'user_management.cannot_deactivate_self': 409,
  'user_management.not_invited': 409,
  'user_management.invitation_resend_too_soon': 429,
  'user_management.permission_not_held': 403,
  'user_management.permission_not_entitled': 403,
  'user_management.cannot_change_own_groups': 403,
  'admin.cannot_change_self': 400,
  'admin.impersonation_refused': 409,
  'users.email_taken': 409,
  'users.disabled': 409,
  'groups.name_taken': 409,
  'restrictions.name_taken': 409,
  'edifact.directory_download_failed': 502,
  'address_book.gln_taken': 409,
  'address_book.import_invalid': 400,
  'products.gtin_taken': 409,
  'products.import_invalid': 400,
  'partners.gln_taken': 409,
  'companies.gln_taken': 409,
  'companies.too_many_locations': 409,
  'documents.sender_not_own': 400,
  'documents.not_interchange': 400,
  'documents.export_too_large': 400,
  'documents.zip_too_large': 400,
  'documents.status_not_applicable': 400,
  'documents.unencodable': 422,
  'documents.already_answered': 409,
  'drafts.version_conflict': 409,
  'drafts.sent': 409,
  'drafts.limit_reached': 409,
  'drafts.check_failed': 400,
  'drafts.sending': 409,
  'api_keys.invalid': 401,
  'api_keys.limit_reached': 409,
  'chat.feedback_exists': 409,
  'chat.too_many_questions': 429,
  ...ETTN_ERROR_STATUS,
} as const satisfies Record<ErrorCode, number>;

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether a string from an error body is one of our codes (a client reads codes from the wire as plain strings). */
export function isErrorCode(value: string): value is ErrorCode {
  return CODES.has(value);
}

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
