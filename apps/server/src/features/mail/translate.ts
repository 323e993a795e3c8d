import { translator, type Translate } from '../../lib/translate.ts';

export type { Translate };

/** Server-side texts of the `email` namespace in one language, falling back to English. */
export const emailTranslator = (language: string): Translate => translator('email', language);
