import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { NameSchema } from '@portal/contracts';
import { initI18n } from '../i18n/i18n.ts';
import { validationText } from './form-errors.ts';

describe('validationText', () => {
  it('words the code of a string with a NUL or a lone surrogate, from the shared schema or the server', async () => {
    const code = NameSchema.safeParse('Ann\u0000').error?.issues[0]?.message;
    expect(code).toBe('characters');
    expect(validationText(i18next.t, code)).toBe('This value contains characters that are not allowed');
    const pl = await initI18n('pl', i18next.createInstance());
    expect(validationText(pl.t, code)).toBe('Ta wartość zawiera niedozwolone znaki');
  });

  it('falls back to "invalid" for a code the catalog does not know', () => {
    expect(validationText(i18next.t, 'noSuchCode')).toBe('This value is invalid');
  });
});
