import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { requireGuest } from '../app/session/guards.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { rootRoute } from './root-route.tsx';

export const passwordResetRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/password-reset',
  beforeLoad: ({ context }) => requireGuest(context.session),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/auth/components/password-reset-page.tsx')),
    'PasswordResetPage',
  ),
});
