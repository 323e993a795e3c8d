import {
  FEATURE_PERMISSIONS,
  PERMISSION_ENTITLEMENTS,
  type ErrorDetail,
  type FeaturePermission,
  type FeatureToggle,
} from '@portal/contracts';
import { AppError } from '../../lib/app-error.ts';

/** What the rules on granting need to know of the caller: their own permissions and their company's toggles. */
export type Granter = {
  userId: string;
  permissions: readonly FeaturePermission[];
  toggles: readonly FeatureToggle[];
};

const KNOWN = new Set<string>(FEATURE_PERMISSIONS);

/** The permissions of `wanted` the granter does not hold. */
export function notHeld(granter: Granter, wanted: readonly string[]): FeaturePermission[] {
  const held = new Set<string>(granter.permissions);
  return wanted.filter((p): p is FeaturePermission => KNOWN.has(p) && !held.has(p));
}

/**
 * Nobody grants a permission they do not hold themselves: not by adding someone to a group, inviting into one, or
 * giving a group more permissions. Without this, USERS_MODIFY alone was a way to every permission (issue 16, item 5).
 * `groups` are the groups being granted, each with the field that named it.
 */
export function assertMayGrantGroups(
  granter: Granter,
  groups: readonly { field: string; permissions: readonly string[] }[],
): void {
  const details: ErrorDetail[] = [];
  for (const group of groups) {
    const missing = notHeld(granter, group.permissions);
    if (missing.length > 0)
      details.push({ field: group.field, code: 'permissionNotHeld', params: { permissions: missing.join(', ') } });
  }
  if (details.length > 0) throw new AppError('user_management.permission_not_held', { details });
}

/**
 * Permissions added to a group: each held by the granter, and each one the company is entitled to (ETTN needs the
 * company's ETTN toggle, which only a platform admin switches on). `fieldOf` names the field of a permission.
 */
export function assertMayAddPermissions(
  granter: Granter,
  added: readonly FeaturePermission[],
  fieldOf: (permission: FeaturePermission) => string,
): void {
  const toggles = new Set<string>(granter.toggles);
  const unentitled = added.filter((p) => {
    const toggle = PERMISSION_ENTITLEMENTS[p];
    return toggle !== undefined && !toggles.has(toggle);
  });
  if (unentitled.length > 0) {
    throw new AppError('user_management.permission_not_entitled', {
      details: unentitled.map((p) => ({ field: fieldOf(p), code: 'permissionNotEntitled', params: { permission: p } })),
    });
  }
  const missing = notHeld(granter, added);
  if (missing.length > 0) {
    throw new AppError('user_management.permission_not_held', {
      details: missing.map((p) => ({ field: fieldOf(p), code: 'permissionNotHeld', params: { permissions: p } })),
    });
  }
}

/** Nobody changes their own group memberships: someone else of the company has to (issue 16, item 5). */
export function assertNotOwnMembership(granter: Granter, changedUserIds: readonly string[]): void {
  if (changedUserIds.includes(granter.userId)) throw new AppError('user_management.cannot_change_own_groups');
}
