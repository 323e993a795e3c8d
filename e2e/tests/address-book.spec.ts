import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible } from '../support.ts';

const BUYER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const DEMO_ROLE = { email: 'demo@demo.example.com', password: 'Demo#Demo2026' };
const GLN_TEXT = 'This GLN is incorrect (13 digits with a valid check digit)';

/** A GLN with its check digit (GS1: weights 3 and 1 from the right), from 12 random digits: unique per run. */
function gln(): string {
  const digits = Array.from({ length: 12 }, (_, i) =>
    i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10),
  );
  const sum = digits.reduceRight((acc, d, i) => acc + d * ((12 - i) % 2 === 1 ? 3 : 1), 0);
  return `${digits.join('')}${(10 - (sum % 10)) % 10}`;
}
/** The same GLN with a wrong check digit. */
const wrongGln = (valid: string) => `${valid.slice(0, 12)}${(Number(valid[12]) + 1) % 10}`;

async function logIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(account.email);
  await page.locator('input[autocomplete="current-password"]').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/documents\/in$/);
}

async function chooseCountry(page: Page, dialog: ReturnType<Page['getByRole']>, typed: string, option: string) {
  await dialog.getByRole('combobox', { name: /^(Country|البلد)/ }).fill(typed);
  await page.getByRole('option', { name: option }).click();
}

test('add, edit and delete an entry; a wrong GLN is refused first', async ({ page }) => {
  await logIn(page, BUYER);
  await page.getByRole('navigation').getByRole('link', { name: 'Address book' }).click();
  await expect(page).toHaveURL(/\/address-book$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Address book' })).toBeVisible();
  // The pointer stays on the link just clicked: its hover colours must pass too.
  await expectAccessible(page);

  const name = `Hurtownia ${Date.now()}`;
  const valid = gln();
  await page.getByRole('button', { name: 'New entry' }).click();
  let dialog = page.getByRole('dialog', { name: 'New address book entry' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: /^GLN/ }).fill(wrongGln(valid));
  await dialog.getByRole('textbox', { name: /^Tax ID/ }).fill('526-104-08-28');
  await dialog.getByRole('textbox', { name: /^City/ }).fill('Gdańsk');
  await dialog.getByRole('textbox', { name: /^Account number/ }).fill('PL61 1090 1014 0000 0712 1981 2874');
  await chooseCountry(page, dialog, 'Pol', 'Poland (PL)');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(GLN_TEXT)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /^GLN/ })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await dialog.getByRole('textbox', { name: /^GLN/ }).fill(valid);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId(`entry-row-${name}`);
  await expect(row).toContainText(valid);
  await expect(row).toContainText('Poland');

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  dialog = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(dialog.getByRole('textbox', { name: /^GLN/ })).toHaveValue(valid);
  await dialog.getByRole('textbox', { name: /^City/ }).fill('Gdynia');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Gdynia');

  // Search and sort live in the address.
  await page.getByRole('searchbox', { name: /^Search/ }).fill(valid);
  await expect(page).toHaveURL(new RegExp(`search=.*${valid}`));
  await expect(row).toBeVisible();

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete entry' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Nothing matches your search.')).toBeVisible();
});

test('import a CSV: a bad row is shown and nothing saved; the fixed file imports whole; export downloads it', async ({
  page,
}) => {
  await logIn(page, BUYER);
  await page.goto('/address-book');
  const stamp = Date.now();
  const [a, b] = [gln(), gln()];
  const names = [`Lager Nord ${stamp}`, `Sklep Południe ${stamp}`];
  const csv = (second: string) =>
    `name,gln,personType,country,city,residenceType\r\n${names[0]},${a},J,DE,Hamburg,E\r\n${names[1]},${second},F,PL,Kraków,R\r\n`;

  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import from CSV' });
  const file = dialog.locator('input[type="file"]');
  await file.setInputFiles({ name: 'book.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(wrongGln(b))) });
  const problem = dialog.getByTestId('import-problem-3');
  await expect(problem).toContainText('GLN');
  await expect(problem).toContainText(GLN_TEXT);
  await expect(dialog.getByTestId('import-row-2')).toContainText('OK');
  await expect(dialog.getByTestId('import-row-3')).toContainText('1 problem');
  await expect(dialog.getByRole('button', { name: /^Import \d/ })).toHaveCount(0);
  await expectAccessible(page);
  // The preview saved nothing, not even the good row.
  await expect(page.getByTestId(`entry-row-${names[0]}`)).toHaveCount(0);

  await file.setInputFiles({ name: 'book-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(b)) });
  await expect(dialog.getByTestId('import-ok')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import 2 entries' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('2 entries were imported.')).toBeVisible();
  await expect(page.getByTestId(`entry-row-${names[0]}`)).toContainText('Germany');
  await expect(page.getByTestId(`entry-row-${names[1]}`)).toContainText('Physical person (F)');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toBe('address-book.csv');
  const text = readFileSync(await saved.path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = text.split('\r\n');
  expect(lines[0]).toBe(
    'name,displayedName,gln,personType,taxId,residenceType,phone,street,postalCode,city,province,accountNumber,country',
  );
  expect(lines).toContain(`${names[0]},,${a},J,,E,,,,Hamburg,,,DE`);
  expect(lines).toContain(`${names[1]},,${b},F,,R,,,,Kraków,,,PL`);
});

test('on a phone the entries are cards; in Arabic the page is right to left, worded and accessible', async ({
  page,
  context,
  baseURL,
}) => {
  await logIn(page, DEMO.user);
  await page.goto('/address-book');
  const name = `Dostawca ${Date.now()}`;
  const valid = gln();
  await page.getByRole('button', { name: 'New entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New address book entry' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: /^GLN/ }).fill(valid);
  await chooseCountry(page, dialog, 'Pol', 'Poland (PL)');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const cards = page.getByRole('list', { name: 'Entries of your address book' });
  await expect(cards.getByTestId(`entry-row-${name}`)).toContainText(valid);
  await expect(page.getByRole('table')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);

  await page.setViewportSize({ width: 1280, height: 800 });
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? 'http://localhost' }]);
  await page.goto('/address-book');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'دفتر العناوين' })).toBeVisible();
  await expect(page.getByTestId(`entry-row-${name}`)).toContainText('شخص اعتباري (J)');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'إدخال جديد' }).click();
  const arDialog = page.getByRole('dialog', { name: 'إدخال جديد في دفتر العناوين' });
  await arDialog.getByRole('textbox', { name: 'الاسم', exact: true }).fill(`${name} ب`);
  await arDialog.getByRole('textbox', { name: /^GLN/ }).fill(wrongGln(gln()));
  await arDialog.getByRole('button', { name: 'حفظ' }).click();
  // One press shows every message (the GLN's and the missing country's): the button does not move away under it.
  await expect(arDialog.getByText('رقم GLN هذا غير صحيح (13 رقمًا مع رقم تحقق صالح)')).toBeVisible();
  await expect(arDialog.getByText('اختر دولة صالحة')).toBeVisible();
  await expectAccessible(page);
});

test('role demo has no address book: not in the navigation, refused at /address-book and by the API', async ({
  page,
}) => {
  await logIn(page, DEMO_ROLE);
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Inbox' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Address book' })).toHaveCount(0);
  await page.goto('/address-book');
  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByRole('heading', { name: 'Address book' })).toHaveCount(0);
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('portal.session') ?? '{}') as { accessToken?: string }).accessToken,
  );
  expect(token).toBeTruthy();
  const refused = await page.request.get('/api/address-book', { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
});
