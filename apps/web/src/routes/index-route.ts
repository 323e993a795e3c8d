import { createRoute, redirect } from '@tanstack/react-router';
import { hasAllRoles, hasPermission, isToggledOn } from '@portal/contracts';
import { isAdmin, requireAuthenticated } from '../app/session/guards.ts';
import { permissionsQuery } from '../app/session/use-permissions.ts';
import { landingPath } from '../features/layout/index.ts';
import { rootRoute } from './root-route.tsx';

/**
 * The root goes to the first page of the navigation the user may open: the inbox for most, the outbox or partners
 * for a user whose groups do not read the inbox; admins to the admin area.
 */
export const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async ({ context, location }) => {
    await requireAuthenticated(context.session, location);
    if (isAdmin(context.session)) throw redirect({ to: '/admin' });
    const { permissions, toggles } = await context.queryClient.ensureQueryData(permissionsQuery(context.api));
    const roles = context.session.getClaims()?.roles ?? [];
    const principal = { roles, permissions, toggles };
    throw redirect({
      to: landingPath({
        can: (permission) => hasPermission(principal, permission),
        hasRole: (role) => hasAllRoles(roles, [role]),
        isOn: (required) => isToggledOn(toggles, required),
      }),
    });
  },
});
