import { expect, test, type APIRequestContext } from '@playwright/test';
import { SUPPLIER_GLN, afterToasts, expectAccessible, logIn } from '../support.ts';

/**
 * KSeF in the browser (issue 13): the demo-ksef user finds its company bound to the portal's KSeF simulator and
 * tests the connection, writes an invoice to Demo Supplier and sends it; the invoice goes to KSeF through the job,
 * and the document view shows it accepted with its KSeF number, and gives its UPO. The other way: the invoice Demo
 * Supplier issues Demo KSeF in the simulator at the demo's first start arrives in Demo KSeF's inbox.
 */
const KSEF_USER = { email: 'ksef@demo.example.com', password: 'Ksef#Demo2026' };

/** Demo KSeF's partner Demo Supplier (the demo start makes it; a test server may not have), through the API. */
async function supplierPartner(request: APIRequestContext) {
  const login = await request.post('/api/users/login', {
    data: { login: KSEF_USER.email, password: KSEF_USER.password },
  });
  const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
    .token.access_token;
  const res = await request.post('/api/partners', {
    headers: { authorization: `Bearer ${token}` },
    data: { gln: SUPPLIER_GLN, docTypesOut: ['INVOIC'] },
  });
  expect([201, 409]).toContain(res.status());
}

test('the demo-ksef user tests its KSeF connection, sends an invoice, sees it accepted and downloads its UPO', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await supplierPartner(request);
  const number = `FV/KSEF/${Date.now()}`;

  await logIn(page, KSEF_USER);
  // The first-time manual of the demo-ksef variant comes a second after the layout opens.
  await page.getByRole('button', { name: 'Got it' }).click();

  await page.goto('/profile?panel=company-settings');
  const ksef = page.getByTestId('ksef');
  await expect(ksef.getByRole('combobox', { name: 'KSeF environment' })).toHaveValue(
    'Portal simulator (for trying it out)',
  );
  await expect(ksef.getByTestId('ksef-certificate-subject')).toContainText('VATPL-7010002139');
  await ksef.getByRole('button', { name: 'Test connection' }).click();
  await expect(ksef.getByTestId('ksef-test-result')).toHaveText('Connected: KSeF accepted the login.');
  await afterToasts(page);
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  await page.goto('/documents/out');
  await page.getByTestId('new-document').click();
  await page.getByTestId('new-invoice').click();
  await expect(page).toHaveURL(/\/drafts\//);
  await page.getByTestId('draft-number').fill(number);
  await page.getByRole('button', { name: 'Add a line' }).click();
  await page.getByTestId('draft-line-0-description').fill('Usługa wdrożeniowa');
  await page.getByTestId('draft-line-0-quantity').fill('2');
  await page.getByTestId('draft-line-0-price').fill('150.00');
  await page.getByTestId('draft-line-0-vatRate').fill('23');
  await expect(page.getByTestId('draft-save-state')).toHaveText('All changes saved');
  await page.getByTestId('draft-send').click();
  await expect(page.getByTestId('draft-sent')).toBeVisible();

  await page.goto(`/documents/out?documentNumber=${encodeURIComponent(number)}`);
  await page.getByRole('link', { name: number }).first().click();
  const panel = page.getByTestId('ksef-submission');
  // The job sends it and the simulator answers 100, 150, then 200: the panel asks again while it is on its way.
  await expect(panel.getByTestId('ksef-submission-state')).toHaveText('Accepted by KSeF', { timeout: 60_000 });
  await expect(panel.getByTestId('ksef-submission-number')).toHaveText(/^7010002139-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/);
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download UPO' }).click();
  expect((await download).suggestedFilename()).toMatch(/^UPO_7010002139-.*\.xml$/);
  await page.mouse.move(0, 0);
  await expectAccessible(page);
});

test("Demo Supplier issues an invoice to Demo KSeF and it arrives in Demo KSeF's inbox through the simulator", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // The server issues it at the demo's first start (main.ts), numbered with that day.
  const number = /^FV\/\d{4}\/\d{2}\/\d{2}\/KSEF-DEMO$/;

  await logIn(page, KSEF_USER);
  await page.getByRole('button', { name: 'Got it' }).click();

  // The receiving job runs every five minutes on the simulator; "Receive invoices now" does not wait for it.
  await page.goto('/profile?panel=company-settings');
  const receive = page.getByTestId('ksef-receive');
  await receive.getByRole('button', { name: 'Receive invoices now' }).click();
  await expect(
    page.getByText('Receiving has started: new invoices will appear in the inbox in a moment.'),
  ).toBeVisible();
  await afterToasts(page);
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  const link = page.getByRole('link', { name: number });
  await expect(async () => {
    await page.goto(`/documents/in?documentNumber=${encodeURIComponent('FV/')}`);
    await expect(link).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [2_000] });
  await link.first().click();

  const view = page.getByTestId('document-view');
  await expect(view.getByTestId('party-SU')).toContainText('Demo Supplier');
  await expect(view.getByTestId('party-BY')).toContainText('Demo KSeF');
  const lines = view.getByTestId('document-lines');
  await expect(lines).toContainText('Woda mineralna 0,5 l');
  await expect(lines).toContainText('Kawa ziarnista 1 kg');
  const vat = view.getByRole('table', { name: 'VAT summary' });
  await expect(vat.locator('tbody tr')).toHaveCount(2);
  await expect(vat.locator('tbody tr').filter({ hasText: '23 %' })).toContainText('119.80');
  await expect(vat.locator('tbody tr').filter({ hasText: '8 %' })).toContainText('30.96');
  await page.mouse.move(0, 0);
  await expectAccessible(page);

  // The original is the FA(3) XML as KSeF keeps it, shown as XML (not cut into EDIFACT segments).
  await view.getByRole('tab', { name: 'Original' }).click();
  const original = view.getByTestId('document-original');
  await expect(original).toHaveAttribute('data-format', 'xml');
  await expect(original).toContainText('<Faktura');
  await expect(original).toContainText('KSEF-DEMO');
  await expectAccessible(page);

  // In Polish.
  await page.context().addCookies([{ name: 'lang', value: 'pl', url: baseURL ?? 'http://localhost' }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  await expect(view.getByRole('table', { name: 'Podsumowanie VAT' })).toBeVisible();
  await page.mouse.move(0, 0);
  await expectAccessible(page);
  await view.getByRole('tab', { name: 'Oryginał' }).click();
  await expect(view.getByTestId('document-original')).toContainText('<Faktura');
  await expectAccessible(page);
});
