/**
 * Writes the e-TTN error texts (packages/contracts/src/ettn.ts, the one table of codes 0–32 in the eleven languages)
 * into each language's errors catalog as `ettn.<code>`, so `t('errors:ettn.7')` words a refusal like every other
 * error. Run after changing the table: `npx tsx packages/i18n/scripts/ettn-errors.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ETTN_ERROR_CODES, ETTN_ERROR_LANGUAGES, ETTN_ERROR_TEXTS } from '../../contracts/src/ettn.ts';

for (const language of ETTN_ERROR_LANGUAGES) {
  const file = new URL(`../locales/${language}/errors.json`, import.meta.url);
  const catalog = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  catalog['ettn'] = Object.fromEntries(
    ETTN_ERROR_CODES.map((code) => [String(code), ETTN_ERROR_TEXTS[code][language]]),
  );
  writeFileSync(file, `${JSON.stringify(catalog, null, 2)}\n`);
}
