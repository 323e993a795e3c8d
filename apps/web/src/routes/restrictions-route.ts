import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { restrictionsQuery } from '../features/user-management/api/user-management-queries.ts';
import { validateNameSearch } from '../features/user-management/user-management-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

export const restrictionsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/restrictions',
  validateSearch: validateNameSearch,
  beforeLoad: ({ context }) => requirePermission(context, 'RESTRICTIONS_READ'),
  loaderDeps: ({ search }) => search,
  // The page's texts and first page are there before it renders (no flash of keys or of a loader); the page reads
  // the list from the query cache, so the loader returns nothing to type.
  loader: async ({ context, deps }): Promise<void> => {
    await Promise.all([
      i18next.loadNamespaces('user-management'),
      context.queryClient.ensureInfiniteQueryData({
        ...restrictionsQuery(context.api, deps.search ?? ''),
        revalidateIfStale: true,
      }),
    ]);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/user-management/components/restrictions-page.tsx')),
    'RestrictionsPage',
  ),
});
