import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible } from '../support.ts';

const BUYER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const CLERK = { email: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const GTIN_TEXT = 'This GTIN is incorrect (8, 12, 13 or 14 digits with a valid check digit)';

/** A GTIN-13 with its GS1 check digit (weights 3 and 1 from the right), from 12 random digits: unique per run. */
function gtin(): string {
  const digits = Array.from({ length: 12 }, (_, i) =>
    i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10),
  );
  const sum = digits.reduceRight((acc, d, i) => acc + d * ((12 - i) % 2 === 1 ? 3 : 1), 0);
  return `${digits.join('')}${(10 - (sum % 10)) % 10}`;
}
/** The same GTIN with a wrong check digit. */
const wrongGtin = (valid: string) => `${valid.slice(0, 12)}${(Number(valid[12]) + 1) % 10}`;

async function logIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(account.email);
  await page.locator('input[autocomplete="current-password"]').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/documents\/in$/);
}

test('add, edit and delete a product from the keyboard; a wrong GTIN check digit is refused first', async ({
  page,
}) => {
  await logIn(page, BUYER);
  await page.getByRole('navigation').getByRole('link', { name: 'Products' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await expectAccessible(page);

  const description = `Rye bread ${Date.now()}`;
  const valid = gtin();
  await page.getByRole('button', { name: 'New product' }).focus();
  await page.keyboard.press('Enter');
  let dialog = page.getByRole('dialog', { name: 'New product' });
  // The dialog opens on its first field, so the keyboard starts where the typing does.
  await expect(dialog.getByRole('textbox', { name: /^Description/ })).toBeFocused();
  await page.keyboard.type(description);
  await dialog.getByRole('textbox', { name: /^GTIN/ }).fill(wrongGtin(valid));
  await dialog.getByRole('textbox', { name: /^Net price/ }).fill('4,99');
  await dialog.getByRole('textbox', { name: /^VAT rate/ }).fill('5');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText(GTIN_TEXT)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /^GTIN/ })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await dialog.getByRole('textbox', { name: /^GTIN/ }).fill(valid);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const row = page.getByTestId(`product-row-${description}`);
  await expect(row).toContainText(valid);
  await expect(row).toContainText('4.99');

  await page.getByRole('button', { name: `Edit ${description}` }).click();
  dialog = page.getByRole('dialog', { name: `Edit ${description}` });
  await expect(dialog.getByRole('textbox', { name: /^GTIN/ })).toHaveValue(valid);
  await dialog.getByRole('textbox', { name: /^VAT rate/ }).fill('zw');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Exempt (zw)');

  // Search lives in the address.
  await page.getByRole('searchbox', { name: /^Search/ }).fill(valid);
  await expect(page).toHaveURL(new RegExp(`search=.*${valid}`));
  await expect(row).toBeVisible();

  await page.getByRole('button', { name: `Delete ${description}` }).click();
  await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
});

test('import a CSV: bad rows are shown by row and field and nothing saved; the fixed file imports whole; export', async ({
  page,
}) => {
  await logIn(page, BUYER);
  await page.goto('/products');
  const stamp = Date.now();
  const [a, b] = [gtin(), gtin()];
  const names = [`Apple juice ${stamp}`, `Wheat flour ${stamp}`];
  const csv = (second: string) =>
    `description;gtin;unit;price;vatRate\r\n${names[0]};${a};PCE;3,49;5\r\n${names[1]};${second};KGM;2,35;np\r\n`;

  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import products from CSV' });
  const file = dialog.locator('input[type="file"]');
  await file.setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(wrongGtin(b))) });
  const problem = dialog.getByTestId('import-problem-3-gtin');
  await expect(problem).toContainText('GTIN');
  await expect(problem).toContainText(GTIN_TEXT);
  await expect(dialog.getByTestId('import-row-2')).toContainText('OK');
  await expect(dialog.getByTestId('import-row-3')).toContainText('1 problem');
  await expect(dialog.getByRole('button', { name: /^Import \d/ })).toHaveCount(0);
  await expectAccessible(page);
  await expect(page.getByTestId(`product-row-${names[0]}`)).toHaveCount(0);

  await file.setInputFiles({ name: 'products-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(b)) });
  await expect(dialog.getByTestId('import-ok')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import 2 products' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('2 products were imported.')).toBeVisible();
  await expect(page.getByTestId(`product-row-${names[1]}`)).toContainText('Not subject to VAT (np)');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('products.csv');
  const lines = readFileSync(await saved.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .split('\r\n');
  expect(lines[0]).toBe('gtin,supplierArticleNumber,buyerArticleNumber,description,unit,price,currency,vatRate');
  expect(lines).toContain(`${a},,,${names[0]},PCE,3.49,PLN,5`);
  expect(lines).toContain(`${b},,,${names[1]},KGM,2.35,PLN,np`);
});

test('on a phone the products are cards; in Arabic the page is right to left, worded and accessible', async ({
  page,
  context,
  baseURL,
}) => {
  await logIn(page, DEMO.user);
  await page.goto('/products');
  // Demo Supplier's seeded catalogue.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const cards = page.getByRole('list', { name: 'Products of your catalogue' });
  await expect(cards.getByTestId('product-row-Orange juice 1 l')).toContainText('5901234123471');
  await expect(page.getByRole('table')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);

  await page.setViewportSize({ width: 1280, height: 800 });
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? 'http://localhost' }]);
  await page.goto('/products');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'المنتجات' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'منتج جديد' }).click();
  const dialog = page.getByRole('dialog', { name: 'منتج جديد' });
  await dialog.getByRole('textbox', { name: /^الوصف/ }).fill('منتج تجريبي');
  await dialog.getByRole('textbox', { name: /^GTIN/ }).fill(wrongGtin(gtin()));
  await dialog.getByRole('button', { name: 'حفظ' }).click();
  await expect(dialog.getByText('رقم GTIN هذا غير صحيح (8 أو 12 أو 13 أو 14 رقمًا مع رقم تحقق صالح)')).toBeVisible();
  await expectAccessible(page);
});

test('a user without OUTBOX_CREATE has no products: not in the navigation, refused at /products and by the API', async ({
  page,
}) => {
  await logIn(page, CLERK);
  await expect(page.getByRole('link', { name: 'Products' })).toHaveCount(0);
  await page.goto('/products');
  await expect(page).toHaveURL(/\/documents\/in$/);
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('portal.session') ?? '{}') as { accessToken?: string }).accessToken,
  );
  expect(token).toBeTruthy();
  const refused = await page.request.get('/api/products', { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
});
