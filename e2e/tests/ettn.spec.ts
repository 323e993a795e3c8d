import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO, expectAccessible, logIn, newPage, stamp } from '../support.ts';

/**
 * e-TTN (issue 14) over the portal's embedded registry simulator: Demo Supplier (consignor) writes and signs a note
 * to Demo Retailer (consignee) carried by Demo Transport; each party acts in its turn and sees the status move.
 */
const CARRIER = { email: 'carrier@demo.example.com', password: 'Carrier#Demo2026' };
const RETAILER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };

async function inUkrainian(page: Page, baseURL: string | undefined): Promise<void> {
  await page.context().addCookies([{ name: 'lang', value: 'uk', url: baseURL ?? 'http://localhost' }]);
}

async function openNote(page: Page, processId: string): Promise<ReturnType<Page['getByTestId']>> {
  await page.goto(`/ettn/${processId}`);
  const modal = page.getByTestId('ettn-modal');
  await expect(modal.getByTestId('ettn-view')).toBeVisible();
  return modal;
}

async function pdfOf(page: Page, modal: ReturnType<Page['getByTestId']>, name: RegExp): Promise<void> {
  const download = page.waitForEvent('download');
  const button = modal.getByRole('button', { name });
  await button.click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  // Done loading, and the pointer off it: a loading or hovered light button is fainter than the contrast check wants.
  await expect(button).not.toHaveAttribute('data-loading');
  await page.mouse.move(0, 0);
}

async function party(browser: Browser, baseURL: string | undefined, account: typeof CARRIER, uk = false) {
  const page = await newPage(browser, baseURL);
  if (uk) await inUkrainian(page, baseURL);
  await logIn(page, account, { byPurpose: uk });
  return page;
}

