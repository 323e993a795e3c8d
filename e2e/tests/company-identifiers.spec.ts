import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible } from '../support.ts';

/** Demo Retailer's user with every permission (its company administrator). */
const RETAILER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const DELIVERY_POINTS = [
  ['4012345000023', 'Store Berlin'],
  ['4012345000030', 'Store Hamburg'],
  ['4012345000047', 'Central warehouse'],
] as const;

/** Logs in; a company's user lands on the inbox, the platform admin in the admin area. */
async function logIn(page: Page, account: { email: string; password: string }, landing = /\/documents\/in$/) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(landing);
}

/** A GLN with its GS1 check digit, new for each run (the journeys never reuse one another's). */
function freshGln(): string {
  const body = `40123459${String(Date.now()).slice(-4)}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return body + String((10 - (sum % 10)) % 10);
}
/** The same GLN with a wrong check digit. */
const wrongCheckDigit = (gln: string) => gln.slice(0, 12) + String((Number(gln[12]) + 1) % 10);

test("Demo Retailer's administrator sees its delivery points, adds one and is refused another company's GLN", async ({
  page,
}) => {
  await logIn(page, RETAILER);
  await page.goto('/profile?panel=company-settings');
  const section = page.getByTestId('company-locations');
  await expect(section.getByRole('heading', { name: 'GLNs and delivery points' })).toBeVisible();
  await expect(section.locator('[data-gln="4012345000016"]')).toContainText('Company GLN');
  for (const [gln, name] of DELIVERY_POINTS) {
    const row = section.locator(`[data-gln="${gln}"]`);
    await expect(row).toContainText(name);
    await expect(row).toContainText('Delivery point');
  }
  await expectAccessible(page);

  const gln = freshGln();
  await section.getByRole('button', { name: 'Add GLN or delivery point' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a GLN or delivery point' });
  await dialog.getByRole('textbox', { name: 'GLN' }).fill(wrongCheckDigit(gln));
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Store Munich');
  await dialog.getByRole('textbox', { name: 'Street and number' }).fill('Kaufingerstraße 1');
  await dialog.getByRole('textbox', { name: 'Postal code' }).fill('80331');
  await dialog.getByRole('textbox', { name: 'City' }).fill('München');
  await dialog.getByRole('textbox', { name: 'Store or warehouse code' }).fill('S-MUC');
  await dialog.getByRole('combobox', { name: 'Country' }).fill('Germany');
  await page.getByRole('option', { name: 'Germany' }).click();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This GLN is incorrect (13 digits with a valid check digit)')).toBeVisible();

  // Another company's GLN (Demo Supplier's) is refused by the server, on the field.
  await dialog.getByRole('textbox', { name: 'GLN' }).fill('5901234000017');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This GLN belongs to another company')).toBeVisible();

  await dialog.getByRole('textbox', { name: 'GLN' }).fill(gln);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  const added = section.locator(`[data-gln="${gln}"]`);
  await expect(added).toContainText('Store Munich');
  await expect(added).toContainText('Kaufingerstraße 1, 80331 München, DE');

  // Deleting asks first; the demo data stays as it was.
  await section.getByRole('button', { name: `Delete ${gln}` }).click();
  await page
    .getByRole('dialog', { name: `Delete GLN ${gln}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(added).toHaveCount(0);
});

test("the admin area shows a company's GLNs and delivery points", async ({ page }) => {
  await logIn(page, DEMO.admin, /\/admin$/);
  await page.getByRole('link', { name: 'Demo Retailer' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Demo Retailer' })).toBeVisible();
  const section = page.getByTestId('company-locations');
  for (const [gln, name] of DELIVERY_POINTS) await expect(section.locator(`[data-gln="${gln}"]`)).toContainText(name);
  await expectAccessible(page);
});

test('GLNs and delivery points in Arabic, on a desktop and a phone, pass axe', async ({ page }) => {
  await logIn(page, RETAILER);
  // At the origin's root: a cookie set for /documents/in would have the path /documents/ and miss /profile.
  await page.context().addCookies([{ name: 'lang', value: 'ar', url: new URL('/', page.url()).href }]);
  await page.goto('/profile?panel=company-settings');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const section = page.getByTestId('company-locations');
  await expect(section.getByRole('heading', { name: 'أرقام GLN ونقاط التسليم' })).toBeVisible();
  for (const [gln, name] of DELIVERY_POINTS) await expect(section.locator(`[data-gln="${gln}"]`)).toContainText(name);
  await expectAccessible(page);

  await section.getByRole('button', { name: 'إضافة رقم GLN أو نقطة تسليم' }).click();
  const dialog = page.getByRole('dialog', { name: 'إضافة رقم GLN أو نقطة تسليم' });
  await dialog.getByRole('textbox', { name: 'GLN' }).fill(wrongCheckDigit(freshGln()));
  await dialog.getByRole('textbox', { name: 'الاسم' }).fill('x');
  await dialog.getByRole('button', { name: 'حفظ' }).click();
  await expect(dialog.getByText('رقم GLN هذا غير صحيح', { exact: false })).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // A phone: the rows are cards, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/profile?panel=company-settings');
  await expect(section.locator('[data-gln="4012345000047"]')).toBeVisible();
  await expect(section.getByRole('table')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
});
