import { describe, expect, it } from 'vitest';
import { ADDRESS_BOOK_FIELDS } from '@portal/contracts';
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
});
