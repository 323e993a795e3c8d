import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { NOTE_ID_2, ettnRoutes, ettnSession, ettnView, refusal } from '../ettn-test-data.ts';

const DESADV_ID = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

const despatchAdvice = {
  id: DESADV_ID,
  direction: 'out',
  documentNumber: 'DES-42',
  documentReferenceNumber: null,
  ksefNumber: null,
  documentKind: 'DESADV',
  documentType: 'DESADV',
  functionCode: '9',
  messageType: 'DESADV',
  messageCategory: null,
  partnerId: null,
  partnerGln: '4820000000001',
  partnerName: 'Demo Retailer',
  deliveryPointName: null,
  deliveryPointGln: null,
  expectedDeliveryDate: null,
  businessDate: '2026-11-25',
  timestamp: '2026-11-25T10:00:00.000Z',
  status: 'sent',
  processingStatus: 'OK',
  businessStatus: null,
  additionalStatus: null,
  standard: 'edifact',
  version: 'D96A',
  test: false,
};

function createRoutes(routes: Record<string, MockHandler | MockReply> = {}) {
  return ettnRoutes({
    'GET /api/documents': { body: { items: [despatchAdvice], nextCursor: null } },
    'POST /api/ettns/documentView': { body: ettnView({ processId: NOTE_ID_2, isPending: true, status: 'PENDING' }) },
    ...routes,
  });
}

type App = Awaited<ReturnType<typeof renderApp>>;

async function openForm(routes: Record<string, MockHandler | MockReply> = {}) {
  const app = await renderApp({
    path: '/ettn/new',
    session: ettnSession(['ettn', 'ETTN_CZ']),
    routes: createRoutes(routes),
  });
  const form = await app.screen.findByRole('form', { name: 'e-TTN details' });
  return { app, form };
}

const box = (scope: HTMLElement, name: string) => within(scope).getByRole('textbox', { name });

async function fill(app: App, form: HTMLElement) {
  const { user } = app;
  await user.type(box(form, 'Number'), 'TTN-0100');
  for (const [which, edrpou, name, address] of [
    ['consignee', '00032129', 'Demo Retailer', '79000, Lviv, Svobody 1'],
    ['carrier', '32855961', 'Demo Transport', '01001, Kyiv, Khreshchatyk 2'],
  ] as const) {
    const party = within(form).getByTestId(`ettn-create-${which}`);
    await user.type(box(party, 'EDRPOU code'), edrpou);
    await user.type(box(party, 'Name'), name);
    await user.type(box(party, 'Address (postcode, city, street)'), address);
  }
  const driver = within(form).getByTestId('ettn-create-driver');
  await user.type(box(driver, "Driver's full name"), 'Taras Driver');
  await user.type(box(driver, "Driver's RNOKPP (tax number)"), '3184710691');
  await user.type(box(driver, "Driver's licence"), 'вхм123456');
  const vehicle = within(form).getByTestId('ettn-create-vehicle');
  await user.type(box(vehicle, 'Vehicle registration plate'), 'AA1234BB');
  await user.type(box(vehicle, 'Vehicle brand'), 'DAF');
  await user.type(box(vehicle, 'Vehicle model'), 'XF 480');
  const loading = within(form).getByTestId('ettn-create-loading');
  await user.type(box(loading, 'Loading address'), 'Kyiv warehouse');
  await user.type(box(loading, 'KATOTTG code'), 'UA80000000000093317');
  const unloading = within(form).getByTestId('ettn-create-unloading');
  await user.type(box(unloading, 'Unloading address'), 'Lviv store');
  await user.type(box(unloading, 'KATOTTG code'), 'UA46060250010015970');
  await user.type(box(unloading, 'Place GLN'), '4012345000016');
  const line = within(form).getByTestId('ettn-create-item-0');
  await user.type(box(line, 'Goods name'), 'Sunflower oil');
  await user.type(box(line, 'UKTZED code'), '1512');
  await user.type(box(line, 'Quantity'), '10');
  await user.type(box(line, 'Gross weight, kg'), '1200.5');
}

