import { expect, test } from '@playwright/test';
import {
  afterToasts,
  expectAccessible,
  inArabic,
  logIn,
  newPage,
  orders,
  RETAILER_GLN,
  SUPPLIER_GLN,
  unique,
  type OrdersOptions,
} from '../support.ts';

/**
 * Documents (issue 11): the buyer (Demo Retailer) uploads an EANCOM order on its outbox and sees it Sent; the supplier
 * (Demo Supplier, the UNB recipient) finds it Received in its inbox, opens it (Read), reads the lines and the original;
 * the column chooser keeps its choice over a reload; English and Arabic, axe, and the phone's cards.
 */
const BUYER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = { email: 'user@demo.example.com', password: 'User#Demo2026' };
const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;

/** A small valid order from the retailer to the supplier: a delivery date, and two lines, one per GTIN. */
const ORDER: OrdersOptions = {
  header: ["DTM+2:20261201:102'"],
  lines: [
    ['4000862141404', 48],
    ['4000862141411', 12],
  ],
};

const TEXT = {
  en: {
    upload: 'Upload files',
    send: 'Upload',
    created: 'Documents created: 1',
    outbox: 'Outbox',
    inbox: 'Inbox',
    sent: 'Sent',
    received: 'Received',
    read: 'Read',
    original: 'Original',
  },
  ar: {
    upload: 'رفع ملفات',
    send: 'رفع',
    created: 'المستندات المنشأة: 1',
    outbox: 'الصادر',
    inbox: 'الوارد',
    sent: 'مرسل',
    received: 'مستلم',
    read: 'مقروء',
    original: 'الأصل',
  },
} as const;

for (const lang of ['en', 'ar'] as const) {
  test(`${lang}: the buyer sends an order, the supplier receives it, opens it (Read), reads its lines and original`, async ({
    browser,
    baseURL,
  }) => {
    const text = TEXT[lang];
    const { control, number } = unique(lang.toUpperCase());

    // The buyer drops the interchange on the outbox.
    const buyer = await newPage(browser, baseURL);
    await logIn(buyer, BUYER);
    await buyer.goto('/documents/out');
    if (lang === 'ar') await inArabic(buyer, baseURL);
    await expect(buyer.getByRole('heading', { level: 1, name: text.outbox })).toBeVisible();
    await buyer.getByRole('button', { name: text.upload }).click();
    await buyer.locator('input[type="file"]').setInputFiles({
      name: 'orders.edi',
      mimeType: 'application/edifact',
      buffer: Buffer.from(orders(control, [number], ORDER)),
    });
    await expect(buyer.getByTestId('upload-item')).toHaveCount(1);
    await buyer.getByRole('button', { name: text.send, exact: true }).click();
    const result = buyer.getByTestId('upload-result');
    await expect(result).toContainText('orders.edi');
    await expect(result).toContainText(text.created);
    const sentRow = buyer.getByTestId(`document-row-${number}`);
    await expect(sentRow.getByTestId('document-status-sent')).toHaveText(text.sent);
    await afterToasts(buyer);
    await expectAccessible(buyer);
    await buyer.screenshot({ path: `${SHOTS}/documents-outbox-${lang}.png`, fullPage: true });
    await buyer.context().close();

    // The supplier finds it Received in the inbox and opens it over the list.
    const supplier = await newPage(browser, baseURL);
    await logIn(supplier, SUPPLIER);
    if (lang === 'ar') await inArabic(supplier, baseURL);
    await expect(supplier.getByRole('heading', { level: 1, name: text.inbox })).toBeVisible();
    const row = supplier.getByTestId(`document-row-${number}`);
    await expect(row.getByTestId('document-status-received')).toHaveText(text.received);
    await afterToasts(supplier);
    await expectAccessible(supplier);
    await row.getByRole('link', { name: number }).click();
    await expect(supplier).toHaveURL(/\/documents\/in\/[0-9a-f-]{36}/);
    const dialog = supplier.getByRole('dialog');
    const view = dialog.getByTestId('document-view');
    await expect(view.getByTestId('document-status-read')).toHaveText(text.read);
    const lines = view.getByTestId('document-lines');
    await expect(lines.locator('tbody tr')).toHaveCount(2);
    await expect(lines).toContainText('4000862141404');
    await expect(lines).toContainText('48');
    await expect(view.getByTestId('party-BY')).toContainText(RETAILER_GLN);
    await expect(view.getByTestId('party-BY')).toContainText('Demo Retailer');
    await expect(view.getByTestId('party-SU')).toContainText(SUPPLIER_GLN);
    await expectAccessible(supplier);
    await supplier.screenshot({ path: `${SHOTS}/documents-view-${lang}.png`, fullPage: true });

    await view.getByRole('tab', { name: text.original }).click();
    const original = view.getByTestId('document-original');
    await expect(original).toContainText('UNH+1+ORDERS:D:96A:UN:EAN008');
    await expect(original).toContainText(`BGM+220+${number}+9'`);
    // One segment a line.
    expect((await original.innerText()).split('\n').some((l) => l.trim() === "QTY+21:48'")).toBe(true);
    await expectAccessible(supplier);

    // Back on the list, the document is Read.
    await supplier.keyboard.press('Escape');
    await expect(supplier).toHaveURL(/\/documents\/in$/);
    await expect(row.getByTestId('document-status-read')).toHaveText(text.read);

    if (lang === 'en') {
      // The filters narrow the list and the address keeps them over a reload.
      await supplier.getByRole('button', { name: 'Filters' }).click();
      const filters = supplier.getByRole('search');
      await filters.getByLabel('Document number starts with').fill(number);
      await filters.getByRole('button', { name: 'Search' }).click();
      await expect(supplier).toHaveURL(new RegExp(`documentNumber=${number}`));
      await expect(supplier.getByTestId('documents-table').locator('tbody tr')).toHaveCount(1);
      await supplier.reload();
      await expect(supplier.getByRole('search').getByLabel('Document number starts with')).toHaveValue(number);
      await expect(row).toBeVisible();
      await expect(supplier.getByTestId('documents-table').locator('tbody tr')).toHaveCount(1);
      await supplier.getByRole('search').getByLabel('Document number starts with').fill(`${number}-none`);
      await supplier.getByRole('search').getByRole('button', { name: 'Search' }).click();
      await expect(supplier.getByText('No documents match the filters.')).toBeVisible();
    }
    await supplier.context().close();
  });
}

