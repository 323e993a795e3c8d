import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, expectAccessible } from '../support.ts';

// A small EANCOM ORDERS (D96A, EAN008) written for this journey: valid as it stands.
const SEGMENTS = [
  "UNA:+.? '",
  "UNB+UNOC:3+5412345000013:14+4012345500004:14+261116:1000+REF0001'",
  "UNH+1+ORDERS:D:96A:UN:EAN008'",
  "BGM+220+PO12345+9'",
  "DTM+137:20261116:102'",
  "NAD+BY+5412345000013::9'",
  "NAD+SU+4012345500004::9'",
  "LIN+1++4000862141404:EN'",
  "QTY+21:48'",
  "UNS+S'",
  "UNT+9+1'",
  "UNZ+1+REF0001'",
];
const VALID = SEGMENTS.join('');
// BGM 1001 = 999 is not a document name code EANCOM allows (one segment per line, so BGM is line 4).
const MAP_ERROR = SEGMENTS.join('\n').replace('BGM+220', 'BGM+999');
// Without BGM the message misses a mandatory segment of the UN/EDIFACT directory.
const SPEC_ERROR = SEGMENTS.filter((s) => !s.startsWith('BGM')).join('');

const MAP_TEXT = 'The document contains errors according to map validation.';
const SPEC_TEXT = 'The document contains errors according to specification validation.';
const OK_TEXT = 'Document validated successfully.';

async function logIn(page: Page, login: string, password: string) {
  await page.getByLabel('E-mail').fill(login);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function validate(page: Page, content: string) {
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.getByLabel('Document content').fill(content);
  await page.getByRole('button', { name: 'Validate' }).click();
}

const verdict = (page: Page) => page.getByTestId('validation-verdict');
// Screenshots a person looks at (E2E_SHOTS, or beside the test results).
const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;

/**
 * The login toast comes from the shared notify helper, whose close button has no accessible name yet (reported);
 * axe looks at this page once that toast has closed by itself.
 */
async function afterLoginToast(page: Page) {
  await expect(
    page.locator('.mantine-Notification-root').filter({ hasText: 'You have logged in successfully.' }),
  ).toHaveCount(0, { timeout: 15_000 });
}

test('validate EANCOM orders: map and specification errors with their rows, a clean one, the CONTRL report', async ({
  page,
}) => {
  await page.goto('/document-validation');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdocument-validation/);
  await logIn(page, DEMO.user.email, DEMO.user.password);
  await expect(page).toHaveURL(/\/document-validation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Document validation' })).toBeVisible();
  await expect(page.getByText('Paste document content below and press Validate')).toBeVisible();

  // Map error: the notification, the message list and a row per finding.
  await validate(page, MAP_ERROR);
  await expect(verdict(page)).toContainText(MAP_TEXT);
  await expect(page.getByTestId('message-list')).toContainText('ORDERS');
  await expect(page.getByTestId('message-list')).toContainText('EAN008');
  const mapRow = page.getByTestId('finding-row').filter({ hasText: 'is not allowed by the guide' });
  await expect(mapRow).toHaveCount(1);
  await expect(mapRow).toContainText('BGM[1]/C002/1001');
  await expect(mapRow).toContainText('999');
  await expect(mapRow).toContainText('Map');
  // Choosing the row shows its line in the paste area.
  await mapRow.click();
  await expect(page.getByTestId('line-highlight')).toHaveAttribute('data-line', '4');
  await page.screenshot({ path: test.info().outputPath('desktop-map-error.png'), fullPage: true });
  await afterLoginToast(page);
  await expectAccessible(page);

  // Filters: only the map level.
  await page.getByRole('combobox', { name: 'Message', exact: true }).click();
  await page.getByRole('option', { name: 'Map' }).click();
  await expect(page.getByTestId('finding-row')).toHaveCount(1);

  // Specification error.
  await validate(page, SPEC_ERROR);
  await expect(verdict(page)).toContainText(SPEC_TEXT);
  await expect(
    page.getByTestId('finding-row').filter({ hasText: 'The mandatory segment BGM is missing.' }),
  ).toHaveCount(1);
  await expect(
    page.getByTestId('finding-row').filter({ hasText: 'Segment UNT says 9 segments, the message has 8.' }),
  ).toHaveCount(1);

  // A valid message.
  await validate(page, VALID);
  await expect(verdict(page)).toContainText(OK_TEXT);
  await expect(page.getByTestId('finding-row')).toHaveCount(0);

  // The CONTRL report of the map-error message, saved as CONTRL.edi.
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.getByLabel('Document content').fill(MAP_ERROR);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CONTRL' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('CONTRL.edi');
  const contrl = readFileSync(await file.path(), 'utf8');
  expect(contrl).toMatch(/UNH\+[^']*CONTRL:/);
  expect(contrl).toContain('UNB+');

  // Reset empties everything.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByLabel('Document content')).toHaveValue('');
  await expect(page.getByTestId('validation-result')).toHaveCount(0);
});

test('phone width: the paste area and the result list stay usable', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/document-validation');
  await logIn(page, DEMO.user.email, DEMO.user.password);
  await validate(page, MAP_ERROR);
  await expect(verdict(page)).toContainText(MAP_TEXT);
  await page.screenshot({ path: test.info().outputPath('phone-map-error.png'), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
});

test('Arabic: right to left, translated texts and findings, accessible', async ({ page, context, baseURL }) => {
  await page.goto('/document-validation');
  await logIn(page, DEMO.user.email, DEMO.user.password);
  await expect(page).toHaveURL(/\/document-validation$/);
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? 'http://localhost' }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'التحقق من المستندات' })).toBeVisible();
  await page.getByLabel('محتوى المستند').fill(MAP_ERROR);
  await page.getByRole('button', { name: 'تحقّق' }).click();
  await expect(verdict(page)).toContainText('يحتوي المستند على أخطاء وفقًا للتحقق بالخريطة.');
  await expect(page.getByTestId('finding-row').filter({ hasText: 'غير مسموح بها في الإرشادات' })).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('arabic-map-error.png'), fullPage: true });
  await expectAccessible(page);
});

