import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO, SUPPLIER_GLN, afterToasts, expectAccessible, logIn, newPage, unique } from '../support.ts';

/**
 * Writing documents in the browser (issue 12): the buyer creates an order from the outbox's New document menu,
 * checks it and sends it to Demo Supplier; the supplier answers the received order with an invoice (turnaround: its
 * lines and references carried over, prices and VAT from its product list) and sends it; the buyer receives it.
 */
const BUYER = { email: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const WATER = '5901234123464';

/** Demo Retailer's partner Demo Supplier, made through the API once (a second run finds it). */
async function supplierPartner(request: APIRequestContext) {
  const login = await request.post('/api/users/login', { data: { login: BUYER.email, password: BUYER.password } });
  const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
    .token.access_token;
  const res = await request.post('/api/partners', {
    headers: { authorization: `Bearer ${token}` },
    data: { gln: SUPPLIER_GLN, docTypesOut: ['ORDERS'] },
  });
  expect([201, 409]).toContain(res.status());
}

test('the buyer writes and sends an order; the supplier answers it with an invoice the buyer receives', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  await supplierPartner(request);
  const { number } = unique('DR', { numberPrefix: 'ZAM' });

  await logIn(page, BUYER);
  await page.goto('/documents/out');
  await page.getByTestId('new-document').click();
  await page.getByTestId('new-order').click();
  await expect(page).toHaveURL(/\/drafts\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Order');
  await expect(page.getByTestId('draft-party-supplier').getByLabel('GLN')).toHaveValue(SUPPLIER_GLN);

  // Check before the form is complete: the missing fields are named where they are.
  await page.getByTestId('draft-check').click();
  await expect(page.getByTestId('draft-number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Add at least one line').first()).toBeVisible();

  await page.getByTestId('draft-number').fill(number);
  await page.getByRole('button', { name: 'Add a line' }).click();
  await page.getByTestId('draft-line-0-gtin').fill(WATER);
  await page.getByTestId('draft-line-0-description').fill('Mineral water 0.5 l');
  await page.getByTestId('draft-line-0-quantity').fill('24');
  await expect(page.getByTestId('draft-save-state')).toHaveText('All changes saved');
  await page.getByTestId('draft-check').click();
  await expect(page.getByTestId('draft-check-result')).toContainText('The document is correct and ready to send.');
  await afterToasts(page);
  // Not over a button: axe reads the resting colours.
  await page.mouse.move(0, 0);
  await expectAccessible(page);
  await page.getByTestId('draft-send').click();
  await expect(page.getByTestId('draft-sent')).toBeVisible();

  const supplier = await newPage(browser, baseURL);
  await logIn(supplier, { email: DEMO.user.email, password: DEMO.user.password });
  await supplier.goto(`/documents/in?documentNumber=${encodeURIComponent(number)}`);
  await supplier.getByRole('link', { name: number }).first().click();
  await supplier.getByTestId('answer-document').click();
  await supplier.getByTestId('answer-invoice').click();
  await expect(supplier).toHaveURL(/\/drafts\//);
  await expect(supplier.getByTestId('draft-orderNumber')).toHaveValue(number);
  await expect(supplier.getByTestId('draft-line-0-price')).toHaveValue('1.29');
  await expect(supplier.getByTestId('draft-line-0-vatRate')).toHaveValue('8');
  // 24 × 1.29 = 30.96 net, 8 % VAT 2.48: 33.44.
  await expect(supplier.getByTestId('draft-gross')).toContainText('33.44');
  await supplier.getByTestId('draft-number').fill(`FV-${number}`);
  await supplier.getByTestId('draft-send').click();
  await expect(supplier.getByTestId('draft-sent')).toBeVisible();

  await page.goto(`/documents/in?documentNumber=${encodeURIComponent(`FV-${number}`)}`);
  await expect(page.getByRole('link', { name: `FV-${number}` }).first()).toBeVisible();
});

test('in Polish on a phone: an invoice from the product list, its totals, Check at the fields, axe', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const page = await newPage(browser, baseURL, true);
  await page.context().addCookies([{ name: 'lang', value: 'pl', url: baseURL ?? 'http://localhost' }]);
  await logIn(page, { email: DEMO.user.email, password: DEMO.user.password }, { byPurpose: true });
  await page.goto('/documents/out');
  await page.getByTestId('new-document').click();
  await page.getByTestId('new-invoice').click();
  await expect(page).toHaveURL(/\/drafts\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Faktura');
  // Demo Supplier is the seller, its one partner for invoices the buyer.
  await expect(page.getByTestId('draft-party-supplier').getByLabel('GLN')).toHaveValue(SUPPLIER_GLN);

  // A product from the list fills the line: GTIN, description, unit, price and VAT.
  await page.getByTestId('draft-product-picker').click();
  await page.getByTestId('draft-product-picker').fill('Orange');
  await page.getByRole('option', { name: /Orange juice 1 l/ }).click();
  await expect(page.getByTestId('draft-line-0-price')).toHaveValue('4.99');
  await page.getByTestId('draft-line-0-quantity').fill('3');
  // 3 × 4.99 = 14.97 net, 5 % VAT 0.75 (0.7485 rounded half up): 15.72.
  await expect(page.getByTestId('draft-gross')).toContainText('15,72');

  await page.getByTestId('draft-check').click();
  await expect(page.getByTestId('draft-number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('To pole jest wymagane').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await afterToasts(page);
  await expectAccessible(page);
});

/** An order from Demo Retailer to Demo Supplier through the drafts API: two lines of 24 and 12. */
async function orderThroughApi(request: APIRequestContext, number: string): Promise<void> {
  const login = await request.post('/api/users/login', { data: { login: BUYER.email, password: BUYER.password } });
  const token = ((await login.json()) as { keycloakResponse: { token: { access_token: string } } }).keycloakResponse
    .token.access_token;
  const headers = { authorization: `Bearer ${token}` };
  const kinds = (await (await request.get('/api/drafts/kinds', { headers })).json()) as {
    kinds: { kind: string; partners: { id: string; gln: string }[] }[];
  };
  const partner = kinds.kinds.find((k) => k.kind === 'order')!.partners.find((p) => p.gln === SUPPLIER_GLN)!;
  const draft = (await (
    await request.post('/api/drafts', { headers, data: { kind: 'order', partnerId: partner.id } })
  ).json()) as { id: string; form: Record<string, unknown> };
  const line = (gtin: string, description: string, quantity: string) => ({
    gtin,
    buyerArticleNumber: '',
    supplierArticleNumber: '',
    description,
    quantity,
    expectedQuantity: '',
    unit: 'PCE',
    price: '',
    vatRate: '',
    orderLineNumber: '',
    packageNumber: '',
  });
  const form = {
    ...draft.form,
    number,
    lines: [line(WATER, 'Mineral water 0.5 l', '24'), line('5901234123471', 'Orange juice 1 l', '12')],
  };
  const saved = await request.put(`/api/drafts/${draft.id}`, {
    headers,
    data: { version: 1, partnerId: partner.id, form },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  const sent = await request.post(`/api/drafts/${draft.id}/send`, { headers, data: { version: 2 } });
  expect(sent.ok(), await sent.text()).toBe(true);
}

test('turnaround: a response with one line short, a despatch advice of two pallets and an invoice; the buyer sees the chain and rejects the invoice', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(180_000);
  await supplierPartner(request);
  const { number } = unique('CH', { numberPrefix: 'ZAM' });
  await orderThroughApi(request, number);

  const supplier = await newPage(browser, baseURL);
  await logIn(supplier, { email: DEMO.user.email, password: DEMO.user.password });
  const answer = async (kind: string) => {
    await supplier.goto(`/documents/in?documentNumber=${encodeURIComponent(number)}`);
    await supplier.getByRole('link', { name: number }).first().click();
    await supplier.getByTestId('answer-document').click();
    await supplier.getByTestId(`answer-${kind}`).click();
    await expect(supplier).toHaveURL(/\/drafts\//);
  };

  // The order response: the juice is short by two.
  await answer('order_response');
  await supplier.getByTestId('draft-number').fill(`ODP-${number}`);
  await supplier.getByTestId('draft-line-1-quantity').fill('10');
  await supplier.getByTestId('draft-line-1').getByLabel('Answer').click();
  await supplier.getByRole('option', { name: 'Changed' }).click();
  await supplier.getByTestId('draft-send').click();
  await expect(supplier.getByTestId('draft-sent')).toBeVisible();

  // The despatch advice: two pallets, the juice on the second.
  await answer('despatch_advice');
  await supplier.getByTestId('draft-number').fill(`WZ-${number}`);
  await supplier.getByTestId('draft-sscc-0').fill('359012340000770010');
  await supplier.getByRole('button', { name: 'Add a package' }).click();
  await supplier.getByTestId('draft-sscc-1').fill('359012340000770027');
  await supplier.getByTestId('draft-line-1').getByLabel('Package').click();
  await supplier.getByRole('option', { name: 'Package 2' }).click();
  await supplier.getByTestId('draft-send').click();
  await expect(supplier.getByTestId('draft-sent')).toBeVisible();

  // The invoice: everything carried over, prices and VAT from the product list.
  await answer('invoice');
  await supplier.getByTestId('draft-number').fill(`FV-${number}`);
  await supplier.getByTestId('draft-send').click();
  await expect(supplier.getByTestId('draft-sent')).toBeVisible();

  // The buyer: the order's chain holds the three answers with their statuses.
  await logIn(page, BUYER);
  await page.goto(`/documents/out?documentNumber=${encodeURIComponent(number)}`);
  await page.getByRole('link', { name: number }).first().click();
  const chain = page.getByTestId('document-chain');
  await expect(chain.getByTestId('chain-item')).toHaveCount(4);
  await expect(chain).toContainText(`ODP-${number}`);
  await expect(chain).toContainText(`WZ-${number}`);
  await expect(chain).toContainText(`FV-${number}`);

  // It rejects the invoice with a reason; the supplier's invoice shows the anomaly and the reason.
  await page.goto(`/documents/in?documentNumber=${encodeURIComponent(`FV-${number}`)}`);
  await page
    .getByRole('link', { name: `FV-${number}` })
    .first()
    .click();
  await page.getByRole('button', { name: 'Reject…' }).click();
  await page.getByLabel('Reason for the rejection').fill('The juice was short by two: invoice 10, not 12.');
  await page.getByRole('button', { name: 'Reject and notify the sender' }).click();
  await expect(page.getByText('You rejected this document.')).toBeVisible();

  await supplier.goto(`/documents/out?documentNumber=${encodeURIComponent(`FV-${number}`)}`);
  await supplier
    .getByRole('link', { name: `FV-${number}` })
    .first()
    .click();
  await expect(supplier.getByTestId('document-view')).toContainText('Anomaly reported');
  await expect(supplier.getByTestId('document-history')).toContainText('The juice was short by two');
});
