import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, afterToasts, expectAccessible, logIn, newPage } from '../support.ts';

// The AI help assistant (issue 15): user@ has the chat-ai role and Demo Retailer the CHAT_AI toggle; clerk@ has not.
const CLERK = { email: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };

type Language = 'en' | 'pl' | 'ar';
type ChatTexts = Record<
  'title' | 'close' | 'helpful' | 'yes' | 'feedbackSentPositive' | 'unavailable' | 'errorTitle' | 'typing',
  string
>;

/** The chat's texts in a language, from its catalog (what the screen shows). */
function textsOf(language: Language): ChatTexts {
  return JSON.parse(
    readFileSync(new URL(`../../packages/i18n/locales/${language}/chat.json`, import.meta.url), 'utf8'),
  ) as ChatTexts;
}

// Questions the help articles answer: the password rules (profile). In Arabic the English collection answers.
const QUESTIONS: Record<Language, string> = {
  en: 'How do I change my password?',
  pl: 'Jak zmienić hasło?',
  ar: 'How do I change my password?',
};

/** Switches the page to a language by its cookie, as the language menu does, and waits for it. */
async function inLanguage(page: Page, language: Language, baseURL: string | undefined) {
  if (language === 'en') return;
  await page.context().addCookies([{ name: 'lang', value: language, url: baseURL ?? 'http://localhost' }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  if (language === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
}

/**
 * Answers of /api/chat/question held back until the test has seen the waiting state and calls `release`, so the
 * check does not race the answer on a slow machine (a fixed delay did, under a loaded CI).
 */
async function heldAnswers(page: Page): Promise<{ release: () => void }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/chat/question', async (route) => {
    await released;
    await route.continue();
  });
  return { release: () => release() };
}

for (const language of ['en', 'pl', 'ar'] as const) {
  test(`ask, wait, answer with sources, feedback once, history after a reload, a failure reverted (${language})`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const t = textsOf(language);
    await logIn(page, DEMO.user);
    await inLanguage(page, language, baseURL);
    await afterToasts(page);
    const answers = await heldAnswers(page);

    const button = page.getByTestId('chat-button');
    await button.click();
    const chat = page.getByRole('dialog', { name: t.title });
    await expect(chat).toBeVisible();
    const input = chat.getByTestId('chat-input');
    await expect(input).toBeFocused();
    await input.fill(QUESTIONS[language]);
    await input.press('Enter');

    // Waiting: the typing indicator and the input disabled.
    await expect(chat.getByTestId('chat-typing')).toBeVisible();
    // Its words are for screen readers only.
    await expect(chat.getByRole('status', { name: t.typing })).toBeAttached();
    await expect(input).toBeDisabled();
    answers.release();
    const answer = chat.getByTestId('chat-answer');
    await expect(answer).toHaveCount(1, { timeout: 30_000 });
    await expect(chat.getByTestId('chat-typing')).toHaveCount(0);
    await expect(input).toBeEnabled();
    await expect(input).toHaveValue('');
    await expect(answer.getByTestId('chat-sources').getByRole('link').first()).toBeVisible();
    await expect(chat.getByText(t.helpful)).toBeVisible();
    if (language === 'ar') {
      // Anchored at the bottom inline-end corner: the left in Arabic.
      const box = await chat.boundingBox();
      expect(box?.x ?? 999).toBeLessThan(40);
    }
    await page.mouse.move(0, 0);
    await expectAccessible(page);

    // One feedback per answer: the buttons go.
    await chat.getByRole('button', { name: t.yes, exact: true }).click();
    await expect(chat.getByText(t.feedbackSentPositive)).toBeVisible();
    await expect(chat.getByRole('button', { name: t.yes, exact: true })).toHaveCount(0);

    // The history is the browser's, per user: there after a reload.
    await page.reload();
    await page.getByTestId('chat-button').click();
    await expect(chat.getByTestId('chat-question')).toHaveText(new RegExp(QUESTIONS[language].replace('?', '\\?')));
    await expect(chat.getByTestId('chat-answer')).toHaveCount(1);
    await expect(chat.getByText(t.feedbackSentPositive)).toBeVisible();

    // A server failure: the Error notification, and the question back in the input.
    await page.route('**/api/chat/question', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'server.unavailable', message: 'down' } }),
      }),
    );
    await chat.getByTestId('chat-input').fill('And the rules?');
    await chat.getByTestId('chat-input').press('Enter');
    const notification = page.locator('.mantine-Notification-root').filter({ hasText: t.unavailable });
    await expect(notification).toBeVisible();
    await expect(notification).toContainText(t.errorTitle);
    await expect(chat.getByTestId('chat-input')).toHaveValue('And the rules?');
    await expect(chat.getByTestId('chat-input')).toBeEnabled();
    await expect(chat.getByTestId('chat-question')).toHaveCount(1);

    // Escape closes the window and gives the focus back to the button.
    await chat.getByTestId('chat-input').press('Escape');
    await expect(chat).toHaveCount(0);
    await expect(page.getByTestId('chat-button')).toBeFocused();
  });
}

test('Explain beside a finding of the Document validation screen asks the assistant', async ({ page }) => {
  await logIn(page, DEMO.user);
  await afterToasts(page);
  await page.goto('/document-validation');
  const orders = [
    "UNA:+.? '",
    "UNB+UNOC:3+5412345000013:14+4012345500004:14+261116:1000+REF0001'",
    "UNH+1+ORDERS:D:96A:UN:EAN008'",
    // BGM 1001 = 999 is not a document name code EANCOM allows.
    "BGM+999+PO12345+9'",
    "DTM+137:20261116:102'",
    "NAD+BY+5412345000013::9'",
    "NAD+SU+4012345500004::9'",
    "LIN+1++4000862141404:EN'",
    "QTY+21:48'",
    "UNS+S'",
    "UNT+9+1'",
    "UNZ+1+REF0001'",
  ].join('\n');
  await page.getByLabel('Document content').fill(orders);
  await page.getByRole('button', { name: 'Validate' }).click();
  const row = page.getByTestId('finding-row').first();
  await expect(row).toBeVisible();
  const text = (await row.getByTestId('finding-message').textContent()) ?? '';
  const explained = page.waitForRequest('**/api/chat/explain');
  await row.getByRole('button', { name: `Explain: ${text}` }).click();
  const body = (await explained).postDataJSON() as { finding: { code: string; line: number }; language: string };
  expect(body.language).toBe('en');
  expect(body.finding.code).toMatch(/^EDI_/);
  const chat = page.getByRole('dialog', { name: 'AI assistant' });
  await expect(chat.getByTestId('chat-question')).toHaveText(`You: Explain: ${text}`);
  await expect(chat.getByTestId('chat-answer')).toHaveCount(1, { timeout: 30_000 });
  await expect(chat.getByText('Was this information helpful?')).toBeVisible();
});

test('on a phone the chat is a full-screen sheet', async ({ browser, baseURL }) => {
  const page = await newPage(browser, baseURL, true);
  await logIn(page, DEMO.user);
  await afterToasts(page);
  await page.getByTestId('chat-button').click();
  const box = await page.getByRole('dialog', { name: 'AI assistant' }).boundingBox();
  expect(box?.width).toBe(390);
  expect(box?.x).toBe(0);
  await page.keyboard.press('Escape');
  await page.context().close();
});

test('clerk@ (no chat-ai role) has no chat button', async ({ page }) => {
  await logIn(page, CLERK);
  await expect(page.getByTestId('nav-inbox')).toBeVisible();
  await expect(page.getByTestId('chat-button')).toHaveCount(0);
});
