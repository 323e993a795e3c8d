import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { validateAuditSearch } from '../features/admin/admin-search.ts';
import { auditQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

export const adminAuditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/audit',
  validateSearch: validateAuditSearch,
  loaderDeps: ({ search }) => search,
  // The page reads the list from the query cache; the loader only warms it (and returns nothing to type).
  loader: async ({ context, deps }): Promise<void> => {
    await context.queryClient.ensureInfiniteQueryData({ ...auditQuery(context.api, deps), revalidateIfStale: true });
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/audit-log-page.tsx')),
    'AuditLogPage',
  ),
});
