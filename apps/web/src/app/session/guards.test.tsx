import { describe, expect, it } from 'vitest';
import { currentHref, renderApp } from '../../test/render-app.tsx';
import { makeAccessToken } from '../../test/tokens.ts';
import { safeReturnUrl } from './guards.ts';
import type { StoredSession } from './session.ts';

const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;

function storedSession(roles: string[]): StoredSession {
  return {
    accessToken: makeAccessToken({ roles, exp: inFiveMinutes() }),
    refreshToken: 'refresh-1',
    refreshExpiresAt: inFiveMinutes() + 1500,
  };
}

describe('route guards', () => {
  it('sends an anonymous visitor to /login with the requested path as returnUrl', async () => {
    const { router } = await renderApp({ path: '/documents/in?page=2' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toEqual({ returnUrl: '/documents/in?page=2' });
  });

  it('sends a signed-in user away from the guest-only pages to / and on to the inbox', async () => {
    for (const path of ['/login', '/register', '/password-reset', '/set-password?token=abc']) {
      const { router, unmount } = await renderApp({ path, session: storedSession([]) });
      expect(currentHref(router)).toBe('/documents/in');
      unmount();
      window.localStorage.clear();
    }
  });

  it('keeps admins in the admin area and non-admins out of it', async () => {
    const admin = await renderApp({ path: '/documents/in', session: storedSession(['admin']) });
    expect(currentHref(admin.router)).toBe('/admin');
    expect(await admin.screen.findByRole('heading', { level: 1, name: 'Admin panel' })).toBeTruthy();
    admin.unmount();
    window.localStorage.clear();

    const user = await renderApp({ path: '/admin', session: storedSession([]) });
    expect(currentHref(user.router)).toBe('/documents/in');
  });

  it('lands an admin on /admin from the root', async () => {
    const { router } = await renderApp({ path: '/', session: storedSession(['admin']) });
    expect(currentHref(router)).toBe('/admin');
  });
});

describe('safeReturnUrl', () => {
  it('returns in-app paths and never an account page or another site', () => {
    expect(safeReturnUrl('/documents/in?page=2')).toBe('/documents/in?page=2');
    expect(safeReturnUrl(undefined)).toBe('/');
    expect(safeReturnUrl('/register')).toBe('/');
    expect(safeReturnUrl('/password-reset?x=1')).toBe('/');
    expect(safeReturnUrl('/Register/')).toBe('/');
    expect(safeReturnUrl('//evil.example.com')).toBe('/');
    expect(safeReturnUrl('https://evil.example.com')).toBe('/');
    expect(safeReturnUrl('/\\evil.example.com')).toBe('/');
  });
});
