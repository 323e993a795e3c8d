import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { partnerQuery, partnersQuery } from '../features/partners/api/partners-queries.ts';
import { partnersFilter, validatePartnersSearch } from '../features/partners/partners-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

export const partnersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/partners',
  validateSearch: validatePartnersSearch,
  beforeLoad: ({ context }) => requirePermission(context, 'PARTNERS_READ'),
  loaderDeps: ({ search }) => search,
  // The page's texts and first page are there before it renders; the page reads the list from the query cache.
  loader: async ({ context, deps }): Promise<void> => {
    await Promise.all([
      i18next.loadNamespaces('partners'),
      context.queryClient.ensureInfiniteQueryData({
        ...partnersQuery(context.api, partnersFilter(deps)),
        revalidateIfStale: true,
      }),
    ]);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/partners/components/partners-page.tsx')),
    'PartnersPage',
  ),
});

export const partnerRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/partners/$partnerId',
  beforeLoad: ({ context }) => requirePermission(context, 'PARTNERS_READ'),
  loader: async ({ context, params }): Promise<void> => {
    await Promise.all([
      i18next.loadNamespaces('partners'),
      context.queryClient.ensureQueryData({ ...partnerQuery(context.api, params.partnerId), revalidateIfStale: true }),
    ]);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/partners/components/partner-detail-page.tsx')),
    'PartnerDetailPage',
  ),
});
