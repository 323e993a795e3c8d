import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { fileURLToPath } from 'node:url';
import MiniSearch, { type SearchResult } from 'minisearch';
import { stemmer } from 'stemmer';

/**
 * Retrieval over the portal's help articles (decision 0031): each article of a collection (English, Polish) is cut
 * into passages (a few paragraphs or list items), and MiniSearch ranks passages by BM25 over their text, the
 * article's title, keywords and summary. English terms are stemmed (Porter); npm has no maintained Polish stemmer,
 * so Polish query terms lose their last letters and match as prefixes, with fuzzy matching for the rest.
 */

export type HelpCollection = 'en' | 'pl';
export const HELP_COLLECTIONS: readonly HelpCollection[] = ['en', 'pl'];

export type HelpArticle = { id: string; title: string; summary: string; keywords: string; body: string };
export type HelpPassage = { id: string; articleId: string; title: string; text: string; position: number };
export type PassageHit = HelpPassage & { score: number; matchedTerms: number; queryTerms: number };

const I18N = fileURLToPath(new URL('../../../../../packages/i18n', import.meta.url));
export const HELP_SOURCES = { locales: `${I18N}/locales`, bodies: `${I18N}/help` };

/** A passage grows by whole paragraphs or list items up to about this many characters. */
const PASSAGE_CHARS = 500;

/**
 * The least BM25 score of a best passage, and the least share of the question's words it must contain, for the
 * question to count as answered (tuned with `npm run eval:chat`; decision 0031).
 */
export const MIN_SCORE = 4;
export const MIN_COVERAGE = 0.5;
/** Passages kept for an answer, and how close to the best one they must score. */
const MAX_PASSAGES = 3;
const RELATIVE_SCORE = 0.45;

// Words that say nothing about the subject: a question made of them alone finds nothing.
const STOP_WORDS: Record<HelpCollection, ReadonlySet<string>> = {
  en: new Set(
    (
      'a an and are as at be been but by can could do does did for from has have how i if in into is it its me my ' +
      'no not of on or our please should so some than that the their them then there these this those to too us ' +
      'was we were what when where which who why will with would you your yours about any all also get got want ' +
      'need there here help portal tell explain show way thing things one dont don doesn didn cant isn im ' +
      'still just only really very much many anything something someone'
    ).split(' '),
  ),
  pl: new Set(
    (
      'a aby ale albo bo być był była było czy dla do gdy gdzie i ich im jak jaki jaka jakie jest jestem jeśli ' +
      'już ja mi mnie mój moja moje może można na nie nic niż o od oraz po pod przez przy się są ta tak tam te ' +
      'tego tej ten to tu ty w we więc z za ze że żeby co kto który która które chcę chce muszę proszę ' +
      'mam mogę jakoś portal portalu pomoc pomocy czemu dlaczego kiedy ile jakiś jakoś dalej nadal wciąż jeszcze ' +
      'mimo też także tylko bardzo trzeba nasz nasza nasze naszej naszego nas moich mojego mojej twój twoje ' +
      'ten tym tych tę temu tej który których którym gdzieś coś ktoś sobie swoje swój było będzie będą ' +
      'jestem jesteśmy został została zostało nie ma niema'
    ).split(' '),
  ),
};

/** Lower case without accents (ą → a, ł → l): users type Polish with or without them. */
const fold = (term: string) => term.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/ł/g, 'l');

/** A term as indexed: folded, stop words dropped, English stemmed. */
function indexTerm(collection: HelpCollection) {
  return (term: string): string | null => {
    const lower = term.toLowerCase();
    if (STOP_WORDS[collection].has(lower)) return null;
    const folded = fold(lower);
    if (folded.length < 2 && !/\d/.test(folded)) return null;
    return collection === 'en' ? stemmer(folded) : folded;
  };
}

/**
 * A question's term: as indexed, and in Polish cut to a stem-like prefix that the search matches as a prefix: the
 * inflected ending goes (one letter of a five-letter word, two of six or seven, three of longer), four letters stay.
 */
