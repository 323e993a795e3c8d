import { useLocation, useNavigate, useRouter } from '@tanstack/react-router';

/** The search flag that shows the help dialog over the current page; the address bar shows /help (a route mask). */
export const HELP_SEARCH_FLAG = 'help';

type SearchRecord = Record<string, unknown>;

/**
 * The modal route /help (description, section 2): opened from the navigation it stays over the page the user was
 * on, with /help in the address bar; opened directly (a link, a reload) it is the /help route itself.
 */
export function useHelpModal() {
  const location = useLocation();
  const navigate = useNavigate();
  const router = useRouter();
  const search = location.search as SearchRecord;
  const overlay = search[HELP_SEARCH_FLAG] === 'open';
  const isHelpRoute = location.pathname === '/help';

  return {
    isOpen: overlay || isHelpRoute,
    overlay,
    open: () => {
      if (overlay || isHelpRoute) return;
      void navigate({
        to: location.pathname,
        search: { ...search, [HELP_SEARCH_FLAG]: 'open' } as never,
        mask: { to: '/help' },
      });
    },
    close: () => {
      if (overlay) {
        const rest: SearchRecord = { ...search };
        delete rest[HELP_SEARCH_FLAG];
        void navigate({ to: location.pathname, search: rest as never, replace: true });
      } else {
        void router.navigate({ to: '/' });
      }
    },
  };
}
