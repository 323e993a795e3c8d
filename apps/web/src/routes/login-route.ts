import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { requireGuest } from '../app/session/guards.ts';
import { parseLoginSearch } from '../features/auth/login-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { rootRoute } from './root-route.tsx';

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: parseLoginSearch,
  beforeLoad: ({ context }) => requireGuest(context.session),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/auth/components/login-page.tsx')),
    'LoginPage',
  ),
});
