import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

export const adminAppConfigRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/app-config',
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/app-config-page.tsx')),
    'AppConfigPage',
  ),
});
