import { expect, test } from '@playwright/test';
import { DEMO, expectAccessible, waitForMail } from '../support.ts';

const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;
const SUPPORT_EMAIL = process.env.SUPPORT_EMAIL ?? 'support@localhost.localdomain';

test('report an issue with an attachment from the user menu; support receives it with the file; an admin resolves it', async ({
  page,
  browser,
}) => {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(DEMO.user.email);
  await page.locator('input[type="password"]').fill(DEMO.user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/documents\/in$/);

  await page.getByTestId('user-menu').click();
  await page.getByTestId('nav-reportIssue').click();
  await expect(page).toHaveURL(/\/report-issue$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Report an issue' })).toBeVisible();

  const subject = `Invoice stuck ${Date.now()}`;
  await page.getByRole('radio', { name: 'Technical problem' }).check();
  await page.getByRole('radio', { name: 'Critical' }).check();
  await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await page.getByRole('textbox', { name: 'Description' }).fill('The invoice INV-1 stays in status Sent.');

  // A file of a refused type is listed with its reason and is not sent.
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await expect(page.getByText(/tool\.exe: this file type is not allowed/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/report-issue-refused.png`, fullPage: true });
  await page.getByRole('button', { name: 'Remove tool.exe' }).click();

  // "Choose files" opens the file dialog from the keyboard.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose files' }).focus();
  await page.keyboard.press('Enter');
  await (
    await chooser
  ).setFiles({
    name: 'steps.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('1. open the invoice\n2. press Send\n'),
  });
  await expect(page.getByTestId('upload-status')).toHaveText('Ready to send');
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 10_000 });
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText('Operation successful')).toBeVisible();
  // The form starts afresh for the next report: no subject, and the sent file no longer listed.
  await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
  await expect(page.getByTestId('upload-list')).toHaveCount(0);
  await expect(page.getByText('steps.txt')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/report-issue-sent.png`, fullPage: true });

  const mail = await waitForMail(SUPPORT_EMAIL, new RegExp(subject));
  expect(mail.attachments).toEqual(['steps.txt']);
  expect(mail.text).toContain('The invoice INV-1 stays in status Sent.');

  // An admin finds the report in the admin area and marks it resolved.
  // axe needs a page of a context of its own.
  const adminContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const admin = await adminContext.newPage();
  await admin.goto('/login');
  await admin.getByRole('textbox', { name: 'E-mail' }).fill(DEMO.admin.email);
  await admin.locator('input[type="password"]').fill(DEMO.admin.password);
  await admin.getByRole('button', { name: 'Log in' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await admin.getByRole('link', { name: 'Issue reports' }).click();
  await admin.getByTestId('issues-table').getByRole('button', { name: subject }).click();
  const view = admin.getByTestId('issue-view');
  await expect(view).toContainText('The invoice INV-1 stays in status Sent.');
  // The click that opened the report leaves the pointer where the dialog's Download button opens: axe would judge its
  // hover colours.
  await admin.mouse.move(0, 0);
  await expectAccessible(admin);
  await view.getByRole('combobox', { name: 'Status' }).click();
  await admin.getByRole('option', { name: 'Resolved' }).click();
  await expect(admin.getByText('Report status set to Resolved.')).toBeVisible();
  await admin.keyboard.press('Escape');
  const row = admin.getByTestId('issues-table').getByRole('row').filter({ hasText: subject });
  await expect(row.getByTestId('issue-status')).toHaveText('Resolved');
  await adminContext.close();
});
