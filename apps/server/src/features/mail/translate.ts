import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@portal/contracts';

type Catalog = Record<string, unknown>;
const cache = new Map<Language, Catalog>();
const LOCALES = fileURLToPath(new URL('../../../../../packages/i18n/locales', import.meta.url));

function catalog(lang: Language): Catalog {
  let c = cache.get(lang);
  if (!c) {
    try {
      c = JSON.parse(readFileSync(`${LOCALES}/${lang}/email.json`, 'utf8')) as Catalog;
    } catch {
      c = {};
    }
    cache.set(lang, c);
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

/** Server-side texts of the `email` namespace in one language, falling back to English. */
export function emailTranslator(language: string): Translate {
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  return (key, params = {}) => {
    const text = lookup(catalog(lang), key) ?? lookup(catalog(DEFAULT_LANGUAGE), key) ?? key;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => params[name] ?? '');
  };
}
