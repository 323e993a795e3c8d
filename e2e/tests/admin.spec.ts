import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible } from '../support.ts';

// The blocked-company journey uses a company no other journey signs in with (they run in parallel).
const KSEF_USER = { email: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };
const SHOTS = `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/screenshots`;

async function logIn(page: Page, login: string, password: string) {
  await page.getByLabel('E-mail').fill(login);
  // The label reads 'Password *' (required mark), so match the field itself.
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logInAsAdmin(page: Page) {
  await page.goto('/login');
  await logIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin panel' })).toBeVisible();
}

/**
 * A full-page navigation once the network is quiet. The 20-second access tokens are refreshed in the background,
 * and a navigation that aborts a refresh in flight loses the rotated refresh token: the next page is signed out.
 */
async function gotoWhenIdle(page: Page, path: string) {
  // Bounded: once in CI a request never settled and the wait held the journey until its timeout. A refresh takes
  // milliseconds; past this the navigation goes ahead, and a lost session would fail the next step by name.
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.goto(path);
}

const stored = (page: Page, key: string) => page.evaluate((k) => window.localStorage.getItem(k), key);

function claimsOf(session: string | null): { email?: string; roles?: string[]; impersonator?: { username: string } } {
  const token = (JSON.parse(session ?? '{}') as { accessToken?: string }).accessToken ?? '';
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ReturnType<typeof claimsOf>;
}

/** Every admin screen: its path and the heading that says it is there, in English and Arabic. */
const SCREENS = [
  { path: '/admin', en: 'Companies', ar: 'الشركات' },
  { path: '/admin/users', en: 'Users', ar: 'المستخدمون' },
  { path: '/admin/app-config', en: 'App config', ar: 'إعدادات التطبيق' },
  { path: '/admin/emails', en: 'E-mail log', ar: 'سجل البريد الإلكتروني' },
  { path: '/admin/issue-reports', en: 'Issue reports', ar: 'بلاغات المشكلات' },
  { path: '/admin/audit', en: 'Audit log', ar: 'سجل التدقيق' },
  { path: '/admin/edifact', en: 'UN/EDIFACT directories', ar: 'أدلة UN/EDIFACT' },
] as const;

/** The screens that are lists: cards on a phone, each list named like its heading. */
const LIST_SCREENS = SCREENS.filter((screen) => screen.path !== '/admin/app-config');

test('every admin screen passes axe-core in English and Arabic, on a desktop and a phone', async ({
  page,
  context,
}) => {
  // Seven screens, two languages, two sizes, an axe pass each: minutes on a busy two-core machine.
  test.setTimeout(300_000);
  await logInAsAdmin(page);
  const company = page.getByRole('link', { name: 'Demo Retailer' });
  await expect(company).toBeVisible();
  await company.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Demo Retailer' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Blocked (BLOCKED)' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/en-company.png`, fullPage: true });

  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 2, name: screen.en, exact: true })).toBeVisible();
    await expect(page.getByText('Loading', { exact: true })).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/en${screen.path.replace(/\//g, '-')}.png`, fullPage: true });
  }

  // Followed in the page, not reloaded on top of the click: a load that aborts a token refresh in flight signs the
  // session out (decision 0006).
  await page.getByRole('link', { name: 'E-mail log' }).click();
  await expect(page).toHaveURL(/\/admin\/emails$/);
  await expect(page.getByText('Loading', { exact: true })).toHaveCount(0);
  const firstMail = page.getByTestId('emails-table').getByRole('button').first();
  if (await firstMail.isVisible()) {
    await firstMail.click();
    await expect(page.getByTestId('email-text')).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await gotoWhenIdle(page, '/admin/users');
  await expect(page.getByRole('heading', { level: 2, name: 'Users', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(page.getByRole('link', { name: 'Audit log' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/phone-nav.png`, fullPage: true });
  await page.getByRole('link', { name: 'Companies' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  // Every list stacks its rows as cards on a phone: no table, no sideways scrolling of the page.
  for (const screen of LIST_SCREENS) {
    await gotoWhenIdle(page, screen.path);
    await expect(page.getByRole('heading', { level: 2, name: screen.en, exact: true })).toBeVisible();
    await expect(page.getByText('Loading', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('list', { name: screen.en }).or(page.getByTestId('admin-list-empty'))).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/phone${screen.path.replace(/\//g, '-')}.png`, fullPage: true });
  }
  // The cards work with the keyboard: a company's name is a link, a user's actions a menu.
  await gotoWhenIdle(page, '/admin');
  const companyLink = page.getByRole('list', { name: 'Companies' }).getByRole('link', { name: 'Demo Retailer' });
  await companyLink.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Demo Retailer' })).toBeVisible();
  await gotoWhenIdle(page, '/admin/users');
  await page
    .getByRole('list', { name: 'Users' })
    .getByRole('button', { name: /^More actions for/ })
    .first()
    .focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Send password reset e-mail' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Send password reset e-mail' })).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // At the origin's root: a cookie set for /admin/users would have the path /admin/ and miss /admin.
  await context.addCookies([{ name: 'lang', value: 'ar', url: new URL('/', page.url()).href }]);
  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 2, name: screen.ar, exact: true })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/ar${screen.path.replace(/\//g, '-')}.png`, fullPage: true });
  }
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Demo Retailer' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Demo Retailer' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/ar-company.png`, fullPage: true });
});

test('impersonate a user: their inbox as them, then back to the admin panel', async ({ page }) => {
  await logInAsAdmin(page);
  const adminSession = await stored(page, 'portal.session');
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByLabel('Search users').fill('user@demo.example.com');
  const row = page.locator('[data-testid="user-row"][data-email="user@demo.example.com"]');
  await row.getByRole('button', { name: 'Impersonate Uma User' }).click();
  await page.getByTestId('impersonate-confirm').click();

  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByText('Uma User').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/impersonated-inbox.png`, fullPage: true });
  // The admin's own session waits under the agreed key, the access token is the user's with the impersonator claim.
  expect(await stored(page, 'portal.impersonator-session')).toBe(adminSession);
  const claims = claimsOf(await stored(page, 'portal.session'));
  expect(claims.email).toBe('user@demo.example.com');
  expect(claims.impersonator?.username).toBe(DEMO.admin.email);
  expect(claims.roles ?? []).not.toContain('admin');

  // 'Logout to Admin panel' brings the admin back to the admin area with the admin's own session.
  await expect(page.getByTestId('impersonation-label')).toContainText('Impersonated by');
  await page.getByTestId('logout-to-admin').click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin panel' })).toBeVisible();
  expect(claimsOf(await stored(page, 'portal.session')).email).toBe(DEMO.admin.email);
  expect(await stored(page, 'portal.impersonator-session')).toBeNull();
});

