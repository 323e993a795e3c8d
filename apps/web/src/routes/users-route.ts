import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { companyUsersQuery } from '../features/user-management/api/user-management-queries.ts';
import { usersFilter, validateUsersSearch } from '../features/user-management/user-management-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

export const usersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/users',
  validateSearch: validateUsersSearch,
  beforeLoad: ({ context }) => requirePermission(context, 'USERS_READ'),
  loaderDeps: ({ search }) => search,
  // The page's texts and first page are there before it renders (no flash of keys or of a loader); the page reads
  // the list from the query cache, so the loader returns nothing to type.
  loader: async ({ context, deps }): Promise<void> => {
    await Promise.all([
      i18next.loadNamespaces('user-management'),
      context.queryClient.ensureInfiniteQueryData({
        ...companyUsersQuery(context.api, usersFilter(deps)),
        revalidateIfStale: true,
      }),
    ]);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/user-management/components/users-page.tsx')),
    'UsersPage',
  ),
});
