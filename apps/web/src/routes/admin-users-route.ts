import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateUsersSearch } from '../features/admin/admin-search.ts';
import { usersQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

export const adminUsersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/users',
  validateSearch: validateUsersSearch,
  loaderDeps: ({ search }) => search,
  // The page reads the list from the query cache; the loader only warms it (and returns nothing to type).
  loader: async ({ context, deps }): Promise<void> => {
    await context.queryClient.ensureInfiniteQueryData({ ...usersQuery(context.api, deps), revalidateIfStale: true });
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/users-page.tsx')),
    'UsersPage',
  ),
});
