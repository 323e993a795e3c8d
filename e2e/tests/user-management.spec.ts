import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible, linkFrom, uniqueEmail, waitForMail } from '../support.ts';

const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;
const VALID_GLN = '4006381333931';

async function logIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/documents\/in$/);
}

test('invite a user by e-mail, accept the e-mailed invitation, log in as them', async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, DEMO.user);
  await page.goto('/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByTestId('user-row-user@demo.example.com')).toBeVisible();

  const email = uniqueEmail('invitee');
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a user' });
  // Sent empty, every required field says so (as registration does), not just the e-mail.
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('This field is required')).toHaveCount(3);
  for (const label of ['E-mail', 'First name', 'Last name']) {
    await expect(dialog.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
  }
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('First name').fill('Ivy');
  await dialog.getByLabel('Last name').fill('Invitee');
  await dialog.getByRole('combobox', { name: 'Groups' }).click();
  await page.getByRole('option', { name: 'Inbox readers' }).click();
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`An invitation was sent to ${email}.`)).toBeVisible();
  const row = page.getByTestId(`user-row-${email}`);
  await expect(row.getByText('Invited')).toBeVisible();
  await expect(row.getByText('Inbox readers')).toBeVisible();

  const link = linkFrom(await waitForMail(email));
  // One invitation a minute: an immediate resend is refused with the time to wait.
  await row.getByRole('button', { name: 'Actions for Ivy Invitee' }).click();
  await page.getByRole('menuitem', { name: 'Resend invitation' }).click();
  await expect(page.getByText(/An invitation was sent less than a minute ago\. Try again in \d+ s\./)).toBeVisible();

  if (!(await page.getByTestId('nav-logout').isVisible())) await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-logout').click();
  await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/login/);

  await page.goto(link);
  await expect(page.getByText('Set your password')).toBeVisible();
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('Ivy#Invite2026');
  await page.getByLabel('Repeat new password').fill('Ivy#Invite2026');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/login/);
  await logIn(page, { email, password: 'Ivy#Invite2026' });
  // An inbox reader does not manage users.
  await page.goto('/users');
  await expect(page).toHaveURL(/\/documents\/in$/);
});

test('groups: create with permissions, edit, the lock-out refusal, delete', async ({ page }) => {
  await logIn(page, DEMO.user);
  await page.goto('/groups');
  await expect(page.getByTestId('group-row-Administrators')).toBeVisible();
  const name = `Dispatch ${Date.now()}`;

  await page.getByRole('button', { name: 'New group' }).click();
  let dialog = page.getByRole('dialog', { name: 'New group' });
  await dialog.getByLabel('Group name').fill(name);
  await dialog.getByLabel('Send documents').check();
  await dialog.getByLabel('View sent documents').check();
  await expect(dialog.getByText(/Selected: 2 of 24/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId(`group-row-${name}`)).toContainText('2 of 24');

  await page.getByRole('button', { name: `Edit group ${name}` }).click();
  dialog = page.getByRole('dialog', { name: `Edit group ${name}` });
  await dialog.getByLabel('Group name').fill(`${name} B`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId(`group-row-${name} B`)).toBeVisible();

  // Taking GROUPS_MODIFY from the only managers' group would lock the company out: refused and said so.
  await page.getByRole('button', { name: 'Edit group Administrators' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit group Administrators' });
  await dialog.getByLabel('Change groups and permissions').uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByTestId('lock-out-alert')).toContainText('without anyone who can manage users and groups');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: `Delete group ${name} B` }).click();
  await page.getByRole('dialog', { name: 'Delete group' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId(`group-row-${name} B`)).toHaveCount(0);
});

test('restrictions: create with a checked GLN, document type, direction and a group, edit, delete', async ({
  page,
}) => {
  await logIn(page, DEMO.user);
  await page.goto('/restrictions');
  await expect(page.getByRole('heading', { level: 1, name: 'Restrictions' })).toBeVisible();
  const name = `North stores ${Date.now()}`;

  await page.getByRole('button', { name: 'New restriction' }).click();
  let dialog = page.getByRole('dialog', { name: 'New restriction' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  const gln = dialog.getByRole('combobox', { name: 'Delivery points (GLN)' });
  await gln.fill('4006381333932');
  await gln.press('Enter');
  await expect(
    dialog.getByText('“4006381333932” is not a valid GLN (13 digits with a correct check digit)'),
  ).toBeVisible();
  await gln.fill(VALID_GLN);
  await gln.press('Enter');
  await dialog.getByLabel('Invoice (INVOIC)').check();
  await dialog.getByLabel('Incoming').check();
  await dialog.getByRole('combobox', { name: 'Groups' }).click();
  await page.getByRole('option', { name: 'Inbox readers' }).click();
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const row = page.getByTestId(`restriction-row-${name}`);
  await expect(row).toContainText('INVOIC');
  await expect(row).toContainText('Incoming');
  await expect(row).toContainText('delivery points: 1');
  await expect(row).toContainText('Inbox readers');

  await page.getByRole('button', { name: `Edit restriction ${name}` }).click();
  dialog = page.getByRole('dialog', { name: `Edit restriction ${name}` });
  await dialog.getByLabel('Description').fill('Only the northern stores');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('Only the northern stores');

  await page.getByRole('button', { name: `Delete restriction ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete restriction' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});

test('users, groups and restrictions pass axe in English and Arabic, on a desktop and a phone', async ({ page }) => {
  await logIn(page, DEMO.user);
  const pages = [
    { path: '/users', open: 'Invite user', ar: 'دعوة مستخدم' },
    { path: '/groups', open: 'New group', ar: 'مجموعة جديدة' },
    { path: '/restrictions', open: 'New restriction', ar: 'قيد جديد' },
  ];
  for (const { path, open } of pages) {
    await page.goto(path);
    await expect(page.getByRole('table')).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/um${path.replace('/', '-')}-desktop.png`, fullPage: true });
    await page.getByRole('button', { name: open }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/um${path.replace('/', '-')}-dialog.png`, fullPage: true });
  }
  // A phone: every list stacks its rows as cards, without sideways scrolling, and still works with the keyboard.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const { path } of pages) {
    await page.goto(path);
    // Loaded (the restrictions may be none by now): then no table, only cards or the empty text (without a count).
    await expect(page.getByRole('status')).toHaveCount(0);
    await expect(page.getByText(/^Showing \d+ of \d+$/).or(page.getByText(/^No \w+ yet\./))).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/um${path.replace('/', '-')}-phone.png`, fullPage: true });
  }
  await page.goto('/users');
  await expect(page.getByRole('list', { name: 'Users of your company' })).toBeVisible();
  const card = page.getByTestId('user-row-user@demo.example.com');
  await expect(card.getByText('Administrators')).toBeVisible();
  await card.getByRole('button', { name: 'Actions for Uma User' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.context().addCookies([{ name: 'lang', value: 'ar', url: page.url() }]);
  for (const { path, ar } of pages) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('table')).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/um${path.replace('/', '-')}-ar.png`, fullPage: true });
    await page.getByRole('button', { name: ar }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/um${path.replace('/', '-')}-dialog-ar.png`, fullPage: true });
  }
});