test('the clerk has no document validation', async ({ page }) => {
  await page.goto('/document-validation');
  await logIn(page, 'clerk@demo.example.com', 'Clerk#Demo2026');
  await expect(page).not.toHaveURL(/\/document-validation/);
  await expect(page).toHaveURL(/\/documents\/in$/);
  await expect(page.getByRole('link', { name: 'Document validation' })).toHaveCount(0);
  await expect(page.getByLabel('Document content')).toHaveCount(0);
});

// What a person needs from a finding is what is wrong: that text must be on screen without sideways scrolling, at a
// laptop's width and on a phone, left to right and right to left; the verdict is said once, and nothing covers it.
for (const [lang, width, height] of [
  ['en', 1366, 768],
  ['en', 390, 844],
  ['ar', 1366, 768],
  ['ar', 390, 844],
] as const) {
  test(`the result fits at ${String(width)} px in ${lang}: each finding's message readable, the verdict said once`, async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/document-validation');
    await logIn(page, DEMO.user.email, DEMO.user.password);
    await expect(page).toHaveURL(/\/document-validation$/);
    if (lang === 'ar') {
      await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? 'http://localhost' }]);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    }
    await afterLoginToast(page);
    await page.getByLabel(lang === 'ar' ? 'محتوى المستند' : 'Document content').fill(MAP_ERROR);
    await page.getByRole('button', { name: lang === 'ar' ? 'تحقّق' : 'Validate' }).click();
    const verdictText = lang === 'ar' ? 'يحتوي المستند على أخطاء وفقًا للتحقق بالخريطة.' : MAP_TEXT;
    await expect(verdict(page)).toContainText(verdictText);
    // Said once: right when the verdict shows, no toast repeats it.
    const toasts = page.locator('.mantine-Notification-root');
    expect(await toasts.filter({ hasText: verdictText }).count()).toBe(0);

    const row = page
      .getByTestId('finding-row')
      .filter({ hasText: lang === 'ar' ? 'غير مسموح بها في الإرشادات' : 'is not allowed by the guide' });
    await expect(row).toHaveCount(1);
    const text = row.getByTestId('finding-message');
    // Scrolled to vertically only, as a reader would; a sideways scroll would hide what this checks.
    await text.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
    await expect(text).toBeVisible();
    // Inside the window and inside every scrolling box around it: nothing to scroll sideways to read it.
    const clipped = await text.evaluate((el) => {
      const box = el.getBoundingClientRect();
      if (box.left < 0 || box.right > window.innerWidth + 1) return 'outside the window';
      for (let p = el.parentElement; p; p = p.parentElement) {
        if (p.scrollWidth > p.clientWidth + 1 && getComputedStyle(p).overflowX !== 'visible') {
          const outer = p.getBoundingClientRect();
          if (box.left < outer.left - 1 || box.right > outer.right + 1) return 'scrolled out of its box';
        }
      }
      // Whole words on whole lines: nothing cut off inside the cell.
      if (el.scrollWidth > el.clientWidth + 1) return 'cut off';
      return null;
    });
    expect(clipped).toBeNull();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);

    // No toast lies over the verdict.
    await verdict(page).scrollIntoViewIfNeeded();
    const alertBox = await verdict(page).boundingBox();
    for (const toastBox of await Promise.all((await toasts.all()).map((t) => t.boundingBox()))) {
      if (!alertBox || !toastBox) continue;
      const apart =
        toastBox.x + toastBox.width <= alertBox.x ||
        alertBox.x + alertBox.width <= toastBox.x ||
        toastBox.y + toastBox.height <= alertBox.y ||
        alertBox.y + alertBox.height <= toastBox.y;
      expect(apart).toBe(true);
    }
    await page.screenshot({ path: `${SHOTS}/document-validation-${lang}-${String(width)}.png`, fullPage: true });
    // Chosen with the keyboard (a card on the phone, a row on the laptop), it shows its line in the paste area.
    await row.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('line-highlight')).toHaveAttribute('data-line', '4');

    // And as a person sees it, scrolled to the findings.
    await text.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2));
    await page.screenshot({ path: `${SHOTS}/document-validation-${lang}-${String(width)}-findings.png` });
    await expectAccessible(page);
  });
}
