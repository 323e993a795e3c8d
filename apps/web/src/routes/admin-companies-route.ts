import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateCompaniesSearch } from '../features/admin/admin-search.ts';
import { companiesQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

/** /admin: the companies (the admin area's start page). */
export const adminCompaniesRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/',
  validateSearch: validateCompaniesSearch,
  loaderDeps: ({ search }) => search,
  // The page reads the list from the query cache; the loader only warms it (and returns nothing to type).
  loader: async ({ context, deps }): Promise<void> => {
    await context.queryClient.ensureInfiniteQueryData({
      ...companiesQuery(context.api, deps),
      revalidateIfStale: true,
    });
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/companies-page.tsx')),
    'CompaniesPage',
  ),
});
