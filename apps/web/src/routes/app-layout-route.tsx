import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { requireAuthenticated, requireNonAdmin } from '../app/session/guards.ts';
import { permissionsQuery } from '../app/session/use-permissions.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { rootRoute } from './root-route.tsx';

/**
 * The signed-in area of business users (pathless): the authenticated and non-admin guards run once here, and the
 * permissions are loaded before any page renders, so navigation and pages never flash items the user lacks.
 * Add a page with `getParentRoute: () => appLayoutRoute` and put it in `router.tsx`'s children of this route.
 */
export const appLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    await requireAuthenticated(context.session, location);
    requireNonAdmin(context.session);
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(permissionsQuery(context.api)),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/layout/components/app-layout.tsx')),
    'AppLayout',
  ),
});
