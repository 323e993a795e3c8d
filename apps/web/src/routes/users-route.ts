import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { requirePermission } from '../features/user-management/require-permission.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';

export const usersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/users',
  beforeLoad: ({ context }) => requirePermission(context, 'USERS_READ'),
  // The page's texts are there before it renders (no flash of keys).
  loader: () => i18next.loadNamespaces('user-management'),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/user-management/components/users-page.tsx')),
    'UsersPage',
  ),
});