describe('the create e-TTN page', () => {
  it('is reached from the lists by a consignor, and not offered to other parties', async () => {
    const consignor = await renderApp({
      path: '/ettn/pending',
      session: ettnSession(['ettn', 'ETTN_CZ']),
      routes: createRoutes(),
    });
    await consignor.user.click(await consignor.screen.findByTestId('ettn-new'));
    await waitFor(() => expect(currentHref(consignor.router)).toBe('/ettn/new'));
    consignor.unmount();

    const carrier = await renderApp({ path: '/ettn', session: ettnSession(), routes: createRoutes() });
    await carrier.screen.findByTestId('ettn-table');
    expect(carrier.screen.queryByTestId('ettn-new')).toBeNull();
  });

  it('refuses an empty required field and a bad EDRPOU before sending anything', async () => {
    const { app, form } = await openForm();
    const consignee = within(form).getByTestId('ettn-create-consignee');
    await app.user.type(box(consignee, 'EDRPOU code'), '12345670');
    await app.user.click(within(form).getByTestId('ettn-create-submit'));
    await waitFor(() => expect(box(form, 'Number').getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getAllByText('This field is required').length).toBeGreaterThan(0);
    expect(
      within(consignee).getByText('This EDRPOU code is incorrect (8 digits with a valid check digit)'),
    ).toBeTruthy();
    expect(app.api.calls.some((c) => c.path === '/api/ettns/compose')).toBe(false);
  });

  it('refuses a bad RNOKPP, licence, KATOTTG code and GLN before sending anything', async () => {
    const { app, form } = await openForm({ 'POST /api/ettns/compose': { body: { id: NOTE_ID_2 } } });
    await fill(app, form);
    const driver = within(form).getByTestId('ettn-create-driver');
    const loading = within(form).getByTestId('ettn-create-loading');
    const unloading = within(form).getByTestId('ettn-create-unloading');
    await app.user.clear(box(driver, "Driver's RNOKPP (tax number)"));
    await app.user.type(box(driver, "Driver's RNOKPP (tax number)"), '3184710692');
    await app.user.clear(box(driver, "Driver's licence"));
    await app.user.type(box(driver, "Driver's licence"), 'AB123456');
    await app.user.clear(box(loading, 'KATOTTG code'));
    await app.user.type(box(loading, 'KATOTTG code'), 'UA8000000000009331');
    await app.user.type(box(loading, 'Place GLN'), '4012345000017');
    await app.user.click(within(form).getByTestId('ettn-create-submit'));
    expect(await within(driver).findByText('Enter the RNOKPP as 10 digits with a valid check digit.')).toBeTruthy();
    expect(
      within(driver).getByText('Enter the licence as 3 capital letters and 6 digits, e.g. ВХМ123456.'),
    ).toBeTruthy();
    expect(within(loading).getByText('Enter the KATOTTG code as UA followed by 17 digits.')).toBeTruthy();
    expect(within(loading).getByText('Enter a GLN of 13 digits with a valid check digit.')).toBeTruthy();
    // The unloading place's GLN is required; the loading place's is not.
    await app.user.clear(box(unloading, 'Place GLN'));
    expect(await within(unloading).findByText('This field is required')).toBeTruthy();
    expect(app.api.calls.some((c) => c.path === '/api/ettns/compose')).toBe(false);
  });

  it('posts the form as the compose JSON and opens the pending note to sign and send', async () => {
    const { app, form } = await openForm({ 'POST /api/ettns/compose': { body: { id: NOTE_ID_2 } } });
    await fill(app, form);
    await app.user.click(within(form).getByTestId('ettn-create-add-item'));
    const second = within(form).getByTestId('ettn-create-item-1');
    await app.user.type(box(second, 'Goods name'), 'Pallets');
    await app.user.type(box(second, 'Quantity'), '2');
    await app.user.type(box(second, 'Package type'), 'PX');
    await app.user.type(box(second, 'Gross weight, kg'), '40');
    await app.user.type(box(second, 'Amount, UAH'), '800.25');
    await app.user.click(within(form).getByTestId('ettn-create-submit'));
    await waitFor(() => expect(app.api.calls.find((c) => c.path === '/api/ettns/compose')).toBeTruthy());
    const body = app.api.calls.find((c) => c.path === '/api/ettns/compose')?.body as Record<string, unknown>;
    expect(body).toEqual({
      number: 'TTN-0100',
      issueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown,
      consignee: { edrpou: '00032129', name: 'Demo Retailer', address: '79000, Lviv, Svobody 1' },
      carrier: { edrpou: '32855961', name: 'Demo Transport', address: '01001, Kyiv, Khreshchatyk 2' },
      driverName: 'Taras Driver',
      driverRnokpp: '3184710691',
      driverLicence: 'ВХМ123456',
      vehicle: 'AA1234BB',
      vehicleBrand: 'DAF',
      vehicleModel: 'XF 480',
      loadingAddress: 'Kyiv warehouse',
      loadingKatottg: 'UA80000000000093317',
      unloadingAddress: 'Lviv store',
      unloadingKatottg: 'UA46060250010015970',
      unloadingGln: '4012345000016',
      items: [
        { name: 'Sunflower oil', uktzed: '1512', quantity: '10', grossWeightKg: '1200.5' },
        { name: 'Pallets', quantity: '2', packageType: 'PX', grossWeightKg: '40', amount: '800.25' },
      ],
    });
    await waitFor(() => expect(currentHref(app.router)).toBe(`/ettn/pending/${NOTE_ID_2}`));
  });

  it("puts the server's field errors on their fields", async () => {
    const { app, form } = await openForm({
      'POST /api/ettns/compose': {
        status: 400,
        body: {
          error: {
            code: 'validation.failed',
            message: 'invalid',
            details: [{ field: 'items.0.uktzed', code: 'uktzed' }],
          },
          requestId: 'req-1',
        },
      },
    });
    await fill(app, form);
    await app.user.click(within(form).getByTestId('ettn-create-submit'));
    const line = within(form).getByTestId('ettn-create-item-0');
    expect(await within(line).findByText('Enter the UKTZED code as 4 to 10 digits.')).toBeTruthy();
  });

  it("says a refusal without fields in its e-TTN code's words", async () => {
    const { app, form } = await openForm({ 'POST /api/ettns/compose': refusal('ettn.20', 403) });
    await fill(app, form);
    await app.user.click(within(form).getByTestId('ettn-create-submit'));
    expect((await within(form).findByTestId('ettn-create-error')).textContent).toBe('Incorrect TTN signatory role');
  });

  it('fills the form from a despatch advice of the outbox', async () => {
    const { app, form } = await openForm({
      [`GET /api/ettns/compose/fromDespatchAdvice/${DESADV_ID}`]: {
        body: {
          number: 'DES-42',
          consignee: { edrpou: '00032129', name: 'Demo Retailer', address: 'Lviv' },
          unloadingAddress: 'Lviv store',
          unloadingGln: '4012345000016',
          items: [{ name: 'Sunflower oil', quantity: '10', grossWeightKg: '1200' }],
          despatchAdviceId: DESADV_ID,
        },
      },
    });
    const select = app.screen.getByRole('combobox', { name: 'Fill from a despatch advice' });
    await waitFor(() => expect((select as HTMLInputElement).disabled).toBe(false));
    await app.user.click(select);
    await app.user.click(await app.screen.findByRole('option', { name: /DES-42/ }));
    await app.user.click(app.screen.getByTestId('ettn-prefill-button'));
    await waitFor(() => expect((box(form, 'Number') as HTMLInputElement).value).toBe('DES-42'));
    const consignee = within(form).getByTestId('ettn-create-consignee');
    expect((box(consignee, 'Name') as HTMLInputElement).value).toBe('Demo Retailer');
    expect((box(within(form).getByTestId('ettn-create-item-0'), 'Quantity') as HTMLInputElement).value).toBe('10');
    const unloading = within(form).getByTestId('ettn-create-unloading');
    expect((box(unloading, 'Place GLN') as HTMLInputElement).value).toBe('4012345000016');
    expect((box(unloading, 'KATOTTG code') as HTMLInputElement).value).toBe('');
  });
});
