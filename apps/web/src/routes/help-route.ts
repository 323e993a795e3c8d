import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';

/** The modal route /help: the main layout shows the help dialog (over the current page when opened from the menu). */
export const helpRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/help',
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/help/components/help-route-page.tsx')),
    'HelpRoutePage',
  ),
});
