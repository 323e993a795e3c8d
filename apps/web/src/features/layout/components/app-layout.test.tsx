import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FEATURE_PERMISSIONS, type AccessTokenClaims, type FeaturePermission } from '@portal/contracts';
import {
  IMPERSONATOR_SESSION_STORAGE_KEY,
  SESSION_STORAGE_KEY,
  type StoredSession,
} from '../../../app/session/session.ts';
import { showSuccess } from '../../../lib/notify.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { LOGIN_TOAST_ID } from '../../../app/session/session-watcher.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { FIRST_TIME_STORAGE_KEY } from './demo-ksef.tsx';

const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;

function stored(claims: Partial<AccessTokenClaims> = {}, refreshToken = 'refresh-user'): StoredSession {
  return {
    accessToken: makeAccessToken({ exp: inFiveMinutes(), ...claims }),
    refreshToken,
    refreshExpiresAt: inFiveMinutes() + 1500,
  };
}

const ALL = [...FEATURE_PERMISSIONS];

async function renderLayout(options: {
  roles?: string[];
  permissions?: FeaturePermission[];
  path?: string;
  claims?: Partial<AccessTokenClaims>;
  routes?: Parameters<typeof renderApp>[0]['routes'];
}) {
  return renderApp({
    path: options.path ?? '/documents/in',
    session: stored({ roles: options.roles ?? [], ...options.claims }),
    routes: {
      'GET /api/users/permissions': { body: { permissions: options.permissions ?? ALL, toggles: [] } },
      ...options.routes,
    },
  });
}

/** The visible labels of the navigation's top level and of the user menu once expanded. */
async function navigationLabels(app: Awaited<ReturnType<typeof renderApp>>) {
  const nav = await app.screen.findByTestId('main-navigation');
  await waitFor(() => expect(within(nav).getByTestId('nav-help')).toBeTruthy());
  const top = Array.from(nav.querySelectorAll(':scope > li > [data-testid]')).map((el) => el.textContent?.trim());
  await app.user.click(app.screen.getByTestId('user-menu'));
  const userMenu = Array.from(
    app.screen.getByTestId('user-menu').parentElement?.querySelectorAll('li [data-testid]') ?? [],
  ).map((el) => el.textContent?.trim());
  return { top, userMenu };
}

