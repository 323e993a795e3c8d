import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible } from '../support.ts';

const ACCOUNTS = {
  user: DEMO.user,
  clerk: { email: 'clerk@demo.example.com', password: 'Clerk#Demo2026' },
  demo: { email: 'demo@demo.example.com', password: 'Demo#Demo2026' },
  admin: DEMO.admin,
};
/** Screenshots to look at (desktop, phone width, Arabic); outside the repository. */
const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;

async function logIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(account.email);
  await page.locator('input[type="password"]').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * The login's success toast has a close button without a name (lib/notify.ts, reported to its owner): let it go
 * before checking the page with axe.
 */
async function afterToasts(page: Page) {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
}

/** Logout asks 'Unsaved changes' every time (description, section 2): leave. */
async function leave(page: Page) {
  await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Leave' }).click();
}

/** The labels of the navigation's top level, and of the user menu once opened. */
async function navigation(page: Page) {
  const nav = page.getByTestId('main-navigation');
  await expect(nav.getByTestId('nav-help')).toBeVisible();
  const top = await nav.locator(':scope > li > [data-testid]').allInnerTexts();
  await page.getByTestId('user-menu').click();
  const menu = page.getByTestId('user-menu').locator('xpath=..').locator('li [data-testid]');
  await expect(menu.last()).toBeVisible();
  return { top: top.map((t) => t.trim()), userMenu: (await menu.allInnerTexts()).map((t) => t.trim()) };
}

test('the navigation follows the permissions and roles: user, clerk, demo; admins stay in the admin area', async ({
  page,
}) => {
  await logIn(page, ACCOUNTS.user);
  await expect(page).toHaveURL(/\/documents\/in$/);
  const user = await navigation(page);
  expect(user.top).toEqual([
    'Inbox',
    'Outbox',
    'Address book',
    'Products',
    'Partners',
    'Document validation',
    'User management',
    'Help',
    // user@ is Demo Supplier's e-TTN consignor (role ettn, ETTN_CZ; the ETTN permission).
    'e-TTN',
  ]);
  expect(user.userMenu).toEqual(['Profile', 'Report an issue', 'Logout']);
  await page.getByTestId('nav-userManagement').click();
  await expect(page.getByTestId('nav-users')).toBeVisible();
  await expect(page.getByTestId('nav-groups')).toBeVisible();
  await expect(page.getByTestId('nav-restrictions')).toBeVisible();
  await expect(page.getByTestId('nav-ettn')).toHaveCount(1);
  // The navigation marks the page it opened.
  await page.getByTestId('nav-outbox').click();
  await expect(page).toHaveURL(/\/documents\/out$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await expect(page.getByTestId('nav-outbox')).toHaveAttribute('aria-current', 'page');
  await page.getByTestId('nav-logout').click();
  await leave(page);
  await expect(page).toHaveURL(/\/login/);

  await logIn(page, ACCOUNTS.clerk);
  await expect(page).toHaveURL(/\/documents\/in$/);
  const clerk = await navigation(page);
  expect(clerk.top).toEqual(['Inbox', 'Help']);
  expect(clerk.userMenu).toEqual(['Logout']);
  // Typed addresses of areas without the permission lead back to the start.
  await page.goto('/documents/out');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-logout').click();
  await leave(page);
  await expect(page).toHaveURL(/\/login/);

  await logIn(page, ACCOUNTS.demo);
  await expect(page).toHaveURL(/\/documents\/in$/);
  const demo = await navigation(page);
  expect(demo.top).toEqual([
    'Inbox',
    'Outbox',
    'Products',
    'Partners',
    'Document validation',
    'User management',
    'Help',
  ]);
  expect(demo.userMenu).toEqual(['Report an issue', 'Logout']);
  await page.goto('/address-book');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-logout').click();
  await leave(page);
  await expect(page).toHaveURL(/\/login/);

  await logIn(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/admin/);
  await expect(page.getByTestId('main-navigation')).toHaveCount(0);
  await page.goto('/documents/in');
  await expect(page).toHaveURL(/\/admin/);
});

test('help opens over the page as /help, searches, and closes back; layout passes axe in English', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await logIn(page, ACCOUNTS.user);
  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByTestId('nav-inbox')).toHaveAttribute('aria-current', 'page');
  await afterToasts(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/layout-desktop-en.png` });

  await page.getByTestId('nav-help').click();
  const dialog = page.getByRole('dialog', { name: 'Help' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/help$/);
  await dialog.getByRole('searchbox', { name: 'Search help' }).fill('KSeF');
  await expect(dialog.getByTestId('help-article-e-invoicing')).toBeVisible();
  await expect(dialog.getByTestId('help-article-ettn')).toHaveCount(0);
  await dialog.getByRole('button', { name: /E-invoicing/ }).click();
  await expect(dialog.getByText(/FA\(3\) structure/)).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'support@open-edi-portal.example' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/help-desktop-en.png` });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/documents\/in$/);

  // Opened directly, /help is its own page, and reads no text before its catalog is there.
  const missing: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('i18n: missing')) missing.push(message.text());
  });
  await page.goto('/help');
  await expect(page.getByRole('dialog', { name: 'Help' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Help' }).getByRole('button', { name: 'Close help' })).toBeVisible();
  expect(missing).toEqual([]);

  // /documents on its own leads to the inbox.
  await page.goto('/documents');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByTestId('nav-inbox')).toHaveAttribute('aria-current', 'page');
});

