import { expect, test } from '@playwright/test';
import { afterToasts, expectAccessible, logIn, orders, unique, type OrdersOptions } from '../support.ts';

/**
 * Company API keys (issue 11, decision 0023): Demo Retailer's administrator creates a key on the profile's company
 * panel and sees its secret once, an ERP (here `request.post`) sends an order with it to `POST /api/documents/inbound`,
 * the order is in the outbox, Sent; the key is revoked and the next call is refused (401). English and Arabic, axe,
 * and a phone.
 */

const RETAILER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
/** Without a UNA segment: the inbound API reads the standard separators. */
const ORDER: OrdersOptions = { una: false };

const TEXT = {
  en: {
    title: 'API keys',
    create: 'Create API key',
    createTitle: 'Create an API key',
    name: 'Name',
    submit: 'Create',
    created: (name: string) => `API key "${name}" created`,
    warning: 'It will not be shown again.',
    secret: 'API key',
    done: 'Done',
    revoke: (name: string) => `Revoke ${name}`,
    revokeTitle: (name: string) => `Revoke the API key "${name}"?`,
    confirm: 'Revoke',
    outbox: 'Outbox',
    sent: 'Sent',
  },
  ar: {
    title: 'مفاتيح واجهة البرمجة',
    create: 'إنشاء مفتاح واجهة برمجة',
    createTitle: 'إنشاء مفتاح واجهة برمجة',
    name: 'الاسم',
    submit: 'إنشاء',
    created: (name: string) => `تم إنشاء مفتاح واجهة البرمجة «${name}»`,
    warning: 'لن يُعرض مرة أخرى.',
    secret: 'مفتاح واجهة البرمجة',
    done: 'تم',
    revoke: (name: string) => `إبطال ${name}`,
    revokeTitle: (name: string) => `هل تريد إبطال مفتاح واجهة البرمجة «${name}»؟`,
    confirm: 'إبطال',
    outbox: 'الصادر',
    sent: 'مرسل',
  },
} as const;

for (const lang of ['en', 'ar'] as const) {
  test(`an administrator creates an API key, an ERP sends an order with it, and a revoked key is refused (${lang})`, async ({
    page,
    request,
  }) => {
    // A long journey (two pages, two API calls, four axe runs) on machines shared by many runs.
    test.slow();
    const text = TEXT[lang];
    const { stamp, number } = unique('KEY');
    const name = `ERP ${lang} ${stamp}`;

    await logIn(page, RETAILER);
    if (lang === 'ar') {
      await page.context().addCookies([{ name: 'lang', value: 'ar', url: new URL('/', page.url()).href }]);
    }
    await page.goto('/profile?panel=company-settings');
    if (lang === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const section = page.getByTestId('api-keys');
    // The panel waits for the company profile first; the machines running the journeys can be slow.
    await expect(section.getByRole('heading', { name: text.title })).toBeVisible({ timeout: 30_000 });
    await expect(section.getByTestId('api-keys-example')).toContainText('/api/documents/inbound?direction=out');
    await afterToasts(page);
    await expectAccessible(page);

    // Create, with the keyboard: the dialog's field has the focus, Enter submits.
    await section.getByRole('button', { name: text.create }).click();
    const dialog = page.getByRole('dialog', { name: text.createTitle });
    await expect(dialog.getByRole('textbox', { name: text.name })).toBeFocused();
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    const shown = page.getByRole('dialog', { name: text.created(name) });
    await expect(shown.getByRole('alert')).toContainText(text.warning);
    const secret = await shown.getByRole('textbox', { name: text.secret }).inputValue();
    expect(secret).toMatch(/^edi_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page);
    await shown.getByRole('button', { name: text.done }).click();
    await expect(shown).toHaveCount(0);
    // Shown once: the page holds the prefix only.
    const row = section.locator('[data-key-id]', { hasText: name });
    await expect(row).toContainText(`${secret.slice(0, 12)}…`);
    expect(await page.content()).not.toContain(secret);

    // The ERP sends an order with the key.
    const sent = await request.post('/api/documents/inbound', {
      headers: { 'x-api-key': secret, 'content-type': 'application/edifact' },
      data: orders(`K${stamp}`.slice(0, 14), [number], ORDER),
    });
    expect(sent.status(), await sent.text()).toBe(200);
    expect((await sent.json()).documents).toEqual([
      expect.objectContaining({ documentNumber: number, direction: 'out', status: 'sent' }),
    ]);

    await page.goto('/documents/out');
    await expect(page.getByRole('heading', { level: 1, name: text.outbox })).toBeVisible();
    await expect(page.getByTestId(`document-row-${number}`).getByTestId('document-status-sent')).toHaveText(text.sent);

    // Revoke after confirming; the next call is refused.
    await page.goto('/profile?panel=company-settings');
    await section.getByRole('button', { name: text.revoke(name) }).click();
    const confirm = page.getByRole('dialog', { name: text.revokeTitle(name) });
    await expectAccessible(page);
    await confirm.getByRole('button', { name: text.confirm }).click();
    await expect(section.getByRole('button', { name: text.revoke(name) })).toHaveCount(0);
    const refused = await request.post('/api/documents/inbound', {
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/edifact' },
      data: orders(`L${stamp}`.slice(0, 14), [`${number}-2`], ORDER),
    });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe('api_keys.invalid');

    // A phone: the keys are cards, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/profile?panel=company-settings');
    await expect(section.locator('[data-key-id]', { hasText: name })).toBeVisible({ timeout: 30_000 });
    await expect(section.getByRole('table')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await afterToasts(page);
    await expectAccessible(page);
  });
}
