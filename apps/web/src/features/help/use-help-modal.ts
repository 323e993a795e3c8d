import { useLocation, useNavigate, useRouter } from '@tanstack/react-router';

/** The search flag that shows the help dialog over the current page; the address bar shows /help (a route mask). */
export const HELP_SEARCH_FLAG = 'help';
/** The search parameter naming the article the dialog opens at (a source of the AI assistant's answer). */
export const HELP_ARTICLE_PARAM = 'article';

type SearchRecord = Record<string, unknown>;

/**
 * The modal route /help (description, section 2): opened from the navigation it stays over the page the user was
 * on, with /help in the address bar; opened directly (a link, a reload) it is the /help route itself. With an
 * article (`/help?article=profile`) it opens at that article.
 */
export function useHelpModal() {
  const location = useLocation();
  const navigate = useNavigate();
  const router = useRouter();
  const search = location.search as SearchRecord;
  const overlay = search[HELP_SEARCH_FLAG] === 'open';
  const isHelpRoute = location.pathname === '/help';
  const requested = search[HELP_ARTICLE_PARAM];
  const article = (overlay || isHelpRoute) && typeof requested === 'string' && requested ? requested : undefined;

  return {
    isOpen: overlay || isHelpRoute,
    overlay,
    article,
    open: (articleId?: string) => {
      const withArticle = (base: SearchRecord): SearchRecord => {
        const next: SearchRecord = { ...base };
        delete next[HELP_ARTICLE_PARAM];
        return articleId ? { ...next, [HELP_ARTICLE_PARAM]: articleId } : next;
      };
      if (isHelpRoute) {
        if (articleId) void navigate({ to: '/help', search: withArticle(search) as never, replace: true });
        return;
      }
      if (overlay && !articleId) return;
      void navigate({
        to: location.pathname,
        search: withArticle({ ...search, [HELP_SEARCH_FLAG]: 'open' }) as never,
        mask: articleId ? { to: '/help', search: { [HELP_ARTICLE_PARAM]: articleId } as never } : { to: '/help' },
        replace: overlay,
      });
    },
    close: () => {
      if (overlay) {
        const rest: SearchRecord = { ...search };
        delete rest[HELP_SEARCH_FLAG];
        delete rest[HELP_ARTICLE_PARAM];
        void navigate({ to: location.pathname, search: rest as never, replace: true });
      } else {
        void router.navigate({ to: '/' });
      }
    },
  };
}
