import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { requirePermission } from '../features/user-management/require-permission.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';

export const groupsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/groups',
  beforeLoad: ({ context }) => requirePermission(context, 'GROUPS_READ'),
  // The page's texts are there before it renders (no flash of keys).
  loader: () => i18next.loadNamespaces('user-management'),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/user-management/components/groups-page.tsx')),
    'GroupsPage',
  ),
});
