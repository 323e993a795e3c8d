import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateEmailsSearch } from '../features/admin/admin-search.ts';
import { emailsQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

export const adminEmailsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/emails',
  validateSearch: validateEmailsSearch,
  loaderDeps: ({ search }) => search,
  // The page reads the list from the query cache; the loader only warms it (and returns nothing to type).
  loader: async ({ context, deps }): Promise<void> => {
    await context.queryClient.ensureInfiniteQueryData({ ...emailsQuery(context.api, deps), revalidateIfStale: true });
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/emails-page.tsx')),
    'EmailsPage',
  ),
});
