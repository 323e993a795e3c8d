import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
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