function queryTerm(collection: HelpCollection) {
  const asIndexed = indexTerm(collection);
  return (term: string): string | null => {
    const t = asIndexed(term);
    if (!t || collection === 'en' || t.length <= 4) return t;
    const cut = t.length >= 8 ? 3 : t.length >= 6 ? 2 : 1;
    return t.slice(0, Math.max(4, t.length - cut));
  };
}

/** The body's paragraphs and list items, each whole: paragraphs are separated by blank lines, `- ` starts an item. */
function units(body: string): string[] {
  const out: string[] = [];
  for (const block of body.split(/\n\s*\n/)) {
    const lines = block.split('\n').map((l) => l.trim());
    let current = '';
    for (const line of lines) {
      if (!line) continue;
      if (line.startsWith('- ')) {
        if (current) out.push(current);
        current = line;
      } else current = current ? `${current} ${line}` : line;
    }
    if (current) out.push(current);
  }
  return out;
}

/** Passages of an article: its units grouped up to PASSAGE_CHARS, lines kept so lists still read as lists. */
export function passagesOf(article: HelpArticle): HelpPassage[] {
  const groups: string[][] = [];
  let group: string[] = [];
  let size = 0;
  for (const unit of units(article.body)) {
    if (group.length && size + unit.length > PASSAGE_CHARS) {
      groups.push(group);
      group = [];
      size = 0;
    }
    group.push(unit);
    size += unit.length;
  }
  if (group.length) groups.push(group);
  return groups.map((g, position) => ({
    id: `${article.id}#${position}`,
    articleId: article.id,
    title: article.title,
    text: g.join('\n'),
    position,
  }));
}

function readJson(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
}
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The articles of a collection: ids from the keys of the bodies and of the catalog's `articles` (so new articles
 * count as soon as either file names them); title, summary and keywords from `locales/<lang>/help.json`, the body
 * from `help/<lang>.json`, each falling back to English when the language lacks it.
 */
export function loadHelpArticles(collection: HelpCollection, sources = HELP_SOURCES): HelpArticle[] {
  const catalog = (lang: string) => {
    const articles = readJson(`${sources.locales}/${lang}/help.json`).articles;
    return (articles && typeof articles === 'object' ? articles : {}) as Record<string, Record<string, unknown>>;
  };
  const own = catalog(collection);
  const english = collection === 'en' ? own : catalog('en');
  const bodies = readJson(`${sources.bodies}/${collection}.json`);
  const englishBodies = collection === 'en' ? bodies : readJson(`${sources.bodies}/en.json`);
  const ids = [
    ...new Set([...Object.keys(own), ...Object.keys(english), ...Object.keys(bodies), ...Object.keys(englishBodies)]),
  ];
  return ids.map((id) => {
    const meta = own[id] ?? english[id] ?? {};
    return {
      id,
      title: str(meta.title) || str(english[id]?.title) || id,
      summary: str(meta.summary),
      keywords: str(meta.keywords),
      body: str(bodies[id]) || str(englishBodies[id]),
    };
  });
}

type Indexed = HelpPassage & { keywords: string; summary: string };

/** One collection's articles and passages, searchable. */
export class HelpIndex {
  readonly articles: ReadonlyMap<string, HelpArticle>;
  private readonly search: MiniSearch<Indexed>;
  private readonly passages = new Map<string, HelpPassage>();

