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

/** A blank value fails only `required` (abort): the checks after it would report the same mistake again. */
const required = { error: 'required', abort: true } as const;

export const EmailSchema = z
  .string({ error: 'required' })
  .trim()
  .min(1, required)
  .max(254, 'tooLong')
  .regex(EMAIL_PATTERN, 'email');

export const PasswordSchema = z
  .string({ error: 'required' })
  .min(1, required)
  .max(PASSWORD_MAX_LENGTH, 'tooLong')
  .refine(isStrongPassword, 'passwordRules');

export const NameSchema = z.string({ error: 'required' }).trim().min(1, 'required').max(100, 'tooLong');

/** Normal form of an e-mail for lookups: addresses are unique case-insensitively. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
