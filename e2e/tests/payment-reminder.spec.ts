import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO } from '../support.ts';

/** The reminder's days (14..24) by the server's own clock, which the browser clock cannot move. */
const serverDayIsReminderDay = (() => {
  const day = new Date().getUTCDate();
  return day >= 14 && day <= 24;
})();

async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/users/login', {
    data: { login: DEMO.admin.email, password: DEMO.admin.password },
  });
  const body = (await response.json()) as { keycloakResponse?: { token: { access_token: string } } };
  const token = body.keycloakResponse?.token.access_token;
  if (!token) throw new Error('admin login failed');
  return token;
}

/**
 * The reminder's account: buyer@demo.example.com of "Demo Retailer", a company no other journey of the layout uses,
 * so the dialog does not appear in journeys running beside this one.
 */
const BUYER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026', company: 'Demo Retailer' };

/** Marks the buyer's company as having an overdue payment (or not), through the admin API. */
async function markOverdue(request: APIRequestContext, overduePayment: boolean) {
  const headers = { Authorization: `Bearer ${await adminToken(request)}` };
  const page = await request.get(`/api/admin/companies?search=${encodeURIComponent(BUYER.company)}`, { headers });
  const companies = (await page.json()) as { items: { id: string; name: string }[] };
  const company = companies.items.find((c) => c.name === BUYER.company);
  if (!company) throw new Error(`${BUYER.company} not found`);
  const put = await request.put(`/api/admin/companies/${company.id}/overdue-payment`, {
    headers,
    data: { overduePayment },
  });
  expect(put.ok()).toBe(true);
}

/** A day of month in the past (the tokens the server issues now must still look valid to the browser). */
function pastDay(day: number): Date {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth(), day, 10, 0, 0);
  if (date.getTime() > now.getTime()) date.setMonth(date.getMonth() - 1);
  return date;
}

async function logIn(page: Page) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(BUYER.email);
  await page.locator('input[type="password"]').fill(BUYER.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/documents\/in$/);
}

/** When the real date is outside 14..24 the server (rightly) says "not due"; the journey then checks the web rules alone. */
async function dueWhenServerDayIsElsewhere(page: Page) {
  if (serverDayIsReminderDay) return;
  await page.route('**/api/users/paymentReminder', (route) => route.fulfill({ json: { due: true } }));
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => markOverdue(request, true));
test.afterAll(async ({ request }) => markOverdue(request, false));

test('the payment reminder shows on the 14th, once that day (cookie by hashed e-mail)', async ({ page, context }) => {
  await page.clock.setFixedTime(pastDay(14));
  await dueWhenServerDayIsElsewhere(page);
  await logIn(page);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/@/); // the contact e-mail of the reminder
  const cookieName = createHash('sha256').update(BUYER.email.toLowerCase()).digest('hex');
  const cookie = (await context.cookies()).find((c) => c.name === cookieName);
  expect(cookie).toBeTruthy();
  // Lives about one day.
  expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(23 * 3600);
  await page.screenshot({
    path: `${process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`}/payment-reminder.png`,
  });
  await dialog.getByRole('button').last().click();
  await expect(dialog).toBeHidden();

  // Same day, again: not shown.
  const asked = page.waitForRequest('**/api/users/permissions');
  await page.reload();
  await asked;
  await expect(page.getByTestId('main-navigation')).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the payment reminder does not show on the 25th', async ({ page }) => {
  await page.clock.setFixedTime(pastDay(25));
  await dueWhenServerDayIsElsewhere(page);
  let asked = false;
  page.on('request', (r) => {
    if (r.url().includes('/api/users/paymentReminder')) asked = true;
  });
  await logIn(page);
  await expect(page.getByTestId('main-navigation')).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(asked).toBe(false);
});