test('the column chooser shows, hides and orders columns, and its choice survives a reload', async ({ page }) => {
  await logIn(page, SUPPLIER);
  // The selection's checkbox column has a header for screen readers only.
  const headers = async () =>
    (await page.getByTestId('documents-table').locator('thead th').allInnerTexts()).filter((h) => h !== 'Selection');
  await expect(page.getByTestId('documents-table')).toBeVisible();
  expect(await headers()).toEqual([
    'Document number',
    'Partner',
    'Delivery point GLN',
    'Document date',
    'Platform time',
    'Status',
  ]);

  await page.getByRole('button', { name: 'Columns' }).click();
  const chooser = page.getByRole('dialog', { name: 'Columns of the list' });
  await chooser.getByRole('button', { name: 'Show Document type' }).click();
  // From the keyboard: the new last column moves up twice.
  await chooser.getByRole('button', { name: 'Move Document type up' }).focus();
  await page.keyboard.press('Enter');
  await chooser.getByRole('button', { name: 'Move Document type up' }).focus();
  await page.keyboard.press('Enter');
  await chooser.getByRole('button', { name: 'Hide Delivery point GLN' }).click();
  await afterToasts(page);
  await expectAccessible(page);
  await chooser.getByRole('button', { name: 'Save' }).click();
  await expect(chooser).toHaveCount(0);
  const chosen = ['Document number', 'Partner', 'Document date', 'Document type', 'Platform time', 'Status'];
  await expect.poll(headers).toEqual(chosen);

  await page.reload();
  await expect(page.getByTestId('documents-table')).toBeVisible();
  await expect.poll(headers).toEqual(chosen);
  // The outbox keeps its own (default) columns.
  await page.goto('/documents/out');
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await expect.poll(headers).toContain('Delivery point GLN');

  // Back to the defaults, so the other journeys see them.
  await page.goto('/documents/in');
  await page.getByRole('button', { name: 'Columns' }).click();
  await chooser.getByRole('button', { name: 'Default columns' }).click();
  await chooser.getByRole('button', { name: 'Save' }).click();
  await expect(chooser).toHaveCount(0);
});

test('on a phone the inbox is a list of cards that never scrolls sideways', async ({ browser, baseURL }) => {
  const { control, number } = unique('PH');
  const buyer = await newPage(browser, baseURL);
  await logIn(buyer, BUYER);
  await buyer.goto('/documents/out');
  await buyer.getByRole('button', { name: 'Upload files' }).click();
  await buyer.locator('input[type="file"]').setInputFiles({
    name: 'phone.edi',
    mimeType: 'application/edifact',
    buffer: Buffer.from(orders(control, [number], ORDER)),
  });
  await buyer.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(buyer.getByTestId('upload-result')).toContainText('Documents created: 1');
  await buyer.context().close();

  const page = await newPage(browser, baseURL);
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, SUPPLIER);
  const card = page.getByTestId(`document-row-${number}`);
  await expect(card).toBeVisible();
  await expect(page.locator('table[data-testid="documents-table"]')).toHaveCount(0);
  await expect(card.getByTestId('document-status-received')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await afterToasts(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/documents-inbox-phone.png`, fullPage: true });
  await card.getByRole('link', { name: number }).click();
  await expect(page.getByRole('dialog').getByTestId('document-lines')).toBeVisible();
  await page.context().close();
});
