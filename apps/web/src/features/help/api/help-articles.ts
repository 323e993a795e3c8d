import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HELP_ARTICLE_IDS, type HelpArticleId } from '@portal/contracts';

/**
 * The portal's help articles (description, section 2: the /help dialog). Stable ids from `@portal/contracts`
 * (`HELP_ARTICLE_IDS`, with their groups); title, summary and keywords per language in the `help` namespace; the full
 * bodies in `packages/i18n/help/<lang>.json` (English and Polish, the other languages show the English body). The AI
 * assistant answers from the same data.
 */
export { HELP_ARTICLE_IDS, type HelpArticleId };

export type HelpArticle = {
  id: HelpArticleId;
  title: string;
  summary: string;
  keywords: string[];
  body: string;
  /** The body is the English one because the language has no full text of its own. */
  bodyInEnglish: boolean;
};

type Bodies = Partial<Record<HelpArticleId, string>>;
type BodiesModule = { default: Bodies };
const bodyFiles = import.meta.glob<BodiesModule>('../../../../../../packages/i18n/help/*.json');

async function loadBodies(language: string): Promise<Bodies> {
  const load = bodyFiles[`../../../../../../packages/i18n/help/${language}.json`];
  return load ? (await load()).default : {};
}

export function helpBodiesQuery(language: string) {
  return queryOptions({
    queryKey: ['help', 'bodies', language],
    queryFn: async (): Promise<{ own: Bodies; english: Bodies }> => {
      const own = await loadBodies(language);
      return { own, english: language === 'en' ? own : await loadBodies('en') };
    },
    staleTime: Infinity,
  });
}

/** Every article in the page's language; loads the `help` namespace and the bodies on first use. */
export function useHelpArticles(): { articles: HelpArticle[]; ready: boolean } {
  const { t, i18n, ready } = useTranslation('help');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const bodies = useQuery(helpBodiesQuery(language));
  if (!ready || !bodies.data) return { articles: [], ready: false };
  const { own, english } = bodies.data;
  const articles = HELP_ARTICLE_IDS.map((id): HelpArticle => {
    const body = own[id];
    return {
      id,
      title: t(`articles.${id}.title`),
      summary: t(`articles.${id}.summary`),
      keywords: t(`articles.${id}.keywords`)
        .split(/[,،]/) // Arabic lists use its own comma
        .map((k) => k.trim())
        .filter(Boolean),
      body: body ?? english[id] ?? '',
      bodyInEnglish: body === undefined,
    };
  });
  return { articles, ready: true };
}

function normalize(text: string): string {
  // Accents go (é → e); ł and ø do not decompose, so they are mapped by hand.
  return text.toLocaleLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/ł/g, 'l').replace(/ø/g, 'o');
}

/** Articles containing every word of the query in the title, summary, keywords or body; titles first. */
export function searchArticles(articles: readonly HelpArticle[], query: string): HelpArticle[] {
  const words = normalize(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...articles];
  const scored = articles.flatMap((article) => {
    const head = normalize([article.title, article.summary, article.keywords.join(' ')].join(' '));
    const all = `${head} ${normalize(article.body)}`;
    if (!words.every((w) => all.includes(w))) return [];
    const score =
      words.filter((w) => normalize(article.title).includes(w)).length * 2 +
      words.filter((w) => head.includes(w)).length;
    return [{ article, score }];
  });
  return scored.sort((a, b) => b.score - a.score).map((s) => s.article);
}
