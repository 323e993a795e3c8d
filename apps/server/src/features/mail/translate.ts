import { catalogTranslator, type Translate } from '../../lib/catalog-text.ts';

export type { Translate };

/** Server-side texts of the `email` namespace in one language, falling back to English. */
export function emailTranslator(language: string): Translate {
  return catalogTranslator('email', language);
}
