import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALES } from '@portal/i18n';
import type { Language } from '@portal/contracts';

/**
 * Namespaces loaded at start (the account pages need them). A feature's own namespace (`layout`, `profile`, …) is a
 * file `packages/i18n/locales/<lang>/<ns>.json` loaded on first `useTranslation('<ns>')`; `email` is the server's.
 */
export const WEB_NAMESPACES = ['common', 'auth', 'errors', 'validation'] as const;
export type WebNamespace = (typeof WEB_NAMESPACES)[number];

type CatalogModule = { default: Record<string, unknown> };

// One lazy chunk per language and namespace: a visitor downloads only the catalogs of the language in use.
const catalogs = import.meta.glob<CatalogModule>(['../../../../packages/i18n/locales/*/*.json', '!**/email.json']);

function findCatalog(language: string, namespace: string): (() => Promise<CatalogModule>) | undefined {
  return catalogs[`../../../../packages/i18n/locales/${language}/${namespace}.json`];
}

const lazyCatalogs: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = findCatalog(language, namespace);
    if (!load) {
      callback(new Error(`No catalog ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** Starts i18next in the given language and waits until its catalogs are loaded. */
export async function initI18n(language: Language, instance: I18n = i18next): Promise<I18n> {
  await instance
    .use(lazyCatalogs)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: Object.keys(LOCALES),
      load: 'languageOnly',
      ns: [...WEB_NAMESPACES],
      defaultNS: 'common',
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
      saveMissing: true,
      // A missing text is a bug to fix, not a reason to break the page (description, section 8).
      missingKeyHandler: (languages, namespace, key) => {
        console.warn(`i18n: missing "${namespace}:${key}" for ${languages.join(', ')}`);
      },
      react: { useSuspense: false },
    });
  applyDocumentLanguage(language);
  return instance;
}

/** `<html lang dir>` from the locale metadata, so the browser, screen readers and CSS follow the language. */
export function applyDocumentLanguage(language: Language): void {
  const locale = LOCALES[language];
  document.documentElement.lang = locale.code;
  document.documentElement.dir = locale.dir;
}
