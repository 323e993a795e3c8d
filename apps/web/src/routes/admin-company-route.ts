import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { companyQuery } from '../features/admin/api/admin-queries.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { adminRoute } from './admin-route.ts';

export const adminCompanyRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/companies/$companyId',
  loader: ({ context, params }) => context.queryClient.ensureQueryData(companyQuery(context.api, params.companyId)),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/admin/components/company-page.tsx')),
    'CompanyPage',
  ),
});