test('a blocked company: its users are refused with the admin message, until it is set back to OK', async ({
  page,
}) => {
  const message = `Please settle invoice FV/${Date.now()} to unblock your account.`;

  async function openDemoKsef() {
    await page.getByRole('link', { name: 'Companies' }).click();
    await page.getByLabel('Search companies').fill('Demo KSeF');
    await expect(page).toHaveURL(/search=Demo/);
    await page.getByRole('link', { name: 'Demo KSeF' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Demo KSeF' })).toBeVisible();
  }

  await logInAsAdmin(page);
  await openDemoKsef();
  await page.getByRole('radio', { name: 'Blocked (BLOCKED)' }).check();
  await page.getByLabel('Message to users').fill(message);
  await page.getByRole('button', { name: 'Save status' }).click();
  await expect(page.getByText('Status set to Blocked.')).toBeVisible();
  await expect(page.getByTestId('company-status').first()).toHaveText('Blocked');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);

  try {
    await logIn(page, KSEF_USER.email, KSEF_USER.password);
    await expect(page.getByTestId('login-blocked')).toContainText('Login failure. Account has been blocked.');
    await page.getByRole('button', { name: 'More' }).click();
    await expect(page.getByTestId('vindication-message')).toHaveText(message);
    await page.keyboard.press('Escape');
  } finally {
    await page.goto('/login');
    if (!/\/admin/.test(page.url())) await logInAsAdmin(page);
    await openDemoKsef();
    await page.getByRole('radio', { name: 'Active (OK)' }).check();
    await page.getByLabel('Message to users').fill('');
    await page.getByRole('button', { name: 'Save status' }).click();
    await expect(page.getByText('Status set to Active.')).toBeVisible();
  }

  await page.getByRole('button', { name: 'Logout' }).click();
  await logIn(page, KSEF_USER.email, KSEF_USER.password);
  await expect(page).toHaveURL(/\/documents\/in$/);
});
