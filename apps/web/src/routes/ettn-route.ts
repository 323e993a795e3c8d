import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { ettnListQuery, validateEttnSearch, type EttnListKind, type EttnSearch } from '../features/ettn/index.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import type { RouterContext } from './router-context.ts';
import { requirePermission } from './require-permission.ts';

const lists = () => import('../features/ettn/components/ettn-list-page.tsx');
const modals = () => import('../features/ettn/components/ettn-modal.tsx');
const create = () => import('../features/ettn/components/ettn-create-page.tsx');

/** e-TTN needs the role ettn and the permission ETTN (description, section 2); the server refuses the calls either way. */
const guard = ({ context }: { context: RouterContext }) => requirePermission(context, 'ETTN', { role: 'ettn' });

/** The texts and the first page are there before the list renders (no flash of keys). */
async function loadList(context: RouterContext, kind: EttnListKind, search: EttnSearch): Promise<void> {
  await Promise.all([
    i18next.loadNamespaces(['ettn', 'errors']),
    // A refusal (an e-TTN code) is the list's to say, in its place: the page renders and shows it.
    context.queryClient
      .ensureInfiniteQueryData({ ...ettnListQuery(context.api, kind, search), revalidateIfStale: true })
      .catch(() => undefined),
  ]);
}

/** /ettn: the registered notes. */
export const ettnRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/ettn',
  validateSearch: validateEttnSearch,
  beforeLoad: guard,
  loaderDeps: ({ search }) => validateEttnSearch(search),
  loader: ({ context, deps }) => loadList(context, 'registered', deps),
  component: lazyRouteComponent(withChunkTimeout(lists), 'EttnRegisteredPage'),
});

/** A registered note over the list (a modal route: the list and its filters stay under it). */
export const ettnNoteRoute = createRoute({
  getParentRoute: () => ettnRoute,
  path: '$id',
  component: lazyRouteComponent(withChunkTimeout(modals), 'EttnRegisteredModal'),
});

/** /ettn/pending: the company's uploads not yet signed and sent. */
export const ettnPendingRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/ettn/pending',
  validateSearch: validateEttnSearch,
  beforeLoad: guard,
  loaderDeps: ({ search }) => validateEttnSearch(search),
  loader: ({ context, deps }) => loadList(context, 'pending', deps),
  component: lazyRouteComponent(withChunkTimeout(lists), 'EttnPendingPage'),
});

export const ettnPendingNoteRoute = createRoute({
  getParentRoute: () => ettnPendingRoute,
  path: '$id',
  component: lazyRouteComponent(withChunkTimeout(modals), 'EttnPendingModal'),
});

/** /ettn/new: a new note by form or XML upload, for the consignor (role ETTN_CZ); it becomes a pending upload. */
export const ettnNewRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/ettn/new',
  beforeLoad: async ({ context }) => {
    await guard({ context });
    await requirePermission(context, 'ETTN', { role: 'ETTN_CZ' });
  },
  loader: () => i18next.loadNamespaces(['ettn', 'errors', 'validation']),
  component: lazyRouteComponent(withChunkTimeout(create), 'EttnCreatePage'),
});
