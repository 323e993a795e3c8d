import i18next from 'i18next';
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { hasPermission, type FeaturePermission } from '@portal/contracts';
import { permissionsQuery } from '../app/session/use-permissions.ts';
import { columnListOf, columnsQuery, documentsQuery } from '../features/documents/api/documents-queries.ts';
import { validateDocumentsSearch, type DocumentsSearch } from '../features/documents/documents-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import type { RouterContext } from './router-context.ts';
import { requirePermission } from './require-permission.ts';

const pages = () => import('../features/documents/components/documents-page.tsx');
const documentPages = () => import('../features/documents/components/document-routes-pages.tsx');

const READ: Record<'in' | 'out', FeaturePermission> = { in: 'INBOX_READ', out: 'OUTBOX_READ' };

/** The texts, the user's columns and the first page are there before the list renders (no flash of keys). */
async function loadList(context: RouterContext, direction: 'in' | 'out', search: DocumentsSearch): Promise<void> {
  const { permissions, toggles } = await context.queryClient.ensureQueryData(permissionsQuery(context.api));
  const roles = context.session.getClaims()?.roles ?? [];
  if (!hasPermission({ roles, permissions, toggles }, READ[direction])) {
    await i18next.loadNamespaces(['documents', 'edifact', 'drafts']);
    return;
  }
  await Promise.all([
    i18next.loadNamespaces(['documents', 'edifact', 'drafts']),
    context.queryClient.ensureQueryData(columnsQuery(context.api, columnListOf(direction))),
    context.queryClient.ensureInfiniteQueryData({
      ...documentsQuery(context.api, direction, search),
      revalidateIfStale: true,
    }),
  ]);
}

export const documentsInRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/documents/in',
  validateSearch: validateDocumentsSearch,
  // No redirect without INBOX_READ: the inbox is where the start page leads, so it says the user may not read it.
  loaderDeps: ({ search }) => validateDocumentsSearch(search),
  loader: ({ context, deps }) => loadList(context, 'in', deps),
  component: lazyRouteComponent(withChunkTimeout(pages), 'InboxPage'),
});

export const documentsOutRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/documents/out',
  validateSearch: validateDocumentsSearch,
  beforeLoad: ({ context }) => requirePermission(context, READ.out),
  loaderDeps: ({ search }) => validateDocumentsSearch(search),
  loader: ({ context, deps }) => loadList(context, 'out', deps),
  component: lazyRouteComponent(withChunkTimeout(pages), 'OutboxPage'),
});

/** A document over the inbox (a modal route: the list stays under it, its filters in the address). */
export const inboxDocumentRoute = createRoute({
  getParentRoute: () => documentsInRoute,
  path: '$id',
  component: lazyRouteComponent(withChunkTimeout(documentPages), 'InboxDocumentModal'),
});

export const outboxDocumentRoute = createRoute({
  getParentRoute: () => documentsOutRoute,
  path: '$id',
  component: lazyRouteComponent(withChunkTimeout(documentPages), 'OutboxDocumentModal'),
});

/** A document as a page of its own; the server answers 404 for one the user may not see. */
export const documentPageRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/documents/$id',
  loader: async (): Promise<void> => {
    await i18next.loadNamespaces(['documents', 'edifact', 'drafts']);
  },
  component: lazyRouteComponent(withChunkTimeout(documentPages), 'DocumentPage'),
});

/** /documents on its own (a typed or shared address) leads to the inbox, as the root does; the layout's guard first. */
export const documentsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/documents',
  beforeLoad: () => {
    throw redirect({ to: '/documents/in', replace: true });
  },
});
