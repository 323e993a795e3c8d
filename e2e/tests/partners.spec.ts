import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, expectAccessible } from '../support.ts';

const BUYER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
/**
 * GLNs of demo companies that no other journey makes a partner (the documents journey's exchange between Demo
 * Supplier's and Demo Retailer's own GLNs adds each as the other's partner): Demo Retailer's Central warehouse, which
 * links to Demo Retailer, and Demo KSeF's.
 */
const RETAILER_GLN = '4012345000047';
const KSEF_GLN = '5901234000024';

/**
 * Deletes the account's partner of this GLN, which an earlier try of the journey added (CI tries a failed journey
 * once more), so that each try starts from the demo data.
 */
async function withoutPartner(request: APIRequestContext, account: { email: string; password: string }, gln: string) {
  const login = await request.post('/api/users/login', { data: { login: account.email, password: account.password } });
  const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
    .token.access_token;
  const headers = { authorization: `Bearer ${token}` };
  const found = await request.get(`/api/partners?search=${gln}`, { headers });
  expect(found.status()).toBe(200);
  for (const partner of ((await found.json()) as { items: { id: string; gln: string }[] }).items) {
    if (partner.gln !== gln) continue;
    expect((await request.delete(`/api/partners/${partner.id}`, { headers })).status()).toBe(204);
  }
}

async function logIn(page: Page, account: { email: string; password: string }, labels = { email: 'E-mail' }) {
  await page.goto('/login');
  await page.getByLabel(labels.email).fill(account.email);
  await page.locator('input[type="password"]').fill(account.password);
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/documents\/in$/);
}

test('add a partner by GLN, linked to the platform company, and set its notification e-mail (English)', async ({
  page,
  request,
}) => {
  await withoutPartner(request, DEMO.user, RETAILER_GLN);
  await logIn(page, DEMO.user);
  await page.goto('/partners');
  await expect(page.getByRole('heading', { level: 1, name: 'Trading partners' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Add partner' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add trading partner' });
  // A wrong check digit is refused before anything is sent.
  await dialog.getByLabel('GLN').fill('4012345000017');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog.getByText('This GLN is incorrect (13 digits with a valid check digit)')).toBeVisible();
  await dialog.getByLabel('GLN').fill(RETAILER_GLN);
  await expect(dialog.getByTestId('gln-lookup')).toHaveText('Linked to Demo Retailer, a company on the platform.');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Demo Retailer saved')).toBeVisible();

  const row = page.getByTestId(`partner-row-${RETAILER_GLN}`);
  await expect(row.getByRole('link', { name: 'Demo Retailer' })).toBeVisible();
  await expect(row.getByTestId('partner-linked')).toHaveText('On the platform');
  await expect(row.getByTestId('partner-status')).toHaveText('Active');

  // The same GLN again: the lookup says so, and the server refuses it on the field.
  await page.getByRole('button', { name: 'Add partner' }).click();
  await dialog.getByLabel('GLN').fill(RETAILER_GLN);
  await expect(dialog.getByTestId('gln-lookup')).toHaveText('This GLN is already one of your trading partners.');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog.getByText('This GLN is already one of your trading partners').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('link', { name: 'Demo Retailer' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Demo Retailer' })).toBeVisible();
  await expect(page.getByTestId('partner-linked')).toHaveText('Linked to Demo Retailer');
  await expect(page.getByText(RETAILER_GLN)).toBeVisible();
  await expect(page.getByTestId('notifications-empty')).toBeVisible();

  await page.getByRole('button', { name: 'Add recipient' }).click();
  const recipient = page.getByTestId('notification-0');
  await recipient.getByLabel('E-mail').fill('edi-desk@supplier.example.com');
  await recipient.getByLabel('Language').click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await recipient.getByLabel('A document arrives').uncheck();
  await page.getByRole('button', { name: 'Save notifications' }).click();
  await expect(page.getByText('Notifications saved')).toBeVisible();

  await page.reload();
  await expectAccessible(page);
  const saved = page.getByTestId('notification-0');
  await expect(saved.getByLabel('E-mail')).toHaveValue('edi-desk@supplier.example.com');
  await expect(saved.getByLabel('Language')).toHaveValue('Deutsch');
  await expect(saved.getByLabel('A document arrives')).not.toBeChecked();
  await expect(saved.getByLabel('A document fails')).toBeChecked();
});

test('Arabic: add Demo KSeF by GLN, linked, set its notification e-mail; a phone shows cards', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await withoutPartner(request, BUYER, KSEF_GLN);
  await context.addCookies([{ name: 'lang', value: 'ar', url: baseURL ?? 'http://localhost' }]);
  await logIn(page, BUYER, { email: 'البريد الإلكتروني' });
  await page.goto('/partners');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'الشركاء التجاريون' })).toBeVisible();

  await page.getByRole('button', { name: 'إضافة شريك' }).click();
  const dialog = page.getByRole('dialog', { name: 'إضافة شريك تجاري' });
  await dialog.getByLabel('GLN').fill(KSEF_GLN);
  await expect(dialog.getByTestId('gln-lookup')).toHaveText('مرتبط بـ Demo KSeF، وهي شركة على المنصة.');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'إضافة', exact: true }).click();
  const row = page.getByTestId(`partner-row-${KSEF_GLN}`);
  await expect(row.getByTestId('partner-linked')).toHaveText('على المنصة');
  await expectAccessible(page);

  await row.getByRole('link', { name: 'Demo KSeF' }).click();
  // The detail page first: the list's rows (other partners too) carry badges of the same test id.
  await expect(page.getByRole('heading', { level: 1, name: 'Demo KSeF' })).toBeVisible();
  await expect(page.getByTestId('partner-linked')).toHaveText('مرتبط بـ Demo KSeF');
  await page.getByRole('button', { name: 'إضافة مستلم' }).click();
  await page.getByTestId('notification-0').getByLabel('البريد الإلكتروني').fill('orders@retailer.example.com');
  await page.getByRole('button', { name: 'حفظ الإشعارات' }).click();
  await expect(page.getByText('تم حفظ الإشعارات')).toBeVisible();
  await expectAccessible(page);

  // A phone-sized screen: the list is cards, no table.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/partners');
  const cards = page.getByRole('list', { name: 'الشركاء التجاريون' });
  await expect(cards).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(cards.getByTestId(`partner-row-${KSEF_GLN}`)).toContainText('Demo KSeF');
  await expectAccessible(page);
});
