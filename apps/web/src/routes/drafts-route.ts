import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

/** /drafts/$id: a document being written; the server answers 404 for another company's draft. */
export const draftRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/drafts/$id',
  beforeLoad: ({ context }) => requirePermission(context, 'OUTBOX_READ'),
  loader: async (): Promise<void> => {
    await i18next.loadNamespaces(['drafts', 'edifact', 'documents']);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/drafts/components/draft-form-page.tsx')),
    'DraftFormPage',
  ),
});
