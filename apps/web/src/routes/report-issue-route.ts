import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { withChunkTimeout } from '../lib/lazy-import.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { requirePermission } from './require-permission.ts';

export const reportIssueRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/report-issue',
  beforeLoad: ({ context }) => requirePermission(context, 'REPORT_ISSUE'),
  component: lazyRouteComponent(
    withChunkTimeout(() => import('../features/issue-report/components/report-issue-page.tsx')),
    'ReportIssuePage',
  ),
});
