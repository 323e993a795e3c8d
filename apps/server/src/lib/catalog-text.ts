import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@portal/contracts';

/**
 * Texts of the i18n catalogs (`packages/i18n/locales/<lang>/<namespace>.json`) on the server: e-mails, and the
 * document PDF, which uses the web app's own `documents` words. Each catalog is read once.
 */
type Catalog = Record<string, unknown>;
const cache = new Map<string, Catalog>();
const LOCALES = fileURLToPath(new URL('../../../../packages/i18n/locales', import.meta.url));

function catalog(namespace: string, lang: Language): Catalog {
  const key = `${lang}/${namespace}`;
  let c = cache.get(key);
  if (!c) {
    try {
      c = JSON.parse(readFileSync(`${LOCALES}/${lang}/${namespace}.json`, 'utf8')) as Catalog;
    } catch {
      c = {};
    }
    cache.set(key, c);
  }
  return c;
}

function lookup(c: Catalog, key: string): string | undefined {
  let node: unknown = c;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export type Translate = (key: string, params?: Record<string, string>) => string;

/** The texts of one namespace in one language, falling back to English, then to the key; `{{name}}` filled. */
export function catalogTranslator(namespace: string, language: string): Translate {
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  return (key, params = {}) => {
    const text = lookup(catalog(namespace, lang), key) ?? lookup(catalog(namespace, DEFAULT_LANGUAGE), key) ?? key;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
  };
}

/** Whether the key exists in the language's catalog or in English's. */
export function hasCatalogText(namespace: string, language: string, key: string): boolean {
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  return (
    lookup(catalog(namespace, lang), key) !== undefined ||
    lookup(catalog(namespace, DEFAULT_LANGUAGE), key) !== undefined
  );
}
