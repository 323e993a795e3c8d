import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@portal/contracts';

type Catalog = Record<string, unknown>;
const cache = new Map<string, Catalog>();
const LOCALES = fileURLToPath(new URL('../../../../packages/i18n/locales', import.meta.url));

function catalog(namespace: string, lang: Language): Catalog {
  const key = `${lang}/${namespace}`;
  let c = cache.get(key);
  if (!c) {
    try {
      c = JSON.parse(readFileSync(`${LOCALES}/${key}.json`, 'utf8')) as Catalog;
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

/**
 * Server-side texts of one namespace of the web app's catalogs (`packages/i18n/locales`) in one language, falling
 * back to English, then to the key: e-mails, exports' column headers.
 */
export function translator(namespace: string, language: string): Translate {
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  return (key, params = {}) => {
    const text = lookup(catalog(namespace, lang), key) ?? lookup(catalog(namespace, DEFAULT_LANGUAGE), key) ?? key;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
  };
}
