import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, ettnExpirySeenFor, expectAccessible, linkFrom, uniqueEmail, waitForMail } from '../support.ts';

/** Screenshots to look at (desktop, phone width, Arabic); outside the repository. */
const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;

async function logIn(page: Page, account: { email: string; password: string }) {
  // A fresh user of Demo Supplier would be greeted by the e-TTN expiry dialog over the profile (a flaky CI run).
  await ettnExpirySeenFor(page, account.email);
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/documents\/in$/);
}

/** Logout lives in the user menu, which is already open on /profile (it holds the active page). */
async function logOut(page: Page) {
  if (!(await page.getByTestId('nav-logout').isVisible())) await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-logout').click();
  // Logout asks 'Unsaved changes' every time (description, section 2).
  await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/login/);
}

/**
 * A fresh user of Demo Supplier in its Administrators group, so the journeys never change the shared demo user:
 * user@demo invites them over the API and they set their password through the e-mailed link.
 */
async function freshUser(request: APIRequestContext, tag: string) {
  const login = await request.post('/api/users/login', {
    data: { login: DEMO.user.email, password: DEMO.user.password },
  });
  const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
    .token.access_token;
  const headers = { Authorization: `Bearer ${token}` };
  const groups = (await (await request.get('/api/groups?search=Administrators', { headers })).json()) as {
    items: { id: string }[];
  };
  const email = uniqueEmail(tag);
  const invite = await request.post('/api/company-users/invite', {
    headers,
    data: { email, firstName: 'Fresh', lastName: 'Person', language: 'en', groupIds: [groups.items[0]!.id] },
  });
  expect(invite.status()).toBe(201);
  const link = new URL(linkFrom(await waitForMail(email)), 'http://x');
  const password = 'Fresh#Start2026';
  const set = await request.post('/api/users/setPassword', {
    data: { token: link.searchParams.get('token'), password },
  });
  expect(set.ok()).toBe(true);
  return { email, password };
}

test('change names, then the password: a wrong current one is refused, the right one works for the next login', async ({
  page,
  request,
}) => {
  const account = await freshUser(request, 'profile-pw');
  await logIn(page, account);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  const settings = page.getByRole('form', { name: 'Profile settings' });
  await settings.getByLabel('First name').fill('Petra');
  await settings.getByLabel('Last name').fill('Profile');
  await settings.getByLabel('Telephone number').fill('+48 600 100 200');
  await settings.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Operation successful').first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Profile settings' }).getByLabel('First name')).toHaveValue('Petra');
  await expect(page.getByRole('form', { name: 'Profile settings' }).getByLabel('Telephone number')).toHaveValue(
    '+48 600 100 200',
  );

  await page.getByRole('tab', { name: 'Password' }).click();
  await expect(page).toHaveURL(/\/profile\?panel=password$/);
  const form = page.getByRole('form', { name: 'Password' });
  const fill = async (current: string, next: string) => {
    await form.getByLabel('Current password').fill(current);
    await form.getByRole('textbox', { name: 'New password', exact: true }).fill(next);
    await form.getByLabel('Repeat new password').fill(next);
    await form.getByRole('button', { name: 'Change password' }).click();
  };
  await fill('Wrong#Guess2026', 'Brand#New2026');
  await expect(form.getByTestId('password-result')).toHaveText('Current password is incorrect');
  await expect(form.getByTestId('password-rule-special')).toHaveAttribute('data-met', 'true');

  await fill(account.password, 'Brand#New2026');
  await expect(form.getByTestId('password-result')).toHaveText('Operation successful');
  await expect(form.getByLabel('Current password')).toHaveValue('');

  await logOut(page);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await logIn(page, { email: account.email, password: 'Brand#New2026' });
});

