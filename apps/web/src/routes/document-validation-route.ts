import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import i18next from 'i18next';
import { hasPermission } from '@portal/contracts';
import { permissionsQuery } from '../app/session/use-permissions.ts';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';

/** Document validation: seen with DOCUMENT_VALIDATION_READ; validating needs DOCUMENT_VALIDATION_CREATE (the page). */
export const documentValidationRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/document-validation',
  beforeLoad: async ({ context }) => {
    const permissions = await context.queryClient.ensureQueryData(permissionsQuery(context.api));
    if (!hasPermission({ roles: [], ...permissions }, 'DOCUMENT_VALIDATION_READ')) throw redirect({ to: '/' });
  },
  loader: () => i18next.loadNamespaces('edifact'),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/document-validation/components/document-validation-page.tsx')),
    'DocumentValidationPage',
  ),
});
