import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { directoriesQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

export const adminEdifactRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/edifact',
  loader: ({ context }) => context.queryClient.ensureQueryData(directoriesQuery(context.api)),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/edifact-directories-page.tsx')),
    'EdifactDirectoriesPage',
  ),
});
