import type { FeaturePermission } from '@portal/contracts';
import type catalog from '@portal/i18n/locales/en/user-management.json';

/** An area named in the catalog (`permissions.areas.<area>`), so the checklist's legend is a typed key. */
type PermissionArea = keyof (typeof catalog)['permissions']['areas'];

/** The feature permissions of contracts grouped by the area of the portal they open, for the group checklist. */
export const PERMISSION_AREAS: readonly { area: PermissionArea; permissions: readonly FeaturePermission[] }[] = [
  { area: 'inbox', permissions: ['INBOX_READ', 'INBOX_MODIFY'] },
  { area: 'outbox', permissions: ['OUTBOX_READ', 'OUTBOX_CREATE', 'OUTBOX_MODIFY', 'OUTBOX_SEND'] },
  { area: 'addressBook', permissions: ['ADDRESS_BOOK_READ', 'ADDRESS_BOOK_MODIFY'] },
  { area: 'partners', permissions: ['PARTNERS_READ', 'PARTNERS_NOTIFICATIONS'] },
  { area: 'documentValidation', permissions: ['DOCUMENT_VALIDATION_READ', 'DOCUMENT_VALIDATION_CREATE'] },
  { area: 'ettn', permissions: ['ETTN'] },
  {
    area: 'profile',
    permissions: ['USER_PROFILE_READ', 'USER_PROFILE_MODIFY', 'COMPANY_PROFILE_READ', 'COMPANY_PROFILE_MODIFY'],
  },
  { area: 'support', permissions: ['REPORT_ISSUE'] },
  {
    area: 'userManagement',
    permissions: [
      'USERS_READ',
      'USERS_MODIFY',
      'GROUPS_READ',
      'GROUPS_MODIFY',
      'RESTRICTIONS_READ',
      'RESTRICTIONS_MODIFY',
    ],
  },
];
