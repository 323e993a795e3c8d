import i18next from 'i18next';
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { ProfileSearchSchema } from '../features/profile/profile-panels.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';

/** /profile, hidden for role demo (description, section 2). `?panel=` opens one of the six panels. */
export const profileRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/profile',
  validateSearch: ProfileSearchSchema,
  beforeLoad: ({ context }) => {
    if (context.session.getClaims()?.roles.includes('demo')) throw redirect({ to: '/' });
  },
  // The page's texts are there before it renders (no flash of keys).
  loader: () => i18next.loadNamespaces('profile'),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/profile/components/profile-page.tsx')),
    'ProfilePage',
  ),
});
