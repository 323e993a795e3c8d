import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_DAYS,
  LANGUAGES,
  isLanguage,
  type Language,
} from '@portal/contracts';
import { getCookie, setCookie } from '../lib/cookies.ts';

/**
 * Language choice of the description (section 9): the `lang` cookie, then the browser's languages by base code,
 * then English (or the first configured language when English is not offered).
 */
export function detectLanguage(input: {
  cookie: string | undefined;
  browserLanguages: readonly string[];
  available?: readonly Language[];
}): Language {
  const available = input.available ?? LANGUAGES;
  const fromCookie = input.cookie?.trim().toLowerCase();
  if (isLanguage(fromCookie) && available.includes(fromCookie)) return fromCookie;
  for (const tag of input.browserLanguages) {
    const base = tag.split(/[-_]/)[0]?.toLowerCase();
    if (isLanguage(base) && available.includes(base)) return base;
  }
  return available.includes(DEFAULT_LANGUAGE) ? DEFAULT_LANGUAGE : (available[0] ?? DEFAULT_LANGUAGE);
}

export function detectBrowserLanguage(): Language {
  const browserLanguages = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  return detectLanguage({ cookie: getCookie(LANGUAGE_COOKIE), browserLanguages });
}

export function rememberLanguage(language: Language): void {
  setCookie(LANGUAGE_COOKIE, language, LANGUAGE_COOKIE_DAYS);
}

/** The language of the `lang` cookie, used as the `locale` of a registration. */
export function findCookieLanguage(): Language | undefined {
  const value = getCookie(LANGUAGE_COOKIE);
  return isLanguage(value) ? value : undefined;
}