test('logout asks Stay or Leave every time; out right after logging in, the greeting does not stay', async ({
  page,
}) => {
  await logIn(page, ACCOUNTS.user);
  await expect(page).toHaveURL(/\/documents\/in$/);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-logout').click();
  const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(dialog).toContainText('Your changes will not be saved. Do you want to leave this site?');
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/documents\/in$/);
  if (!(await page.getByTestId('nav-logout').isVisible())) await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-logout').click();
  await leave(page);
  await expect(page).toHaveURL(/\/login/);

  // In and straight out again: the greeting (five seconds long) leaves with the session, not after.
  await logIn(page, ACCOUNTS.user);
  await expect(page).toHaveURL(/\/documents\/in$/);
  const greeting = page.locator('.mantine-Notification-root').filter({ hasText: 'You have logged in successfully.' });
  await expect(greeting).toBeVisible();
  await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-logout').click();
  await leave(page);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(greeting).toHaveCount(0, { timeout: 1_000 });
});

test('on a phone the navigation is a burger menu, usable with the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, ACCOUNTS.user);
  await expect(page).toHaveURL(/\/documents\/in$/);
  const burger = page.getByRole('button', { name: 'Open navigation' });
  await expect(burger).toBeVisible();
  await expect(page.getByTestId('nav-outbox')).not.toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/layout-phone-closed.png` });
  await burger.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('nav-outbox')).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/layout-phone-open.png` });
  await afterToasts(page);
  await expectAccessible(page);
  // Tab to the Outbox entry and follow it; the menu closes on the new page.
  await page.getByTestId('nav-inbox').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('nav-outbox')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/documents\/out$/);
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeVisible();
});

test('the layout in Arabic is right to left and passes axe', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? 'http://localhost' }]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('textbox').first().fill(ACCOUNTS.user.email);
  await page.locator('input[type="password"]').fill(ACCOUNTS.user.password);
  await page.locator('form button[type="submit"]').first().click();
  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByTestId('nav-inbox')).toHaveText('البريد الوارد');
  // The navigation sits on the right in a right-to-left page.
  const box = await page.getByRole('navigation', { name: 'التنقل الرئيسي' }).boundingBox();
  expect(box && box.x).toBeGreaterThan(600);
  await afterToasts(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/layout-desktop-ar.png` });
  await page.getByTestId('nav-help').click();
  await expect(page.getByRole('dialog', { name: 'المساعدة' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/help-desktop-ar.png` });
});
