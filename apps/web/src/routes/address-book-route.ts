import i18next from 'i18next';
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { addressBookQuery } from '../features/address-book/api/address-book-queries.ts';
import { addressBookFilter, validateAddressBookSearch } from '../features/address-book/address-book-search.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

export const addressBookRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/address-book',
  validateSearch: validateAddressBookSearch,
  // Hidden from role demo (description, section 2), as the navigation hides it and the server refuses it.
  beforeLoad: ({ context }) => requirePermission(context, 'ADDRESS_BOOK_READ', { hiddenForRole: 'demo' }),
  loaderDeps: ({ search }) => search,
  // The page's texts and first page are there before it renders; the page reads the list from the query cache.
  loader: async ({ context, deps }): Promise<void> => {
    await Promise.all([
      i18next.loadNamespaces('address-book'),
      context.queryClient.ensureInfiniteQueryData({
        ...addressBookQuery(context.api, addressBookFilter(deps)),
        revalidateIfStale: true,
      }),
    ]);
  },
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/address-book/components/address-book-page.tsx')),
    'AddressBookPage',
  ),
});
