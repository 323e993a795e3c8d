import type { FeaturePermission, FeatureToggle } from '@portal/contracts';

/** What the navigation needs to know about the user; `usePermissions()` provides it. */
export type NavigationAccess = {
  can: (permission: FeaturePermission) => boolean;
  hasRole: (role: string) => boolean;
  isOn: (toggles?: readonly FeatureToggle[]) => boolean;
};

/** Label keys of the `layout` namespace (`nav.<key>`). */
export type NavLabel =
  | 'inbox'
  | 'outbox'
  | 'addressBook'
  | 'products'
  | 'partners'
  | 'documentValidation'
  | 'userManagement'
  | 'users'
  | 'groups'
  | 'restrictions'
  | 'help'
  | 'ettn'
  | 'ettnRegistered'
  | 'ettnPending'
  | 'profile'
  | 'reportIssue';

export type NavLinkEntry = { kind: 'link'; id: NavLabel; to: string };
export type NavGroupEntry = { kind: 'group'; id: NavLabel; children: NavLinkEntry[] };
/** Help opens the /help dialog over the current page instead of navigating away from it. */
export type NavHelpEntry = { kind: 'help'; id: 'help' };
export type NavEntry = NavLinkEntry | NavGroupEntry | NavHelpEntry;

type Rule = {
  permission?: FeaturePermission;
  role?: string;
  hiddenForRole?: string;
  toggles?: readonly FeatureToggle[];
};

/** An entry is shown when its permission and role are held, its toggles allow it, and the role hiding it is not held. */
function allowed(access: NavigationAccess, rule: Rule): boolean {
  if (rule.permission && !access.can(rule.permission)) return false;
  if (rule.role && !access.hasRole(rule.role)) return false;
  if (rule.hiddenForRole && access.hasRole(rule.hiddenForRole)) return false;
  return access.isOn(rule.toggles);
}

type LinkSpec = { id: NavLabel; to: string } & Rule;

const MAIN_LINKS: readonly LinkSpec[] = [
  { id: 'inbox', to: '/documents/in', permission: 'INBOX_READ' },
  { id: 'outbox', to: '/documents/out', permission: 'OUTBOX_READ' },
  { id: 'addressBook', to: '/address-book', permission: 'ADDRESS_BOOK_READ', hiddenForRole: 'demo' },
  // No products permission yet: the catalogue fills outgoing documents, so it goes with creating them.
  { id: 'products', to: '/products', permission: 'OUTBOX_CREATE' },
  { id: 'partners', to: '/partners', permission: 'PARTNERS_READ' },
  { id: 'documentValidation', to: '/document-validation', permission: 'DOCUMENT_VALIDATION_READ' },
];

const USER_MANAGEMENT: readonly LinkSpec[] = [
  { id: 'users', to: '/users', permission: 'USERS_READ' },
  { id: 'groups', to: '/groups', permission: 'GROUPS_READ' },
  { id: 'restrictions', to: '/restrictions', permission: 'RESTRICTIONS_READ' },
];

/** The e-TTN module: role ettn and the e-TTN feature permission. */
const ETTN_RULE: Rule = { role: 'ettn', permission: 'ETTN' };
const ETTN_LINKS: readonly LinkSpec[] = [
  { id: 'ettnRegistered', to: '/ettn' },
  { id: 'ettnPending', to: '/ettn/pending' },
];

const USER_MENU: readonly LinkSpec[] = [
  { id: 'profile', to: '/profile', permission: 'USER_PROFILE_READ', hiddenForRole: 'demo' },
  { id: 'reportIssue', to: '/report-issue', permission: 'REPORT_ISSUE' },
];

function links(access: NavigationAccess, specs: readonly LinkSpec[]): NavLinkEntry[] {
  return specs.filter((spec) => allowed(access, spec)).map(({ id, to }) => ({ kind: 'link', id, to }));
}

/** The left navigation of the main layout (description, section 2), in order, with only what the user may see. */
export function buildNavigation(access: NavigationAccess): NavEntry[] {
  const entries: NavEntry[] = [...links(access, MAIN_LINKS)];
  const management = links(access, USER_MANAGEMENT);
  if (management.length > 0) entries.push({ kind: 'group', id: 'userManagement', children: management });
  entries.push({ kind: 'help', id: 'help' });
  if (allowed(access, ETTN_RULE)) entries.push({ kind: 'group', id: 'ettn', children: links(access, ETTN_LINKS) });
  return entries;
}

/** The entries under the user-name entry, before Logout (which every signed-in user has). */
export function buildUserMenu(access: NavigationAccess): NavLinkEntry[] {
  return links(access, USER_MENU);
}

/** The entry a path belongs to: the longest `to` that is the path or a parent of it. */
export function findActivePath(pathname: string, paths: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const path of paths) {
    if ((pathname === path || pathname.startsWith(`${path}/`)) && (!best || path.length > best.length)) best = path;
  }
  return best;
}

/**
 * Where the start page (/) leads: the first page of the navigation the user may open, in its order (the inbox for
 * most), then the user menu's; the inbox when there is none, which says that its list may not be read.
 */
export function landingPath(access: NavigationAccess): string {
  for (const entry of [...buildNavigation(access), ...buildUserMenu(access)]) {
    if (entry.kind === 'link') return entry.to;
    if (entry.kind === 'group' && entry.children[0]) return entry.children[0].to;
  }
  return '/documents/in';
}
