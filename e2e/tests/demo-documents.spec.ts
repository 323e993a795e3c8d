import { expect, test, type Page } from '@playwright/test';
import { afterToasts, expectAccessible, inArabic, logIn, newPage } from '../support.ts';

/**
 * Demo documents (issue 11, part 5): each login of the demo account gets sample documents of its own. Two browsers
 * log in as demo at once and each sees its own set (other numbers); one logs out, the other still sees its own. In
 * English and Arabic, with axe, the second browser on a phone-sized screen.
 */
const DEMO = { email: 'demo@demo.example.com', password: 'Demo#Demo2026' };
/** By the fields' purpose, not their labels: logging in again after a logout in Arabic keeps the Arabic page. */
const BY_PURPOSE = { byPurpose: true };
const SHOTS = process.env.E2E_SHOTS ?? `${process.env.E2E_ARTIFACTS ?? './.artifacts'}/shots`;

const TEXT = {
  en: { inbox: 'Inbox', outbox: 'Outbox', sent: 'Sent', leave: 'Leave' },
  ar: { inbox: 'الوارد', outbox: 'الصادر', sent: 'مرسل', leave: 'المغادرة' },
} as const;

const rows = (page: Page) => page.locator('[data-testid^="document-row-"]');

/** The document numbers of the list, once the session's set is there (it is made by a job just after the login). */
async function numbersOnceReady(page: Page, count: number): Promise<string[]> {
  await expect(async () => {
    await page.reload();
    await expect(rows(page)).toHaveCount(count, { timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
  const ids = await rows(page).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.replace('document-row-', '')).sort();
}

async function logOut(page: Page, leave: string) {
  const item = page.getByTestId('nav-logout');
  if (!(await item.isVisible())) await page.getByTestId('user-menu').click();
  await item.click();
  // The main layout's Logout asks 'Unsaved changes' every time (description, section 2).
  await page.getByRole('dialog').getByRole('button', { name: leave }).click();
  await expect(page).toHaveURL(/\/login/);
}

for (const lang of ['en', 'ar'] as const) {
  test(`${lang}: two demo sessions see their own documents, and a logout leaves the other's`, async ({
    browser,
    baseURL,
  }) => {
    // Two browsers, two sets made by a job, axe four times: generous for a loaded machine.
    test.setTimeout(300_000);
    const text = TEXT[lang];
    const desk = await newPage(browser, baseURL);
    const phone = await newPage(browser, baseURL, true);
    await logIn(desk, DEMO, BY_PURPOSE);
    await logIn(phone, DEMO, BY_PURPOSE);
    if (lang === 'ar') {
      await inArabic(desk, baseURL);
      await inArabic(phone, baseURL);
    }

    // Four orders received (one with errors) in each inbox, with numbers of its own.
    const mine = await numbersOnceReady(desk, 4);
    const theirs = await numbersOnceReady(phone, 4);
    expect(mine.some((n) => theirs.includes(n))).toBe(false);
    await expect(desk.getByRole('heading', { level: 1, name: text.inbox })).toBeVisible();
    await expect(desk.getByTestId('document-status-error')).toHaveCount(1);
    await afterToasts(desk);
    await expectAccessible(desk);
    await desk.screenshot({ path: `${SHOTS}/demo-documents-inbox-${lang}.png`, fullPage: true });

    // The phone shows cards, never scrolling sideways.
    await expect(phone.locator('table[data-testid="documents-table"]')).toHaveCount(0);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await afterToasts(phone);
    await expectAccessible(phone);

    // The outbox: a response, despatch advices and invoices, Sent to Demo Retailer.
    await desk.goto('/documents/out');
    await expect(desk.getByRole('heading', { level: 1, name: text.outbox })).toBeVisible();
    await expect(rows(desk)).toHaveCount(5);
    await expect(desk.getByTestId('document-status-sent')).toHaveCount(5);
    await expect(desk.getByTestId('document-status-sent').first()).toHaveText(text.sent);
    await expectAccessible(desk);

    // One logs out; the other still sees its own set after a reload.
    await logOut(desk, text.leave);
    await phone.reload();
    await expect(rows(phone)).toHaveCount(4);
    expect(await numbersOnceReady(phone, 4)).toEqual(theirs);

    // Logging in again is a new session with a new set: none of the old numbers come back.
    await logIn(desk, DEMO, BY_PURPOSE);
    const again = await numbersOnceReady(desk, 4);
    expect(again.some((n) => mine.includes(n) || theirs.includes(n))).toBe(false);

    await desk.context().close();
    await phone.context().close();
  });
}
