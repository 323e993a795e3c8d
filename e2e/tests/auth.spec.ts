import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible, linkFrom, uniqueEmail, waitForMail } from '../support.ts';

const STORAGE_KEY = 'portal.session';

async function logIn(page: Page, login: string, password: string) {
  await page.getByLabel('E-mail').fill(login);
  await page.getByLabel(/^Password\s*\*?$/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const storedSession = (page: Page) => page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEY);

/** Logout lives in the user menu of the main layout (or the admin area's own Logout); open the menu when closed. */
async function logOut(page: Page) {
  const item = page
    .getByTestId('nav-logout')
    .or(page.getByRole('button', { name: 'Logout' }))
    .first();
  if (!(await item.isVisible())) await page.getByTestId('user-menu').click();
  const fromLayout = (await item.getAttribute('data-testid')) === 'nav-logout';
  await item.click();
  // The main layout's Logout asks 'Unsaved changes' every time (description, section 2).
  if (fromLayout)
    await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Leave' }).click();
}

test('register, confirm the e-mailed link, log in, keep the session over a reload and a token refresh, log out', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('journey');
  await page.goto('/register');
  await page.getByLabel('First name').fill('Jane');
  await page.getByLabel('Last name').fill('Journey');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password\s*\*?$/).fill('Journey#2026');
  await expect(page.getByTestId('password-rule-special')).toContainText('(met)');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Confirm your e-mail address')).toBeVisible();
  await expect(page.getByText('Check your e-mail box')).toBeVisible();
  // Resend right away: one was sent a moment ago, so the page says how long to wait, not that it sent another.
  await page.getByRole('button', { name: 'Resend e-mail' }).click();
  await expect(
    page.getByText(/An e-mail with the activation link was sent less than a minute ago\. Please wait \d+ seconds?/),
  ).toBeVisible();
  await expect(page.getByText('An email with activation link was just sent to your inbox.')).toHaveCount(0);

  const mail = await waitForMail(email, /Confirm your e-mail address/);
  await page.goto(linkFrom(mail));
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('Your e-mail address has been confirmed. You can log in now.')).toBeVisible();

  await logIn(page, email, 'Journey#2026');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByText('Jane Journey').first()).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByText('Jane Journey').first()).toBeVisible();

  // The journeys' server issues 20-second access tokens: after they expire, the next interaction renews the session.
  const accessToken = async () =>
    (JSON.parse((await storedSession(page)) ?? '{}') as { accessToken?: string }).accessToken;
  const before = await accessToken();
  expect(before).toBeTruthy();
  await page.waitForTimeout(23_000);
  await page.mouse.move(10, 10);
  await page.keyboard.press('Shift');
  await expect.poll(accessToken, { timeout: 15_000 }).not.toBe(before);
  await page.reload();
  await expect(page).toHaveURL(/\/documents\/in$/);

  await logOut(page);
  await expect(page).toHaveURL(/\/login/);
  expect(await storedSession(page)).toBeNull();
});

test('the guards: returnUrl for guests, guests-only pages, admins kept in the admin area', async ({ page }) => {
  await page.goto('/documents/in');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdocuments%2Fin/);
  await logIn(page, DEMO.user.email, DEMO.user.password);
  await expect(page).toHaveURL(/\/documents\/in$/);

  await page.goto('/login');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await page.goto('/register');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await logOut(page);

  await page.goto('/login?returnUrl=%2Fregister');
  await logIn(page, DEMO.admin.email, DEMO.admin.password);
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/documents/in');
  await expect(page).toHaveURL(/\/admin/);
});

test('a wrong password says "Invalid email or password"; empty fields ask for both', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Please provide valid e-mail and password')).toBeVisible();
  await logIn(page, DEMO.user.email, 'Wrong#Password1');
  await expect(page.getByTestId('login-error')).toHaveText('Invalid email or password');
  await expect(page).toHaveURL(/\/login/);
});

test('an old EDI account is invited to create a new account', async ({ page }) => {
  await page.goto('/login');
  await logIn(page, DEMO.legacy.login, DEMO.legacy.password);
  const prompt = page.getByTestId('legacy-prompt');
  await expect(prompt.getByText('Thank you for choosing new Web EDI app')).toBeVisible();
  await expect(prompt.getByRole('link', { name: 'Go to old EDI version' })).toHaveAttribute('href', /^https?:\/\//);
  await prompt
    .getByRole('button', { name: 'Create new account' })
    .or(prompt.getByRole('link', { name: 'Create new account' }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/register/);
  await expect(page.getByTestId('register-legacy-note')).toBeVisible();
});

test('a forgotten password is reset through the e-mailed link, once', async ({ page }) => {
  // A fresh account, so the demo users keep their passwords for the other journeys.
  const email = uniqueEmail('reset');
  const res = await page.request.post('/api/users/register', {
    data: { firstName: 'Rita', lastName: 'Reset', email, password: 'Before#2026', locale: 'en' },
  });
  expect(res.ok()).toBe(true);
  await page.goto(linkFrom(await waitForMail(email, /Confirm/)));

  await page.goto('/password-reset');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('An email with password reset link was just sent to your inbox.')).toBeVisible();
  const link = linkFrom(await waitForMail(email, /Reset your password/));

  await page.goto(link);
  await page.getByLabel(/^New password/).fill('After#2026x');
  await page.getByLabel(/^Repeat new password/).fill('After#2026x');
  await page.getByRole('button', { name: /save|set/i }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('Your password has been changed. You can log in with the new password.')).toBeVisible();
  await logIn(page, email, 'After#2026x');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await logOut(page);

  await page.goto(link);
  await expect(page.getByTestId('set-password-link-problem')).toContainText(
    'An error occurred, please login again through your application.',
  );
});

test('Arabic turns the page right to left, and the choice is kept', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('language-select').selectOption({ label: 'العربية' });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expectAccessible(page);
});

for (const path of ['/login', '/register', '/password-reset', '/set-password?token=nothing-valid']) {
  test(`axe-core finds no serious problem on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(
      page.getByRole('heading', { level: 1 }).or(page.getByTestId('set-password-link-problem')).first(),
    ).toBeVisible();
    await expectAccessible(page);
  });
}
