import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language.ts';

describe('detectLanguage', () => {
  it('takes the lang cookie first', () => {
    expect(detectLanguage({ cookie: 'pl', browserLanguages: ['de-DE', 'en'] })).toBe('pl');
  });

  it('ignores a cookie that names no supported language', () => {
    expect(detectLanguage({ cookie: 'xx', browserLanguages: ['de-DE'] })).toBe('de');
  });

  it('then takes the first browser language by its base code', () => {
    expect(detectLanguage({ cookie: undefined, browserLanguages: ['zh-CN', 'uk-UA', 'fr'] })).toBe('uk');
    expect(detectLanguage({ cookie: undefined, browserLanguages: ['ar_EG'] })).toBe('ar');
  });

  it('falls back to English, or to the first configured language without English', () => {
    expect(detectLanguage({ cookie: undefined, browserLanguages: ['zh-CN', 'ja'] })).toBe('en');
    expect(detectLanguage({ cookie: undefined, browserLanguages: [], available: ['pl', 'uk'] })).toBe('pl');
  });
});
