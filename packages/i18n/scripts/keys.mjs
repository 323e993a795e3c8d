// Compares every language's catalogs with English: same namespaces, same keys, and for plural keys every plural
// category the language needs (Arabic has six). Shared by the CLI check and the unit test.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(obj, prefix = '', out = new Map()) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v, key, out);
    else out.set(key, v);
  }
  return out;
}

/** @returns {string[]} problems, empty when every catalog is complete */
export function checkCatalogs(localesDir) {
  const problems = [];
  const langs = readdirSync(localesDir).filter((d) => !d.startsWith('.'));
  const enDir = join(localesDir, 'en');
  const namespaces = readdirSync(enDir).filter((f) => f.endsWith('.json'));
  for (const lang of langs) {
    if (lang === 'en') continue;
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const ns of namespaces) {
      const file = join(localesDir, lang, ns);
      if (!existsSync(file)) {
        problems.push(`${lang}/${ns}: file missing`);
        continue;
      }
      const en = flatten(JSON.parse(readFileSync(join(enDir, ns), 'utf8')));
      const other = flatten(JSON.parse(readFileSync(file, 'utf8')));
      const enPlainKeys = new Set();
      const enPluralBases = new Set();
      for (const key of en.keys()) {
        if (PLURAL.test(key)) enPluralBases.add(key.replace(PLURAL, ''));
        else enPlainKeys.add(key);
      }
      for (const key of enPlainKeys) {
        const value = other.get(key);
        if (typeof value !== 'string' || value.trim() === '') problems.push(`${lang}/${ns}: missing ${key}`);
      }
      for (const base of enPluralBases) {
        for (const cat of categories) {
          if (typeof other.get(`${base}_${cat}`) !== 'string') problems.push(`${lang}/${ns}: missing ${base}_${cat}`);
        }
      }
      for (const key of other.keys()) {
        const base = key.replace(PLURAL, '');
        if (!enPlainKeys.has(key) && !enPluralBases.has(base)) problems.push(`${lang}/${ns}: extra key ${key}`);
      }
    }
  }
  return problems;
}
