import { z } from 'zod';

/** Application roles carried in the access token (description, section 6). */
export const ROLES = ['admin', 'developer', 'demo', 'demo-ksef', 'ettn', 'chat-ai'] as const;
export type Role = (typeof ROLES)[number];

/** Feature permissions, granted to users through their groups (description, section 6). */
export const FEATURE_PERMISSIONS = [
  'ETTN',
  'INBOX_READ',
  'INBOX_MODIFY',
  'OUTBOX_READ',
  'OUTBOX_CREATE',
  'OUTBOX_MODIFY',
  'OUTBOX_SEND',
  'ADDRESS_BOOK_READ',
  'ADDRESS_BOOK_MODIFY',
  'PARTNERS_READ',
  'PARTNERS_NOTIFICATIONS',
  'DOCUMENT_VALIDATION_READ',
  'DOCUMENT_VALIDATION_CREATE',
  'USER_PROFILE_READ',
  'USER_PROFILE_MODIFY',
  'COMPANY_PROFILE_READ',
  'COMPANY_PROFILE_MODIFY',
  'REPORT_ISSUE',
  'USERS_READ',
  'USERS_MODIFY',
  'GROUPS_READ',
  'GROUPS_MODIFY',
  'RESTRICTIONS_READ',
  'RESTRICTIONS_MODIFY',
] as const;
export type FeaturePermission = (typeof FEATURE_PERMISSIONS)[number];
export const FeaturePermissionSchema = z.enum(FEATURE_PERMISSIONS);

/** Feature toggles, switched on per company (description, section 6, "extra toggles"). */
export const FEATURE_TOGGLES = [
  'KSEF',
  'DEMO_KSEF',
  'DEMO_KSEF_SIEMENS',
  'DEMO_PDP_FR',
  'FACE_ES',
  'ENRICHMENT',
  'CEN_OUTBOX',
  'CHAT_AI',
  /** The company may use e-TTN: only then may its administrators grant the ETTN permission. */
  'ETTN',
] as const;
export type FeatureToggle = (typeof FEATURE_TOGGLES)[number];
export const FeatureToggleSchema = z.enum(FEATURE_TOGGLES);

/** Permissions a company must be entitled to (by a toggle an admin switches on) before its groups may grant them. */
export const PERMISSION_ENTITLEMENTS: Partial<Record<FeaturePermission, FeatureToggle>> = { ETTN: 'ETTN' };

export const PermissionsResponseSchema = z.object({
  permissions: z.array(FeaturePermissionSchema),
  toggles: z.array(FeatureToggleSchema),
});
export type PermissionsResponse = z.infer<typeof PermissionsResponseSchema>;

/** What the server and the web app know about the caller; enough to decide what it may do. */
export type Principal = {
  roles: readonly string[];
  permissions: readonly FeaturePermission[];
  toggles: readonly FeatureToggle[];
};

/** The one place that decides whether a principal holds a feature permission. */
export function hasPermission(principal: Principal, permission: FeaturePermission): boolean {
  return principal.permissions.includes(permission);
}

/** True when every required role is held (route guards demand all of their roles). */
export function hasAllRoles(roles: readonly string[], required: readonly string[]): boolean {
  return required.every((role) => roles.includes(role));
}

/** An element is shown when any of its toggles is on, and always when it names none (section 6). */
export function isToggledOn(
  toggles: readonly FeatureToggle[],
  required: readonly FeatureToggle[] | undefined,
): boolean {
  return !required || required.length === 0 || required.some((t) => toggles.includes(t));
}
