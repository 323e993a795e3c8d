import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { productsQuery } from '../features/products/api/products-queries.ts';
import { productsFilter, validateProductsSearch } from '../features/products/products-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

export const productsRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/products',
  validateSearch: validateProductsSearch,
  // No products permission yet: the catalogue is read with OUTBOX_CREATE, as the server reads it.
  beforeLoad: ({ context }) => requirePermission(context, 'OUTBOX_CREATE'),
  loaderDeps: ({ search }) => search,
  // The page's texts and first page are there before it renders; the page reads the list from the query cache.
  loader: async ({ context, deps }): Promise<void> => {
    await Promise.all([
      i18next.loadNamespaces('products'),
      context.queryClient.ensureInfiniteQueryData({
        ...productsQuery(context.api, productsFilter(deps)),
        revalidateIfStale: true,
      }),
    ]);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/products/components/products-page.tsx')),
    'ProductsPage',
  ),
});
