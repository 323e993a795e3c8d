/** The error table: exactly the description's codes, a text in each of the eleven languages, English as given. */
import { LANGUAGES } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import {
  ETTN_ERROR_CODES,
  ETTN_ERROR_LANGUAGES,
  ETTN_ERROR_TEXTS,
  ettnErrorKey,
  ettnErrorText,
  isEttnErrorCode,
} from '../src/error-codes.ts';

describe('e-TTN error codes', () => {
  it('are 0 to 32 without 3, 8 and 23 (not given by the description)', () => {
    const expected = Array.from({ length: 33 }, (_, i) => i).filter((c) => ![3, 8, 23].includes(c));
    expect([...ETTN_ERROR_CODES]).toEqual(expected);
    expect(Object.keys(ETTN_ERROR_TEXTS).map(Number)).toEqual(expected);
    expect(isEttnErrorCode(3)).toBe(false);
  });

  it('use the portal’s languages', () => {
    expect([...ETTN_ERROR_LANGUAGES]).toEqual([...LANGUAGES]);
  });

  it('have a non-empty, distinct text in every language', () => {
    for (const code of ETTN_ERROR_CODES) {
      for (const lang of ETTN_ERROR_LANGUAGES)
        expect(ETTN_ERROR_TEXTS[code][lang].trim(), `${code} ${lang}`).not.toBe('');
    }
    for (const lang of ETTN_ERROR_LANGUAGES) {
      const texts = ETTN_ERROR_CODES.map((c) => ETTN_ERROR_TEXTS[c][lang]);
      expect(new Set(texts).size, lang).toBe(texts.length);
    }
  });

  it('say in English what the description says', () => {
    expect(ettnErrorText(7, 'en')).toBe('Incorrect transition between TTN states');
    expect(ettnErrorText(20, 'en')).toBe('Incorrect TTN signatory role');
    expect(ettnErrorText(29, 'en')).toBe('Document does not match the scheme');
    expect(ettnErrorText(30, 'uk')).toBe('Підпис документа не перевірено');
    expect(ettnErrorText(7, 'xx')).toBe(ettnErrorText(7, 'en'));
    expect(ettnErrorKey(7)).toBe('ettn.7');
  });
});
