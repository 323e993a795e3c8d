import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Download } from '@playwright/test';
import { afterToasts, expectAccessible, inArabic, logIn, newPage, orders, unique } from '../support.ts';

/**
 * What a user does with inbox documents (issue 11, part 3): the supplier marks a received order unread and read
 * again, sets it Completed, selects two orders and downloads their originals as one zip, exports the selection as
 * CSV; the clerk (inbox read only) sees no status actions. Its own orders, uploaded by the buyer in the test, with
 * numbers of this run. English and Arabic, axe, and a phone.
 */
const BUYER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = { email: 'user@demo.example.com', password: 'User#Demo2026' };
const CLERK = { email: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;

const catalog = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../packages/i18n/locales/${lang}/documents.json`, import.meta.url), 'utf8')) as {
    columns: Record<string, string>;
    status: Record<string, string>;
    additionalStatus: Record<string, string>;
    actions: Record<string, string>;
  };

/** Two orders of this run: A… control references, ACT-… numbers. */
const ACTIONS = { controlPrefix: 'A', numberPrefix: 'ACT', count: 2 };

/** The buyer uploads the orders on its outbox; they reach the supplier's inbox. */
async function sendOrders(browser: Browser, baseURL: string | undefined, control: string, numbers: string[]) {
  const buyer = await newPage(browser, baseURL);
  await logIn(buyer, BUYER);
  await buyer.goto('/documents/out');
  await buyer.getByRole('button', { name: 'Upload files' }).click();
  await buyer.locator('input[type="file"]').setInputFiles({
    name: 'actions.edi',
    mimeType: 'application/edifact',
    buffer: Buffer.from(orders(control, numbers, { lines: [['4000862141404', 24]] })),
  });
  await buyer.getByRole('button', { name: 'Upload', exact: true }).click();
  // A loaded machine may take a while: the result says when the upload is through.
  await expect(buyer.getByTestId('upload-result')).toContainText(`Documents created: ${numbers.length}`, {
    timeout: 60_000,
  });
  await buyer.context().close();
}

const bytesOf = async (download: Download) => readFileSync((await download.path())!);

/** The entries of a zip by its central directory: name and, for a stored or deflated entry, its size. */
function zipEntries(zip: Buffer): { name: string; size: number }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const rest = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), size: zip.readUInt32LE(at + 24) });
    at += 46 + nameLength + rest;
  }
  return entries;
}

for (const lang of ['en', 'ar'] as const) {
  test(`${lang}: the supplier marks an order unread and read, completes it, downloads two as a zip and exports them`, async ({
    browser,
    baseURL,
  }) => {
    // Two users, an upload, two downloads: more steps than the default time allows on a busy machine.
    test.setTimeout(240_000);
    const text = catalog(lang);
    const { control, numbers } = unique(lang.toUpperCase(), ACTIONS);
    await sendOrders(browser, baseURL, control, numbers);

    const page = await newPage(browser, baseURL);
    await logIn(page, SUPPLIER);
    if (lang === 'ar') await inArabic(page, baseURL);
    const [first, second] = numbers.map((n) => page.getByTestId(`document-row-${n}`));
    await expect(first!.getByTestId('document-status-received')).toHaveText(text.status.received!);

    // Opened, it is Read; marked unread it is Received again, and Read once more.
    await first!.getByRole('link', { name: numbers[0] }).click();
    const view = page.getByRole('dialog').getByTestId('document-view');
    await expect(view.getByTestId('document-status-read')).toBeVisible();
    const actions = view.getByTestId('document-status-actions');
    await actions.getByRole('button', { name: text.actions.markUnread }).click();
    await expect(view.getByTestId('document-status-received')).toBeVisible();
    await actions.getByRole('button', { name: text.actions.markRead }).click();
    await expect(view.getByTestId('document-status-read')).toBeVisible();
    await actions.getByRole('button', { name: text.actions.additionalStatus }).click();
    await page.getByRole('menuitem', { name: text.additionalStatus.completed, exact: true }).click();
    await expect(view.getByTestId('document-additional-status-completed')).toHaveText(text.additionalStatus.completed!);
    await afterToasts(page);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/documents\/in$/);
    await expect(first!.getByTestId('document-status-read')).toBeVisible();

    // Two selected: their originals as one zip, and the selection as CSV with the list's columns.
    await first!.getByTestId('document-select').check();
    await second!.getByTestId('document-select').check();
    const bar = page.getByTestId('documents-bulk-bar');
    await expect(bar.getByTestId('documents-selected-count')).toContainText('2');
    await afterToasts(page);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/documents-actions-${lang}.png`, fullPage: true });
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      bar.getByRole('button', { name: text.actions.downloadZip }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe('documents.zip');
    const entries = zipEntries(await bytesOf(zip));
    expect(entries).toHaveLength(2);
    for (const number of numbers) expect(entries.some((e) => e.name.includes(number))).toBe(true);

    await bar.getByRole('button', { name: text.actions.exportList }).click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: text.actions.exportCsv }).click(),
    ]);
    expect(csv.suggestedFilename()).toMatch(/^inbox-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await bytesOf(csv)).toString('utf8').split('\r\n');
    expect(lines[0]!.charCodeAt(0)).toBe(0xfeff);
    const columns = ['DocumentNumber', 'PartnerName', 'DeliveryPointIln', 'DocumentBusinessDate'];
    expect(lines[0]!.slice(1).split(',').slice(0, 4)).toEqual(columns.map((c) => text.columns[c]));
    expect(lines.filter((l) => numbers.some((n) => l.startsWith(n)))).toHaveLength(2);
    await page.context().close();
  });
}

test('the clerk reads the inbox but is offered no status actions', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const { control, numbers } = unique('CL', ACTIONS);
  await sendOrders(browser, baseURL, control, numbers);
  const page = await newPage(browser, baseURL);
  await logIn(page, CLERK);
  const row = page.getByTestId(`document-row-${numbers[0]}`);
  await row.getByTestId('document-select').check();
  const bar = page.getByTestId('documents-bulk-bar');
  await expect(bar.getByRole('button', { name: 'Download originals (ZIP)' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
  await expect(bar.getByRole('button', { name: 'Additional status' })).toHaveCount(0);
  await row.getByRole('link', { name: numbers[0] }).click();
  const view = page.getByRole('dialog').getByTestId('document-view');
  await expect(view.getByTestId('document-status-read')).toBeVisible();
  await expect(view.getByRole('button', { name: 'Mark as unread' })).toHaveCount(0);
  await expect(view.getByTestId('additional-status-menu')).toHaveCount(0);
  await page.context().close();
});

test('on a phone the selection and its bar fit the screen', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const { control, numbers } = unique('PH', ACTIONS);
  await sendOrders(browser, baseURL, control, numbers);
  const page = await newPage(browser, baseURL);
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, SUPPLIER);
  const card = page.getByTestId(`document-row-${numbers[0]}`);
  await card.getByTestId('document-select').check();
  await expect(page.getByTestId('documents-bulk-bar').getByTestId('documents-selected-count')).toContainText('1');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await afterToasts(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/documents-actions-phone.png`, fullPage: true });
  await page.context().close();
});
