import { createRoute, redirect } from '@tanstack/react-router';
import { requireAuthenticated } from '../app/session/guards.ts';
import { rootRoute } from './root-route.tsx';

/** The root goes to the inbox; the inbox's own guard keeps admins in the admin area. */
export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async ({ context, location }) => {
    await requireAuthenticated(context.session, location);
    throw redirect({ to: '/documents/in' });
  },
});
