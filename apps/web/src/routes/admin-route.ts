import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import i18next from 'i18next';
import { requireAdmin, requireAuthenticated } from '../app/session/guards.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { rootRoute } from './root-route.tsx';

/** The admin area's layout (navigation, Logout); its pages are the children listed in `admin-route-tree.ts`. */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  beforeLoad: async ({ context, location }) => {
    // Non-admins are sent to / by the admin guard rather than bounced by the role check.
    await requireAuthenticated(context.session, location);
    requireAdmin(context.session);
  },
  // The admin texts arrive before the first admin page renders, so no page shows bare keys.
  loader: async (): Promise<void> => {
    await i18next.loadNamespaces('admin');
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/admin-layout.tsx')),
    'AdminLayout',
  ),
});
