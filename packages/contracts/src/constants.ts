/** Business constants of the product description, section 9. Shared by the web app and the server. */

/** Languages the portal speaks, in the order the selector lists them. */
export const LANGUAGES = ['ar', 'de', 'en', 'es', 'fr', 'hu', 'it', 'ms', 'pl', 'th', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_COOKIE = 'lang';
export const LANGUAGE_COOKIE_DAYS = 30;
export const REGISTRATION_TOKEN_COOKIE = 'registrationToken';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export const PASSWORD_MIN_LENGTH = 8;
/** Longest password accepted; argon2 hashes any length, this only bounds the work a request can cause. */
export const PASSWORD_MAX_LENGTH = 128;
/** The special characters the password rule accepts (description, section 5). */
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*.,\\/?|"\';:-=_+';

export const TOAST_DURATION_MS = 5000;
export const FIRST_TIME_DIALOG_DELAY_MS = 1000;
export const PAYMENT_REMINDER_FIRST_DAY = 14;
export const PAYMENT_REMINDER_LAST_DAY = 24;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Lifetimes of the session and the one-time links. */
export const ACCESS_TOKEN_TTL_SECONDS = 300;
export const REFRESH_TOKEN_IDLE_SECONDS = 30 * 60;
export const REFRESH_TOKEN_ABSOLUTE_SECONDS = 10 * 60 * 60;
export const VERIFY_EMAIL_TTL_SECONDS = 24 * 60 * 60;
export const RESET_PASSWORD_TTL_SECONDS = 60 * 60;
export const INVITATION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const REGISTRATION_TOKEN_TTL_SECONDS = 60 * 60;

// The limits on failed logins live with the server (apps/server/src/features/auth/login-limits.ts, decision 0009).

/** Largest JSON body the API accepts outside upload routes. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