test('saving another language reloads the page in that language', async ({ page, request }) => {
  const account = await freshUser(request, 'profile-lang');
  await logIn(page, account);
  await page.goto('/profile?panel=language');
  const form = page.getByRole('form', { name: 'Language' });
  await form.getByRole('radio', { name: 'Polski' }).click();
  const reloaded = page.waitForEvent('load');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await reloaded;
  await expect(page.getByRole('heading', { level: 1, name: 'Profil' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Hasło' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  expect((await page.context().cookies()).find((c) => c.name === 'lang')?.value).toBe('pl');
});

test('leaving the profile with unsaved changes asks Stay or Leave', async ({ page }) => {
  await logIn(page, DEMO.user);
  await page.goto('/profile');
  await page.getByRole('form', { name: 'Profile settings' }).getByLabel('First name').fill('Unsaved');
  // Another panel is not another page.
  await page.getByRole('tab', { name: 'Password' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByTestId('nav-inbox').click();
  const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(dialog.getByText('Your changes will not be saved. Do you want to leave this site?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/profile/);
  await page.getByRole('tab', { name: 'Profile settings' }).click();
  await expect(page.getByRole('form', { name: 'Profile settings' }).getByLabel('First name')).toHaveValue('Unsaved');

  await page.getByTestId('nav-inbox').click();
  await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/documents\/in$/);
  await page.goto('/profile');
  await expect(page.getByRole('form', { name: 'Profile settings' }).getByLabel('First name')).not.toHaveValue(
    'Unsaved',
  );
});

test('every profile panel passes axe in English and Arabic, on a desktop and a phone', async ({ page }) => {
  // Six panels (API keys now among them), two languages, two sizes: more than the default on a busy machine.
  test.setTimeout(240_000);
  await logIn(page, DEMO.user);
  for (const panel of [
    'profile-settings',
    'password',
    'company-settings',
    'language',
    'additional-settings',
    'ettn-subscriptions',
  ]) {
    await page.goto(`/profile?panel=${panel}`);
    await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2 })).toBeVisible();
    await expect(page.getByRole('tabpanel').locator('form')).toBeVisible();
    await expectAccessible(page);
  }
  await page.goto('/profile?panel=company-settings');
  await expect(page.getByLabel('Company name')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/profile-company-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/profile?panel=password');
  await expect(page.getByRole('form', { name: 'Password' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/profile-password-phone.png`, fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.context().addCookies([{ name: 'lang', value: 'ar', url: page.url() }]);
  for (const panel of [
    'profile-settings',
    'password',
    'company-settings',
    'language',
    'additional-settings',
    'ettn-subscriptions',
  ]) {
    await page.goto(`/profile?panel=${panel}`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1, name: 'الملف الشخصي' })).toBeVisible();
    await expect(page.getByRole('tabpanel').locator('form')).toBeVisible();
    await expectAccessible(page);
  }
  await page.goto('/profile?panel=company-settings');
  await expect(page.getByLabel('اسم الشركة')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/profile-company-ar.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/profile?panel=profile-settings');
  await page.screenshot({ path: `${SHOTS}/profile-settings-ar-phone.png`, fullPage: true });
});

test('on a phone the panel tabs stay on one row that scrolls, work with the keyboard and pass axe', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, DEMO.user);
  await page.goto('/profile?panel=additional-settings');
  const tabs = page.getByRole('tab');
  // Six: user@ is also an e-TTN user, with the e-TTN subscriptions panel.
  await expect(tabs).toHaveCount(6);
  // One row: every tab at the same height; the page itself never scrolls sideways.
  const tops = await tabs.evaluateAll((all) => all.map((tab) => Math.round(tab.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // A deep-linked panel's tab is scrolled into view.
  await expect(page.getByRole('tab', { name: 'Additional settings' })).toBeInViewport();
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/profile-tabs-phone.png` });

  await page.getByRole('tab', { name: 'Additional settings' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Language' })).toHaveAttribute('aria-selected', 'true');
  // Home moves the focus only; Enter opens the focused tab.
  await page.keyboard.press('Home');
  const first = page.getByRole('tab', { name: 'Profile settings' });
  await expect(first).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(first).toBeInViewport();
  await expect(page).toHaveURL(/panel=profile-settings/);
  await page.screenshot({ path: `${SHOTS}/profile-tabs-phone-first.png` });

  await page.context().addCookies([{ name: 'lang', value: 'ar', url: page.url() }]);
  await page.goto('/profile?panel=additional-settings');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('tab', { selected: true })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/profile-tabs-phone-ar.png` });
});