  constructor(
    readonly collection: HelpCollection,
    articles: HelpArticle[],
  ) {
    this.articles = new Map(articles.map((a) => [a.id, a]));
    this.search = new MiniSearch<Indexed>({
      fields: ['title', 'keywords', 'summary', 'text'],
      storeFields: [],
      processTerm: indexTerm(collection),
      searchOptions: {
        processTerm: queryTerm(collection),
        boost: { title: 3, keywords: 2, summary: 1.5, text: 1 },
        prefix: (term) => (collection === 'pl' ? term.length >= 4 : term.length >= 5),
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    const docs: Indexed[] = articles.flatMap((a) =>
      passagesOf(a).map((p) => ({ ...p, keywords: a.keywords, summary: a.summary })),
    );
    for (const d of docs) this.passages.set(d.id, d);
    this.search.addAll(docs);
  }

  /** The question's words that count (stop words dropped), as the index sees them. */
  termsOf(question: string): string[] {
    const process = queryTerm(this.collection);
    // MiniSearch's own tokenizer, so the count agrees with the terms a search matches.
    const words = (MiniSearch.getDefault('tokenize') as (text: string) => string[])(question);
    return [...new Set(words.map((w) => process(w)).filter((t): t is string => !!t))];
  }

  /** Passages by score, best first, with how many of the question's terms each holds. */
  rank(question: string, options: { articleId?: string } = {}): PassageHit[] {
    const terms = this.termsOf(question);
    if (!terms.length) return [];
    const results: SearchResult[] = this.search.search(question, {
      ...(options.articleId ? { filter: (r) => this.passages.get(String(r.id))?.articleId === options.articleId } : {}),
    });
    return results.flatMap((r) => {
      const passage = this.passages.get(String(r.id));
      if (!passage) return [];
      const matched = new Set(r.queryTerms).size;
      return [{ ...passage, score: r.score, matchedTerms: Math.min(matched, terms.length), queryTerms: terms.length }];
    });
  }

  /**
   * The passages an answer rests on: of those holding at least MIN_COVERAGE of the question's words (a passage that
   * repeats one word of three is not an answer), the best when it scores at least MIN_SCORE, and up to two more
   * that score nearly as well. Empty means: nothing relevant.
   */
  retrieve(question: string): PassageHit[] {
    const candidates = this.rank(question).filter((h) => h.matchedTerms / h.queryTerms >= MIN_COVERAGE);
    const best = candidates[0];
    if (!best || best.score < MIN_SCORE) return [];
    return candidates.filter((h) => h.score >= best.score * RELATIVE_SCORE).slice(0, MAX_PASSAGES);
  }

  /** An article's passages in order (the explanation of a finding quotes its article). */
  passagesOfArticle(articleId: string): HelpPassage[] {
    return [...this.passages.values()].filter((p) => p.articleId === articleId).sort((a, b) => a.position - b.position);
  }
}

/** Both collections, built from the files; `rebuild()` reads them again (the files changed). */
export class HelpLibrary {
  private indexes: Record<HelpCollection, HelpIndex>;
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly sources = HELP_SOURCES) {
    this.indexes = this.build();
  }

  private build(): Record<HelpCollection, HelpIndex> {
    return {
      en: new HelpIndex('en', loadHelpArticles('en', this.sources)),
      pl: new HelpIndex('pl', loadHelpArticles('pl', this.sources)),
    };
  }

  index(collection: HelpCollection): HelpIndex {
    return this.indexes[collection];
  }

  /** Reads the article files again; a file that does not parse keeps the indexes as they were. */
  rebuild(onError?: (error: unknown) => void): void {
    try {
      this.indexes = this.build();
    } catch (error) {
      onError?.(error);
    }
  }

  /** Rebuilds a moment after the article files change (development: `npm run dev`). */
  watch(onRebuilt?: () => void, onError?: (error: unknown) => void): void {
    const changed = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.rebuild(onError);
        onRebuilt?.();
      }, 200);
    };
    for (const dir of [this.sources.bodies, this.sources.locales]) {
      if (!existsSync(dir)) continue;
      try {
        const watcher = watch(dir, { recursive: true }, (_event, name) => {
          if (name && /(^|[\\/])(help|en|pl)\.json$/.test(String(name))) changed();
        });
        this.watchers.push(watcher);
      } catch (error) {
        onError?.(error);
      }
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}
