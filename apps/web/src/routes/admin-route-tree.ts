import { adminAppConfigRoute } from './admin-app-config-route.ts';
import { adminAuditRoute } from './admin-audit-route.ts';
import { adminChatRoute } from './admin-chat-route.ts';
import { adminCompaniesRoute } from './admin-companies-route.ts';
import { adminCompanyRoute } from './admin-company-route.ts';
import { adminEdifactRoute } from './admin-edifact-route.ts';
import { adminEmailsRoute } from './admin-emails-route.ts';
import { adminIssueReportsRoute } from './admin-issue-reports-route.ts';
import { adminRoute } from './admin-route.ts';
import { adminUsersRoute } from './admin-users-route.ts';

/** The admin area: its layout route with every admin page. */
export const adminRouteTree = adminRoute.addChildren([
  adminCompaniesRoute,
  adminCompanyRoute,
  adminUsersRoute,
  adminAppConfigRoute,
  adminEmailsRoute,
  adminIssueReportsRoute,
  adminChatRoute,
  adminAuditRoute,
  adminEdifactRoute,
]);
