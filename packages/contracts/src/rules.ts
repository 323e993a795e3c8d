import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_SPECIAL_CHARACTERS } from './constants.ts';

/**
 * Validation rules shared by both sides (description, section 5). Zod issues carry i18n keys of the
 * `validation` namespace as their message, so the web app translates them and the server reports them as-is.
 */

/** "text, @, text, dot, text" */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const SPECIAL = new Set(PASSWORD_SPECIAL_CHARACTERS);

export type PasswordRule = 'minLength' | 'upper' | 'lower' | 'digit' | 'special';
export const PASSWORD_RULES: readonly PasswordRule[] = ['minLength', 'upper', 'lower', 'digit', 'special'];

/** Which password rules a candidate meets; drives the live checklist on the registration form. */
export function checkPassword(password: string): Record<PasswordRule, boolean> {
  return {
    minLength: password.length >= PASSWORD_MIN_LENGTH,
    upper: /\p{Lu}/u.test(password),
    lower: /\p{Ll}/u.test(password),
    digit: /\p{Nd}/u.test(password),
    special: [...password].some((c) => SPECIAL.has(c)),
  };
}

export function isStrongPassword(password: string): boolean {
  return Object.values(checkPassword(password)).every(Boolean);
}

/**
 * A NUL, or half of a UTF-16 surrogate pair without its other half. PostgreSQL's text cannot hold U+0000, and a lone
 * surrogate has no UTF-8 form (the database refuses it or stores U+FFFD, so two different inputs would become one).
 */
// eslint-disable-next-line no-control-regex -- the NUL is what this finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string holds only characters the API can store and compare: no NUL, well-formed Unicode. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * The string schema every request field is built from (body, query, path, form): the one place of the rule above, so
 * no route lets such a string reach the database. It fails alone as `characters` (abort): a length or pattern issue
 * of the same value would only add noise.
 */
export function text(params?: { error: string }) {
  return z.string(params).refine(isStorableText, { error: 'characters', abort: true });
}

/** The `nextCursor` of a list's previous page, as is: base64url, so anything else is a forgery. */
export const CursorSchema = text()
  .max(512, 'tooLong')
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor');

/** A blank value fails only `required` (abort): the checks after it would report the same mistake again. */
const required = { error: 'required', abort: true } as const;

export const EmailSchema = text({ error: 'required' })
  .trim()
  .min(1, required)
  .max(254, 'tooLong')
  .regex(EMAIL_PATTERN, 'email');

export const PasswordSchema = text({ error: 'required' })
  .min(1, required)
  .max(PASSWORD_MAX_LENGTH, 'tooLong')
  .refine(isStrongPassword, 'passwordRules');

export const NameSchema = text({ error: 'required' }).trim().min(1, 'required').max(100, 'tooLong');

/** GS1 check digit of a GLN-13: weights 3 and 1 alternating from the right, over the first twelve digits. */
export function isValidGln(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(value[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(value[12]);
}

export const GlnSchema = text({ error: 'required' })
  .trim()
  .max(13, { error: 'gln', abort: true })
  .refine(isValidGln, 'gln');

/** Optional trimmed text of at most `max` characters; empty becomes null, so "cleared" has one form. */
export const clearableText = (max: number) =>
  text()
    .trim()
    .max(max, 'tooLong')
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));

/** Normal form of an e-mail for lookups: addresses are unique case-insensitively. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
