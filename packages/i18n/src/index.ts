import { LANGUAGES, type Language } from '@portal/contracts';

/** Locale metadata: the native name for the language selector, and the writing direction for `<html dir>`. */
export type LocaleInfo = { code: Language; name: string; dir: 'ltr' | 'rtl'; intl: string };

export const LOCALES: Record<Language, LocaleInfo> = {
  ar: { code: 'ar', name: 'العربية', dir: 'rtl', intl: 'ar' },
  de: { code: 'de', name: 'Deutsch', dir: 'ltr', intl: 'de-DE' },
  en: { code: 'en', name: 'English', dir: 'ltr', intl: 'en-GB' },
  es: { code: 'es', name: 'Español', dir: 'ltr', intl: 'es-ES' },
  fr: { code: 'fr', name: 'Français', dir: 'ltr', intl: 'fr-FR' },
  hu: { code: 'hu', name: 'Magyar', dir: 'ltr', intl: 'hu-HU' },
  it: { code: 'it', name: 'Italiano', dir: 'ltr', intl: 'it-IT' },
  ms: { code: 'ms', name: 'Bahasa Melayu', dir: 'ltr', intl: 'ms-MY' },
  pl: { code: 'pl', name: 'Polski', dir: 'ltr', intl: 'pl-PL' },
  th: { code: 'th', name: 'ไทย', dir: 'ltr', intl: 'th-TH' },
  uk: { code: 'uk', name: 'Українська', dir: 'ltr', intl: 'uk-UA' },
};

export { LANGUAGES };
export type { Language };

/**
 * Namespaces of the catalogs in `locales/<lang>/<namespace>.json`. `email` is used by the server only; the others
 * by the web app (the server also reads `errors` to word e-mails about failures).
 */
export const NAMESPACES = ['common', 'auth', 'errors', 'validation', 'email'] as const;
export type Namespace = (typeof NAMESPACES)[number];
