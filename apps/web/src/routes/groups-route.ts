import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { groupsQuery } from '../features/user-management/api/user-management-queries.ts';
import { validateNameSearch } from '../features/user-management/user-management-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

export const groupsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/groups',
  validateSearch: validateNameSearch,
  beforeLoad: ({ context }) => requirePermission(context, 'GROUPS_READ'),
  loaderDeps: ({ search }) => search,
  // The page's texts and first page are there before it renders (no flash of keys or of a loader); the page reads
  // the list from the query cache, so the loader returns nothing to type.
  loader: async ({ context, deps }): Promise<void> => {
    await Promise.all([
      i18next.loadNamespaces('user-management'),
      context.queryClient.ensureInfiniteQueryData({
        ...groupsQuery(context.api, deps.search ?? ''),
        revalidateIfStale: true,
      }),
    ]);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/user-management/components/groups-page.tsx')),
    'GroupsPage',
  ),
});
