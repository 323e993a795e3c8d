import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateIssueReportsSearch } from '../features/admin/admin-search.ts';
import { issueReportsQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

export const adminIssueReportsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/issue-reports',
  validateSearch: validateIssueReportsSearch,
  loaderDeps: ({ search }) => search,
  // The page reads the list from the query cache; the loader only warms it (and returns nothing to type).
  loader: async ({ context, deps }): Promise<void> => {
    await context.queryClient.ensureInfiniteQueryData({
      ...issueReportsQuery(context.api, deps),
      revalidateIfStale: true,
    });
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/issue-reports-page.tsx')),
    'IssueReportsPage',
  ),
});