describe('main layout navigation', () => {
  it('shows a user with every permission all areas, User management with its three entries, and the user menu', async () => {
    const app = await renderLayout({ permissions: ALL });
    const { top, userMenu } = await navigationLabels(app);
    expect(top).toEqual([
      'Inbox',
      'Outbox',
      'Address book',
      'Products',
      'Partners',
      'Document validation',
      'User management',
      'Help',
    ]);
    expect(userMenu).toEqual(['Profile', 'Report an issue', 'Logout']);
    await app.user.click(app.screen.getByTestId('nav-userManagement'));
    expect(app.screen.getByTestId('nav-users').getAttribute('href')).toBe('/users');
    expect(app.screen.getByTestId('nav-groups').getAttribute('href')).toBe('/groups');
    expect(app.screen.getByTestId('nav-restrictions').getAttribute('href')).toBe('/restrictions');
    expect(app.screen.getByTestId('user-menu').textContent).toContain('Uma User');
  });

  it('marks the current page and keeps User management open on one of its pages', async () => {
    const app = await renderLayout({ permissions: ALL });
    const inbox = await app.screen.findByTestId('nav-inbox');
    expect(inbox.getAttribute('aria-current')).toBe('page');
    expect(app.screen.getByTestId('nav-outbox').getAttribute('aria-current')).toBeNull();
    await app.user.click(app.screen.getByTestId('nav-outbox'));
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/out'));
    expect(app.screen.getByTestId('nav-outbox').getAttribute('aria-current')).toBe('page');
    expect(await app.screen.findByRole('heading', { name: 'Outbox', level: 1 })).toBeTruthy();
  });

  it('gives a clerk who may only read the inbox just Inbox, Help and the user menu with Logout', async () => {
    const app = await renderLayout({ permissions: ['INBOX_READ'] });
    const { top, userMenu } = await navigationLabels(app);
    expect(top).toEqual(['Inbox', 'Help']);
    expect(userMenu).toEqual(['Logout']);
  });

  it('hides Address book and Profile for role demo', async () => {
    const app = await renderLayout({ roles: ['demo'], permissions: ALL });
    const { top, userMenu } = await navigationLabels(app);
    expect(top).not.toContain('Address book');
    expect(top).toContain('Outbox');
    expect(userMenu).toEqual(['Report an issue', 'Logout']);
  });

  it('shows e-TTN with Registered and Pending only with role ettn', async () => {
    const app = await renderLayout({ roles: ['ettn'], permissions: ALL });
    const { top } = await navigationLabels(app);
    expect(top).toContain('e-TTN');
    await app.user.click(app.screen.getByTestId('nav-ettn'));
    expect(app.screen.getByTestId('nav-ettnRegistered').getAttribute('href')).toBe('/ettn');
    expect(app.screen.getByTestId('nav-ettnPending').getAttribute('href')).toBe('/ettn/pending');
  });

  it('never shows the layout to an admin (kept in the admin area)', async () => {
    const app = await renderLayout({ roles: ['admin'] });
    expect(currentHref(app.router)).toBe('/admin');
    expect(app.screen.queryByTestId('main-navigation')).toBeNull();
  });

  it('leads /documents, an address people type, to the inbox', async () => {
    const app = await renderLayout({ permissions: ['INBOX_READ'], path: '/documents' });
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
    expect(app.screen.queryByText(/not found/i)).toBeNull();
  });

  it('starts each user on the first page the navigation offers them', async () => {
    const everyone = await renderLayout({ permissions: ALL, path: '/' });
    await waitFor(() => expect(currentHref(everyone.router)).toBe('/documents/in'));
    const sender = await renderLayout({ permissions: ['OUTBOX_READ', 'PARTNERS_READ'], path: '/' });
    await waitFor(() => expect(currentHref(sender.router)).toBe('/documents/out'));
    const partners = await renderLayout({ permissions: ['PARTNERS_READ', 'USER_PROFILE_READ'], path: '/' });
    await waitFor(() => expect(currentHref(partners.router)).toBe('/partners'));
    const manager = await renderLayout({ permissions: ['GROUPS_READ'], path: '/' });
    await waitFor(() => expect(currentHref(manager.router)).toBe('/groups'));
    // Nothing to open: the inbox, which says its list may not be read, rather than a loop.
    const nobody = await renderLayout({ permissions: [], path: '/' });
    await waitFor(() => expect(currentHref(nobody.router)).toBe('/documents/in'));
  });

  it('sends a user without the permission away from a gated page', async () => {
    const app = await renderLayout({ permissions: ['INBOX_READ'], path: '/documents/out' });
    expect(currentHref(app.router)).toBe('/documents/in');
    const demo = await renderLayout({ roles: ['demo'], permissions: ALL, path: '/address-book' });
    expect(currentHref(demo.router)).toBe('/documents/in');
  });

  it("asks 'Unsaved changes' before every logout (description): Stay keeps the session, Leave ends it", async () => {
    const app = await renderLayout({ permissions: ['INBOX_READ'] });
    // The greeting of a login a moment ago; it must not outlive the session on the login page.
    showSuccess({ id: LOGIN_TOAST_ID, message: 'You have logged in successfully.' });
    expect(await app.screen.findByText('You have logged in successfully.')).toBeTruthy();
    await app.user.click(await app.screen.findByTestId('user-menu'));
    await app.user.click(app.screen.getByTestId('nav-logout'));
    const dialog = await app.screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(dialog.textContent).toContain('Your changes will not be saved. Do you want to leave this site?');
    await app.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(app.screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(currentHref(app.router)).toBe('/documents/in');
    expect(app.api.calls.some((c) => c.path === '/api/users/logout')).toBe(false);

    await app.user.click(app.screen.getByTestId('user-menu'));
    await app.user.click(app.screen.getByTestId('nav-logout'));
    await app.user.click(
      within(await app.screen.findByRole('dialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() => expect(currentHref(app.router)).toBe('/login'));
    expect(app.api.calls.some((c) => c.path === '/api/users/logout')).toBe(true);
    await waitFor(() => expect(app.screen.queryByText('You have logged in successfully.')).toBeNull());
  });
});

describe('impersonation', () => {
  it("labels the session and 'Logout to Admin panel' ends it, restores the admin's tokens and opens /admin", async () => {
    const admin = stored(
      { roles: ['admin'], email: 'admin@demo.example.com', given_name: 'Ada', family_name: 'Admin' },
      'refresh-admin',
    );
    window.localStorage.setItem(IMPERSONATOR_SESSION_STORAGE_KEY, JSON.stringify(admin));
    const app = await renderLayout({
      permissions: ['INBOX_READ'],
      claims: { impersonator: { username: 'admin@demo.example.com' } },
      routes: { 'POST /api/users/endImpersonation': { body: { success: true } } },
    });
    const label = await app.screen.findByTestId('impersonation-label');
    expect(label.textContent).toContain('Impersonated by');
    expect(label.textContent).toContain('admin@demo.example.com');
    await app.user.click(app.screen.getByRole('button', { name: 'Logout to Admin panel' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/admin'));
    const end = app.api.calls.find((c) => c.path === '/api/users/endImpersonation');
    expect(end?.body).toEqual({ refreshToken: 'refresh-user' });
    expect(JSON.parse(window.localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}')).toEqual(admin);
    expect(window.localStorage.getItem(IMPERSONATOR_SESSION_STORAGE_KEY)).toBeNull();
    expect(app.api.calls.some((c) => c.path === '/api/users/logout')).toBe(false);
  });

  it('shows no label without an impersonator', async () => {
    const app = await renderLayout({ permissions: ['INBOX_READ'] });
    await app.screen.findByTestId('main-navigation');
    expect(app.screen.queryByTestId('impersonation-label')).toBeNull();
    expect(app.screen.queryByRole('button', { name: 'Logout to Admin panel' })).toBeNull();
  });
});

describe('demo-ksef', () => {
  it('shows the banner with its external link and the first-time manual after a second; closing sets FIRST_TIME', async () => {
    const app = await renderLayout({ roles: ['demo-ksef'], permissions: ALL });
    const banner = await app.screen.findByTestId('demo-ksef-banner');
    expect(within(banner).getByRole('link').getAttribute('href')).toBe('https://ksef.podatki.gov.pl/');
    expect(app.screen.queryByRole('dialog', { name: 'Welcome to the KSeF demo' })).toBeNull();
    const dialog = await app.screen.findByRole('dialog', { name: 'Welcome to the KSeF demo' }, { timeout: 3000 });
    await app.user.click(within(dialog).getByRole('button', { name: 'Got it' }));
    expect(window.localStorage.getItem(FIRST_TIME_STORAGE_KEY)).toBe('true');
  });

  it('does not show the manual when FIRST_TIME is true, nor the banner to other roles', async () => {
    window.localStorage.setItem(FIRST_TIME_STORAGE_KEY, 'true');
    const app = await renderLayout({ roles: ['demo-ksef'], permissions: ALL });
    await app.screen.findByTestId('demo-ksef-banner');
    await new Promise((r) => setTimeout(r, 1300));
    expect(app.screen.queryByRole('dialog', { name: 'Welcome to the KSeF demo' })).toBeNull();
    app.unmount();
    const other = await renderLayout({ permissions: ALL });
    await other.screen.findByTestId('main-navigation');
    expect(other.screen.queryByTestId('demo-ksef-banner')).toBeNull();
  });
});

/** The company's e-TTN registrations: one alias active, one with its subscription ending in 10 days, one expired. */
function aliasRegistration() {
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
  const alias = (value: string, registered: number, expires: number) => ({
    qualifier: 'EDRPOU',
    value,
    registeredAt: inDays(registered),
    expiresAt: inDays(expires),
    isRegistered: expires > 0,
  });
  return {
    aliases: [alias('32855961', -200, 165), alias('14360570', -355, 10), alias('00032129', -400, -35)],
    subscriptions: [
      {
        id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
        aliasQualifier: 'EDRPOU',
        aliasValue: '14360570',
        startDate: inDays(-355),
        expiresAt: inDays(10),
        expired: false,
      },
    ],
    expiresSoon: inDays(10) as string | null,
  };
}

describe('the e-TTN expiry dialog', () => {
  const ETTN = { roles: ['ettn', 'ETTN_CZ'], permissions: ALL };
  const aliases = (expiresSoon: boolean) => ({
    'POST /api/ettns/aliasRegistrationGet': {
      body: expiresSoon ? aliasRegistration() : { ...aliasRegistration(), expiresSoon: null },
    },
  });

  it('says which registration expires within 14 days, two seconds after login, and leads to the profile to renew', async () => {
    const app = await renderLayout({ ...ETTN, routes: aliases(true) });
    await app.screen.findByTestId('main-navigation');
    expect(app.screen.queryByRole('dialog', { name: 'e-TTN registration expires soon' })).toBeNull();
    const dialog = await app.screen.findByRole(
      'dialog',
      { name: 'e-TTN registration expires soon' },
      { timeout: 4000 },
    );
    // The alias and the subscription ending in 10 days; neither the active one in 165 days nor the expired one.
    const items = within(dialog)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual([
      expect.stringMatching(/^EDRPOU alias 14360570: expires /),
      expect.stringMatching(/^Event subscription for EDRPOU 14360570: expires /),
    ]);
    await app.user.click(within(dialog).getByRole('button', { name: 'Open e-TTN subscriptions' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/profile?panel=ettn-subscriptions'));
  });

  it('shows once a day per user, and not at all when nothing expires soon', async () => {
    const first = await renderLayout({ ...ETTN, routes: aliases(true) });
    const dialog = await first.screen.findByRole('dialog', {}, { timeout: 4000 });
    await first.user.click(within(dialog).getByRole('button', { name: 'Later' }));
    first.unmount();
    const again = await renderLayout({ ...ETTN, routes: aliases(true) });
    await again.screen.findByTestId('main-navigation');
    await new Promise((r) => setTimeout(r, 2300));
    expect(again.screen.queryByRole('dialog')).toBeNull();
    again.unmount();
    window.localStorage.clear();
    let asked = 0;
    const none = await renderLayout({
      ...ETTN,
      routes: {
        'POST /api/ettns/aliasRegistrationGet': () => {
          asked += 1;
          return { body: { ...aliasRegistration(), expiresSoon: null } };
        },
      },
    });
    await waitFor(() => expect(asked).toBe(1), { timeout: 4000 });
    expect(none.screen.queryByRole('dialog')).toBeNull();
  });

  it('waits for the first-time manual of demo-ksef and checks one second after it closes', async () => {
    const app = await renderLayout({ ...ETTN, roles: ['demo-ksef', ...ETTN.roles], routes: aliases(true) });
    const manual = await app.screen.findByRole('dialog', { name: 'Welcome to the KSeF demo' }, { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 2000));
    expect(app.screen.queryByRole('dialog', { name: 'e-TTN registration expires soon' })).toBeNull();
    await app.user.click(within(manual).getByRole('button', { name: 'Got it' }));
    await app.screen.findByRole('dialog', { name: 'e-TTN registration expires soon' }, { timeout: 3000 });
  });
});
