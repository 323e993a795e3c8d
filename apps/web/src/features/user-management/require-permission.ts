import { redirect } from '@tanstack/react-router';
import { hasPermission, type FeaturePermission } from '@portal/contracts';
import type { RouterContext } from '../../routes/router-context.ts';
import { permissionsQuery } from '../permissions/use-permissions.ts';

/** Route guard: without the feature permission the user goes to / (the server refuses the calls anyway). */
export async function requirePermission(context: RouterContext, permission: FeaturePermission): Promise<void> {
  const { permissions, toggles } = await context.queryClient.ensureQueryData(permissionsQuery(context.api));
  const roles = context.session.getClaims()?.roles ?? [];
  if (!hasPermission({ roles, permissions, toggles }, permission)) throw redirect({ to: '/' });
}
