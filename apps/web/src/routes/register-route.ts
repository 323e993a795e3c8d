import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { requireGuest } from '../app/session/guards.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { rootRoute } from './root-route.tsx';

export const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  beforeLoad: ({ context }) => requireGuest(context.session),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/auth/components/register-page.tsx')),
    'RegisterPage',
  ),
});
