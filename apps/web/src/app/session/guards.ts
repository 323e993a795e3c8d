import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { hasAllRoles } from '@portal/contracts';
import type { Session } from './session.ts';

/** The route guards of the description, section 2. Each throws a redirect or returns. */

export const ADMIN_ROLE = 'admin';

/** Pages a user must never be sent back to after logging in. */
const NO_RETURN_PATHS = new Set(['/login', '/register', '/password-reset', '/set-password']);

/** Authenticated-route guard: anonymous visitors go to /login keeping the requested path; all roles are required. */
export async function requireAuthenticated(
  session: Session,
  location: Pick<ParsedLocation, 'href'>,
  requiredRoles: readonly string[] = [],
): Promise<void> {
  if (!(await session.ensureFresh())) {
    throw redirect({ to: '/login', search: { returnUrl: location.href } });
  }
  if (!hasAllRoles(session.getClaims()?.roles ?? [], requiredRoles)) throw redirect({ to: '/' });
}

/** Guest-only guard (login, register, password reset, set password): a signed-in user goes to /. */
export async function requireGuest(session: Session): Promise<void> {
  if (session.getState().status === 'authenticated' && (await session.ensureFresh())) throw redirect({ to: '/' });
}

export function isAdmin(session: Session): boolean {
  return session.getClaims()?.roles.includes(ADMIN_ROLE) ?? false;
}

/** Admin guard: non-admins go to /. Runs after the authenticated guard. */
export function requireAdmin(session: Session): void {
  if (!isAdmin(session)) throw redirect({ to: '/' });
}

/** Non-admin guard: admins are kept in the admin area. */
export function requireNonAdmin(session: Session): void {
  if (isAdmin(session)) throw redirect({ to: '/admin' });
}

/**
 * Where to go after login: the requested in-app path, never an account page (register, password reset, …) and never
 * another site (`//host`, `/\host` or an absolute URL would be an open redirect).
 */
export function safeReturnUrl(returnUrl: string | undefined): string {
  if (!returnUrl || !returnUrl.startsWith('/') || returnUrl.startsWith('//') || returnUrl.startsWith('/\\')) return '/';
  const path = returnUrl.split(/[?#]/)[0] ?? '/';
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return NO_RETURN_PATHS.has(normalized.toLowerCase()) ? '/' : returnUrl;
}
