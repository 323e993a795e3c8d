import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { afterToasts, expectAccessible, inArabic, logIn, orders, unique, type OrdersOptions } from '../support.ts';

/**
 * The document view (issue 11, part 4): the supplier opens a received order, sees the meaning of its codes (220 is
 * "Order"), reads an element's name in the Original tab by hover and by keyboard, downloads the original (the same
 * bytes in UTF-8; ISO 8859-2 bytes once the profile says so) and the PDF, after which the document is Printed.
 * English and Arabic, axe, and a phone-sized screen.
 */
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const SUPPLIER = { email: 'user@demo.example.com', password: 'User#Demo2026' };
/** A delivery point no other journey names. */
const DELIVERY_POINT = '4012345000924';

/** An order in UTF-8 with Polish text, from the retailer to the supplier, one segment a line. */
const ORDER: OrdersOptions = {
  header: ["FTX+AAI+++Zażółć gęślą jaźń'"],
  deliveryPoint: DELIVERY_POINT,
  utf8: true,
  lineBreaks: true,
};

/** Sends an order through the upload API as the buyer; answers the order's text and number. */
async function sendOrder(request: APIRequestContext, tag: string): Promise<{ text: string; number: string }> {
  const { control, number } = unique(tag, { controlPrefix: 'V', numberPrefix: 'PV' });
  const text = orders(control, [number], ORDER);
  const login = await request.post('/api/users/login', { data: BUYER });
  expect(login.ok()).toBe(true);
  const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
    .token.access_token;
  const upload = await request.post('/api/documents/upload?direction=out', {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: `${number}.edi`, mimeType: 'application/edifact', buffer: Buffer.from(text) } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  return { text, number };
}

/** The supplier's profile settings (file encoding), through the API with a login of its own. */
async function setEncoding(request: APIRequestContext, fileEncoding: string) {
  const login = await request.post('/api/users/login', {
    data: { login: SUPPLIER.email, password: SUPPLIER.password },
  });
  expect(login.ok()).toBe(true);
  const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
    .token.access_token;
  const res = await request.put('/api/users/settings', {
    headers: { authorization: `Bearer ${token}` },
    data: { fileEncoding, vatAlgorithm: 'invoice-summary', fileNamingFormat: 'DocType_PartnerName_DocNumber' },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

const TEXT = {
  en: { download: 'Download', original: "Original file (your profile's encoding)", pdf: 'PDF', tab: 'Original' },
  ar: { download: 'تنزيل', original: 'الملف الأصلي (ترميز ملفك الشخصي)', pdf: 'PDF', tab: 'الأصل' },
};

for (const language of ['en', 'ar'] as const) {
  test(`the supplier reads the codes, the element names, and downloads the original and the PDF (${language})`, async ({
    page,
    request,
    baseURL,
  }) => {
    // A long journey (two downloads, a PDF rendered on the server): more than the default time on a busy machine.
    test.setTimeout(240_000);
    const words = TEXT[language];
    const { text, number } = await sendOrder(request, language.toUpperCase());
    await logIn(page, SUPPLIER);
    await afterToasts(page);
    if (language === 'ar') await inArabic(page, baseURL);
    await page.getByRole('link', { name: number }).click();
    const view = page.getByTestId('document-view');
    await expect(view.getByTestId('document-name-code')).toHaveText('220 · Order');
    await expect(view.getByTestId('code-hint').filter({ hasText: 'Document/message date/time' })).toBeVisible();
    await expectAccessible(page);

    // The original: element names on hover, and on keyboard focus with the arrow keys.
    await view.getByRole('tab', { name: words.tab }).click();
    const original = view.getByTestId('document-original');
    await original.locator('[data-element="BGM"]').hover();
    await expect(page.getByRole('tooltip')).toHaveText('BGM · BEGINNING OF MESSAGE');
    await original.locator('[data-element="BGM"]').focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tooltip')).toContainText('1001');
    await expectAccessible(page);

    // The original in UTF-8: the bytes as sent.
    await view.getByRole('button', { name: words.download }).click();
    const [utf8] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: words.original }).click(),
    ]);
    expect(utf8.suggestedFilename()).toBe(`ORDERS_Demo-Retailer_${number}.edi`);
    expect((await readFile(await utf8.path())).equals(Buffer.from(text))).toBe(true);

    // With ISO 8859-2 in the profile: the same text in that encoding.
    await setEncoding(request, 'iso-8859-2');
    await view.getByRole('button', { name: words.download }).click();
    const [latin2] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: words.original }).click(),
    ]);
    const bytes = await readFile(await latin2.path());
    expect(new TextDecoder('iso-8859-2').decode(bytes)).toBe(text);
    expect(bytes.equals(Buffer.from(text))).toBe(false);
    await setEncoding(request, 'utf-8');

    // The PDF; the document is Printed afterwards.
    await view.getByRole('button', { name: words.download }).click();
    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: words.pdf }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`ORDERS_Demo-Retailer_${number}.pdf`);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
    await expect(view.getByText(language === 'en' ? 'Printed' : 'مطبوع').first()).toBeVisible();
  });
}

test('the view on a phone: the downloads and the original tab fit', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { number } = await sendOrder(request, 'PH');
  await logIn(page, SUPPLIER);
  await afterToasts(page);
  await page.goto('/documents/in');
  await page.getByText(number).first().click();
  const view = page.getByTestId('document-view');
  await expect(view.getByTestId('document-name-code')).toHaveText('220 · Order');
  await expect(view.getByRole('button', { name: 'Download' })).toBeVisible();
  await view.getByRole('tab', { name: 'Original' }).click();
  await expect(view.getByTestId('document-original')).toBeVisible();
  await expectAccessible(page);
});
