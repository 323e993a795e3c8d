import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

/**
 * Areas whose screens arrive with later work. Each keeps its guard and shows "not available yet", so the navigation
 * never leads to "page not found"; the feature replaces its route here when it lands.
 */
const comingSoon = lazyRouteComponent(
  withChunkTimeout(() => import('../features/layout/components/coming-soon-page.tsx')),
  'ComingSoonPage',
);

export const ettnRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/ettn',
  beforeLoad: ({ context }) => requirePermission(context, 'ETTN', { role: 'ettn' }),
  component: comingSoon,
});

export const ettnPendingRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/ettn/pending',
  beforeLoad: ({ context }) => requirePermission(context, 'ETTN', { role: 'ettn' }),
  component: comingSoon,
});
