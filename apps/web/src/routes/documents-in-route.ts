import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';

export const documentsInRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/documents/in',
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/documents/components/inbox-placeholder-page.tsx')),
    'InboxPlaceholderPage',
  ),
});

/** /documents on its own (a typed or shared address) leads to the inbox, as the root does; the layout's guard first. */
export const documentsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/documents',
  beforeLoad: () => {
    throw redirect({ to: '/documents/in', replace: true });
  },
});
