import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionsUrl } from '../src/features/chat/chat-model.ts';
import { HelpLibrary, loadHelpArticles, passagesOf } from '../src/features/chat/help-index.ts';

/** Help files of our own in a temporary folder, laid out as packages/i18n has them. */
function helpFiles(files: {
  catalogs: Record<string, Record<string, { title: string; summary?: string; keywords?: string }>>;
  bodies: Record<string, Record<string, string>>;
}) {
  const root = mkdtempSync(join(tmpdir(), 'portal-help-'));
  const sources = { locales: join(root, 'locales'), bodies: join(root, 'help') };
  const write = () => {
    for (const [lang, articles] of Object.entries(files.catalogs)) {
      mkdirSync(join(sources.locales, lang), { recursive: true });
      writeFileSync(join(sources.locales, lang, 'help.json'), JSON.stringify({ title: 'Help', articles }));
    }
    mkdirSync(sources.bodies, { recursive: true });
    for (const [lang, bodies] of Object.entries(files.bodies))
      writeFileSync(join(sources.bodies, `${lang}.json`), JSON.stringify(bodies));
  };
  write();
  return { sources, files, write };
}

const BODY = [
  'Pallets are counted per delivery.',
  '',
  '- Scan the pallet label.',
  '- Confirm the count on the handheld.',
  '',
  'A missing pallet is reported to the carrier the same day.',
].join('\n');

describe('help passages', () => {
  it('keeps paragraphs and list items whole and groups them up to the passage size', () => {
    const passages = passagesOf({ id: 'pallets', title: 'Pallets', summary: '', keywords: '', body: BODY });
    expect(passages).toHaveLength(1);
    expect(passages[0]!.text).toBe(
      'Pallets are counted per delivery.\n- Scan the pallet label.\n- Confirm the count on the handheld.\n' +
        'A missing pallet is reported to the carrier the same day.',
    );
    const long = passagesOf({
      id: 'long',
      title: 'Long',
      summary: '',
      keywords: '',
      body: Array.from({ length: 6 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40)}`).join('\n\n'),
    });
    expect(long.length).toBeGreaterThan(1);
    expect(long.every((p) => p.text.length < 700)).toBe(true);
    expect(long.map((p) => p.id)).toEqual(long.map((_, i) => `long#${i}`));
  });
});

describe('help library', () => {
  it('takes article ids from both files, falls back to English, and rebuilds when asked', () => {
    const help = helpFiles({
      catalogs: {
        en: { pallets: { title: 'Pallets', keywords: 'pallet, delivery' } },
        pl: { pallets: { title: 'Palety' } },
      },
      bodies: { en: { pallets: BODY, 'finding-EDI_TEST': 'The test finding means the message is a test.' }, pl: {} },
    });
    const pl = loadHelpArticles('pl', help.sources);
    expect(pl.find((a) => a.id === 'pallets')).toMatchObject({ title: 'Palety', body: BODY });
    expect(pl.map((a) => a.id).sort()).toEqual(['finding-EDI_TEST', 'pallets']);

    const library = new HelpLibrary(help.sources);
    expect(library.index('en').retrieve('How do I count pallets?')[0]?.articleId).toBe('pallets');
    expect(library.index('en').retrieve('forklift maintenance')).toEqual([]);

    help.files.bodies.en!.forklifts = 'Forklift maintenance is booked with the warehouse manager every month.';
    help.write();
    expect(library.index('en').retrieve('forklift maintenance')).toEqual([]);
    library.rebuild();
    expect(library.index('en').retrieve('forklift maintenance')[0]?.articleId).toBe('forklifts');

    // A file that does not parse keeps the index as it was.
    writeFileSync(join(help.sources.bodies, 'en.json'), '{ not json');
    let failed = false;
    library.rebuild(() => (failed = true));
    expect(failed).toBe(true);
    expect(library.index('en').retrieve('forklift maintenance')[0]?.articleId).toBe('forklifts');
  });

  it('finds nothing for a question made of stop words only', () => {
    const library = new HelpLibrary();
    expect(library.index('en').retrieve('How can I do this in the portal?')).toEqual([]);
    expect(library.index('pl').retrieve('Jak to zrobić w portalu?')).toEqual([]);
  });

  it('matches Polish inflections by trimmed prefixes, with or without accents', () => {
    const library = new HelpLibrary();
    for (const question of ['Jak zaprosić nowego użytkownika?', 'jak zaprosic nowego uzytkownika'])
      expect(library.index('pl').retrieve(question)[0]?.articleId).toBe('user-management');
  });
});

describe('the model endpoint', () => {
  it('takes a base URL with or without /v1, or the whole endpoint', () => {
    expect(completionsUrl('http://llm.local')).toBe('http://llm.local/v1/chat/completions');
    expect(completionsUrl('http://llm.local/v1/')).toBe('http://llm.local/v1/chat/completions');
    expect(completionsUrl('http://llm.local/openai/v1/chat/completions')).toBe(
      'http://llm.local/openai/v1/chat/completions',
    );
  });
});