test('a note from consignor to consignee: sign and send, pick-up, a disagreement act, arrival; code 7 out of order', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const number = `TTN-E2E-${stamp()}`;

  // 1. Demo Supplier writes the note by form: it becomes a pending e-TTN, which it signs and sends.
  await logIn(page, DEMO.user);
  await page.goto('/ettn');
  await page.getByTestId('ettn-new').click();
  await expect(page).toHaveURL(/\/ettn\/new/);
  await expectAccessible(page);
  const form = page.getByRole('form', { name: 'e-TTN details' });
  await form.getByRole('textbox', { name: /^Number/ }).fill(number);
  for (const [which, edrpou, name, address] of [
    ['consignee', '00032129', 'Demo Retailer', '79000, Львів, пл. Ринок, 1'],
    ['carrier', '32855961', 'Demo Transport', '01001, Київ, вул. Хрещатик, 10'],
  ] as const) {
    const box = form.getByTestId(`ettn-create-${which}`);
    await box.getByRole('textbox', { name: /^EDRPOU code/ }).fill(edrpou);
    await box.getByRole('textbox', { name: /^Name/ }).fill(name);
    await box.getByRole('textbox', { name: /^Address/ }).fill(address);
  }
  await form.getByRole('textbox', { name: /^Driver's full name/ }).fill('Іван Водій');
  await form.getByRole('textbox', { name: /^Driver's RNOKPP/ }).fill('3184710691');
  await form.getByRole('textbox', { name: /^Driver's licence/ }).fill('ВХМ123456');
  await form.getByRole('textbox', { name: /^Vehicle registration plate/ }).fill('AA1234BB');
  await form.getByRole('textbox', { name: /^Vehicle brand/ }).fill('DAF');
  await form.getByRole('textbox', { name: /^Vehicle model/ }).fill('XF 480');
  // The places by their КАТОТТГ codes (Kyiv, Lviv); the unloading place by Demo Retailer's GLN, the loading place's
  // left to the company's own.
  const loading = form.getByTestId('ettn-create-loading');
  await loading.getByRole('textbox', { name: /^Loading address/ }).fill('01001, Київ, вул. Хрещатик, 22');
  await loading.getByRole('textbox', { name: /^KATOTTG code/ }).fill('UA80000000000093317');
  const unloading = form.getByTestId('ettn-create-unloading');
  await unloading.getByRole('textbox', { name: /^Unloading address/ }).fill('79000, Львів, пл. Ринок, 1');
  await unloading.getByRole('textbox', { name: /^KATOTTG code/ }).fill('UA46060250010015970');
  await unloading.getByRole('textbox', { name: /^Place GLN/ }).fill('4012345000016');
  const line = form.getByTestId('ettn-create-item-0');
  await line.getByRole('textbox', { name: /^Goods name/ }).fill('Олія соняшникова');
  await line.getByRole('textbox', { name: /^Quantity/ }).fill('10');
  await line.getByRole('textbox', { name: /^Gross weight, kg/ }).fill('1200');
  await page.getByTestId('ettn-create-submit').click();

  await expect(page).toHaveURL(/\/ettn\/pending\/[0-9a-f-]{36}/);
  const pending = page.getByTestId('ettn-modal');
  await expect(pending.getByTestId('ettn-view')).toContainText('Demo Retailer');
  await pending.getByTestId('ettn-action-sign').click();
  await expect(page).toHaveURL(/\/ettn\/[0-9a-f-]{36}/);
  const processId = /\/ettn\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  let modal = page.getByTestId('ettn-modal');
  await expect(modal.getByTestId('ettn-view')).toContainText('Planned');
  await expect(modal.getByTestId('ettn-signature')).toHaveCount(1);
  await expectAccessible(page);
  await pdfOf(page, modal, /^Download PDF/);
  await page.goto('/ettn');
  await expect(page.getByTestId('ettn-table')).toContainText(number);

  // 2. Demo Retailer, in Ukrainian, tries a disagreement act before the pick-up: code 7 in its words.
  const retailer = await party(browser, baseURL, RETAILER, true);
  let retailerModal = await openNote(retailer, processId);
  await expect(retailerModal.getByTestId('ettn-view')).toContainText('Заплановано');
  await retailerModal.getByTestId('ettn-act-type').click();
  await retailer.getByRole('option', { name: 'Акт розбіжностей' }).click();
  await retailerModal.getByTestId('ettn-act-reason').fill('Недостача 2 ящиків');
  await retailerModal.getByRole('button', { name: 'Скласти акт' }).last().click();
  await expect(retailerModal.getByTestId('ettn-action-error')).toContainText('Некоректний перехід між станами ТТН');
  await expectAccessible(retailer);

  // 3. Demo Transport signs the pick-up.
  const carrier = await party(browser, baseURL, CARRIER);
  const carrierModal = await openNote(carrier, processId);
  await expect(carrierModal.getByTestId('ettn-action-sign')).toHaveText('Sign the pick-up');
  await carrierModal.getByTestId('ettn-action-sign').click();
  await expect(carrierModal.getByTestId('ettn-view')).toContainText('Picked up');
  await pdfOf(carrier, carrierModal, /^Download PDF/);

  // 4. Demo Retailer starts the disagreement act now, then signs the arrival.
  retailerModal = await openNote(retailer, processId);
  await expect(retailerModal.getByTestId('ettn-view')).toContainText('Вантаж прийнято');
  await retailerModal.getByTestId('ettn-act-type').click();
  await retailer.getByRole('option', { name: 'Акт розбіжностей' }).click();
  await retailerModal.getByTestId('ettn-act-reason').fill('Недостача 2 ящиків');
  await retailerModal.getByRole('button', { name: 'Скласти акт' }).last().click();
  await expect(retailerModal.getByTestId('ettn-act')).toHaveCount(1);
  await expect(retailerModal.getByTestId('ettn-act')).toContainText('Акт розбіжностей');
  await retailerModal.getByTestId('ettn-action-sign').click();
  await expect(retailerModal.getByTestId('ettn-view')).toContainText('Прибуло');
  await pdfOf(retailer, retailerModal, /^Завантажити PDF/);
  await expectAccessible(retailer);

  // 5. The consignor sees where the note is now.
  modal = await openNote(page, processId);
  await expect(modal.getByTestId('ettn-view')).toContainText('Arrived');
  await expect(modal.getByTestId('ettn-act')).toContainText('Disagreement act');
  await retailer.context().close();
  await carrier.context().close();
});

test('the expiry dialog greets Demo Supplier: its subscription ends within 14 days', async ({ browser, baseURL }) => {
  // A context of its own without the storage that marks today's dialog as seen (see e2e/support.ts).
  const context = await browser.newContext({ baseURL, locale: 'en-GB', storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await logIn(page, DEMO.user);
  const dialog = page.getByRole('dialog', { name: 'e-TTN registration expires soon' });
  await expect(dialog).toBeVisible({ timeout: 10_000 });
  await expect(dialog).toContainText('14360570');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Open e-TTN subscriptions' }).click();
  await expect(page).toHaveURL(/\/profile\?panel=ettn-subscriptions/);
  // Once a day: a reload does not show it again.
  await page.reload();
  await page.waitForTimeout(3000);
  await expect(dialog).toBeHidden();
  await context.close();
});
