import type { TFunction } from 'i18next';
import { validationText } from '../../lib/form-errors.ts';

/** Field error codes of the profile forms that the shared `validation` catalog does not word (yet). */
const PROFILE_CODES = new Set([
  'telephone',
  'country',
  'iban',
  'electronicAddressScheme',
  'oneOf',
  'passwordSameAsCurrent',
  'currentPasswordIncorrect',
]);

/** The text of a field error: a profile-specific code from this namespace, else the shared `validation` text. */
export function profileFieldError(t: TFunction, message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  if (PROFILE_CODES.has(message)) return t(`profile:fieldErrors.${message}`);
  return validationText(t, message);
}
