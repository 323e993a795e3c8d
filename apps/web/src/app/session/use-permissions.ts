import { useQuery, queryOptions } from '@tanstack/react-query';
import {
  hasAllRoles,
  hasPermission,
  isToggledOn,
  PermissionsResponseSchema,
  type FeaturePermission,
  type FeatureToggle,
} from '@portal/contracts';
import type { ApiClient } from '../../lib/api-client.ts';
import { useApi } from '../../lib/api-context.tsx';
import { useSessionState } from './session-context.tsx';

export const permissionKeys = { all: ['permissions'] as const };

export function permissionsQuery(api: ApiClient) {
  return queryOptions({
    queryKey: permissionKeys.all,
    queryFn: () => api.get('/users/permissions', PermissionsResponseSchema),
    staleTime: 60_000,
  });
}

export type Permissions = {
  isLoading: boolean;
  roles: readonly string[];
  permissions: readonly FeaturePermission[];
  toggles: readonly FeatureToggle[];
  /** The feature permission is granted (the server checks it again on every call). */
  can: (permission: FeaturePermission) => boolean;
  hasRole: (role: string) => boolean;
  /** Shown when any of the toggles is on, always when none is named (description, section 6). */
  isOn: (toggles?: readonly FeatureToggle[]) => boolean;
  impersonator: string | undefined;
};

/** What the signed-in user may do: roles from the token, permissions and toggles from the server. */
export function usePermissions(): Permissions {
  const api = useApi();
  const state = useSessionState();
  const authenticated = state.status === 'authenticated';
  const query = useQuery({ ...permissionsQuery(api), enabled: authenticated });
  const roles = authenticated ? state.claims.roles : [];
  const permissions = query.data?.permissions ?? [];
  const toggles = query.data?.toggles ?? [];
  const principal = { roles, permissions, toggles };
  return {
    isLoading: query.isLoading,
    roles,
    permissions,
    toggles,
    can: (p) => hasPermission(principal, p),
    hasRole: (role) => hasAllRoles(roles, [role]),
    isOn: (required) => isToggledOn(toggles, required),
    impersonator: authenticated ? state.claims.impersonator?.username : undefined,
  };
}
