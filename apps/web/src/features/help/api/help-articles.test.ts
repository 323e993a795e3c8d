import { describe, expect, it } from 'vitest';
import {
  ADDRESS_BOOK_FIELDS,
  FINDING_ARTICLE_PREFIX,
  HELP_ARTICLE_GROUPS,
  HELP_FINDING_CODES,
  HELP_GROUPS,
  findingArticleId,
} from '@portal/contracts';
import edifactEn from '../../../../../../packages/i18n/locales/en/edifact.json';
import documentsEn from '../../../../../../packages/i18n/locales/en/documents.json';
import { HELP_ARTICLE_IDS } from './help-articles.ts';

type Bodies = Record<string, string>;
const files = import.meta.glob<Bodies>('../../../../../../packages/i18n/help/*.json', {
  eager: true,
  import: 'default',
});
const bodiesOf = (language: string): Bodies => {
  const bodies = files[`../../../../../../packages/i18n/help/${language}.json`];
  if (!bodies) throw new Error(`no help bodies for ${language}`);
  return bodies;
};

describe('help article bodies', () => {
  it.each(['en', 'pl'])('%s has a full text for every article and none for an unknown one', (language) => {
    const bodies = bodiesOf(language);
    expect(Object.keys(bodies).sort()).toEqual([...HELP_ARTICLE_IDS].sort());
    for (const id of HELP_ARTICLE_IDS) expect(bodies[id]?.trim(), id).toBeTruthy();
  });

  it.each(['en', 'pl'])('%s names every column header of the address book CSV', (language) => {
    const body = bodiesOf(language)['address-book'] ?? '';
    const named = ADDRESS_BOOK_FIELDS.filter((field) => new RegExp(`\\b${field}\\b`).test(body));
    expect(named).toEqual([...ADDRESS_BOOK_FIELDS]);
  });

  it('has one article for every finding code the screens word, and every article in a group', () => {
    // The engine's codes as the validation screen words them (variants such as `_end` aside), and the store's own.
    const worded = [
      ...Object.keys(edifactEn.findings).filter((key) => /^EDI_[A-Z_]+$/.test(key)),
      ...Object.keys(documentsEn.view.findingCode),
    ];
    expect([...HELP_FINDING_CODES].sort()).toEqual(worded.sort());
    for (const code of HELP_FINDING_CODES) {
      expect(findingArticleId(code)).toBe(`${FINDING_ARTICLE_PREFIX}${code}`);
      expect(HELP_ARTICLE_IDS).toContain(findingArticleId(code));
    }
    expect(Object.keys(HELP_ARTICLE_GROUPS).sort()).toEqual([...HELP_ARTICLE_IDS].sort());
    for (const id of HELP_ARTICLE_IDS) expect(HELP_GROUPS).toContain(HELP_ARTICLE_GROUPS[id]);
  });
});
