import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { requireGuest } from '../app/session/guards.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { rootRoute } from './root-route.tsx';

export type SetPasswordSearch = { token?: string };

export const setPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/set-password',
  validateSearch: (search: Record<string, unknown>): SetPasswordSearch =>
    typeof search['token'] === 'string' && search['token'] ? { token: search['token'] } : {},
  beforeLoad: ({ context }) => requireGuest(context.session),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/auth/components/set-password-page.tsx')),
    'SetPasswordPage',
  ),
});
