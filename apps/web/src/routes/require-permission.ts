import { redirect } from '@tanstack/react-router';
import { hasPermission, type FeaturePermission } from '@portal/contracts';
import { permissionsQuery } from '../app/session/use-permissions.ts';
import type { RouterContext } from './router-context.ts';

/**
 * Guard of a permission-gated page under the signed-in layout: without the feature permission (or with a role that
 * hides the page) the user goes to /. The server refuses the page's calls either way.
 */
export async function requirePermission(
  context: RouterContext,
  permission: FeaturePermission,
  options: { role?: string; hiddenForRole?: string } = {},
): Promise<void> {
  const { permissions, toggles } = await context.queryClient.ensureQueryData(permissionsQuery(context.api));
  const roles = context.session.getClaims()?.roles ?? [];
  const allowed =
    hasPermission({ roles, permissions, toggles }, permission) &&
    (!options.role || roles.includes(options.role)) &&
    (!options.hiddenForRole || !roles.includes(options.hiddenForRole));
  if (!allowed) throw redirect({ to: '/' });
}
