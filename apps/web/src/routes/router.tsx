import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { PageLoader } from '../components/page-loader.tsx';
import { RouteErrorPage } from '../components/route-error-page.tsx';
import { adminRouteTree } from './admin-route-tree.ts';
import { appLayoutRoute } from './app-layout-route.tsx';
import { addressBookRoute } from './address-book-route.ts';
import { documentValidationRoute } from './document-validation-route.ts';
import { draftRoute } from './drafts-route.ts';
import { ettnNewRoute, ettnNoteRoute, ettnPendingNoteRoute, ettnPendingRoute, ettnRoute } from './ettn-route.ts';
import { groupsRoute } from './groups-route.ts';
import {
  documentPageRoute,
  documentsInRoute,
  documentsOutRoute,
  documentsRoute,
  inboxDocumentRoute,
  outboxDocumentRoute,
} from './documents-in-route.ts';
import { helpRoute } from './help-route.ts';
import { indexRoute } from './index-route.ts';
import { loginRoute } from './login-route.ts';
import { partnerRoute, partnersRoute } from './partners-route.ts';
import { passwordResetRoute } from './password-reset-route.ts';
import { productsRoute } from './products-route.ts';
import { profileRoute } from './profile-route.ts';
import { registerRoute } from './register-route.ts';
import { reportIssueRoute } from './report-issue-route.ts';
import { restrictionsRoute } from './restrictions-route.ts';
import { rootRoute } from './root-route.tsx';
import type { RouterContext } from './router-context.ts';
import { setPasswordRoute } from './set-password-route.ts';
import { usersRoute } from './users-route.ts';

export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  registerRoute,
  passwordResetRoute,
  setPasswordRoute,
  // The signed-in area of business users; its pages are listed here.
  appLayoutRoute.addChildren([
    documentsRoute,
    documentsInRoute.addChildren([inboxDocumentRoute]),
    documentsOutRoute.addChildren([outboxDocumentRoute]),
    documentPageRoute,
    draftRoute,
    profileRoute,
    usersRoute,
    groupsRoute,
    restrictionsRoute,
    documentValidationRoute,
    helpRoute,
    reportIssueRoute,
    addressBookRoute,
    productsRoute,
    partnersRoute,
    partnerRoute,
    ettnRoute.addChildren([ettnNoteRoute]),
    ettnPendingRoute.addChildren([ettnPendingNoteRoute]),
    ettnNewRoute,
  ]),
  adminRouteTree,
]);

export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    defaultPendingComponent: PageLoader,
    defaultErrorComponent: RouteErrorPage,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting the router's interface
  interface Register {
    router: AppRouter;
  }
}
