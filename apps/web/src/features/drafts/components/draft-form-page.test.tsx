import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  emptyDraftForm,
  FEATURE_PERMISSIONS,
  type Draft,
  type DraftCheck,
  type DraftForm,
  type FeaturePermission,
} from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const ALL: FeaturePermission[] = [...FEATURE_PERMISSIONS];
const ID = '66666666-6666-4666-8666-666666666666';
const PARTNER = '77777777-7777-4777-8777-777777777777';

function signedIn(): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp, roles: [] }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

function draft(over: Partial<Draft> = {}, form: Partial<DraftForm> = {}): Draft {
  return {
    id: ID,
    kind: 'invoice',
    state: 'draft',
    version: 1,
    partnerId: PARTNER,
    partnerName: 'Demo Retailer',
    sourceDocumentId: null,
    sentDocumentId: null,
    form: {
      ...emptyDraftForm(),
      documentDate: '2026-11-20',
      currency: 'PLN',
      buyer: { ...emptyDraftForm().buyer, gln: '4012345000016', name: 'Demo Retailer' },
      supplier: { ...emptyDraftForm().supplier, gln: '5901234000017', name: 'Demo Supplier' },
      lines: [1, 2, 3].map(() => ({
        ...emptyDraftForm().lines[0]!,
        gtin: '',
        buyerArticleNumber: '',
        supplierArticleNumber: '',
        description: 'Gift basket',
        quantity: '1',
        expectedQuantity: '',
        unit: 'PCE',
        price: '10.15',
        vatRate: '23',
        orderLineNumber: '',
        packageNumber: '',
        allowances: [],
      })),
      ...form,
    },
    vatAlgorithm: 'lines',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

function routes(extra: Record<string, MockHandler | MockReply> = {}, value: Draft = draft()) {
  return {
    'GET /api/users/permissions': { body: { permissions: ALL, toggles: [] } },
    [`GET /api/drafts/${ID}`]: { body: value },
    'GET /api/drafts/kinds': {
      body: { kinds: [{ kind: 'invoice', partners: [{ id: PARTNER, name: 'Demo Retailer', gln: '4012345000016' }] }] },
    },
    'GET /api/products': { body: { items: [], nextCursor: null } },
    'GET /api/address-book': { body: { items: [], nextCursor: null } },
    'GET /api/company/locations': { body: { items: [], nextCursor: null } },
    ...extra,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the draft form', () => {
  it("totals an invoice by the user's VAT algorithm as it is typed: per line 37.44, per rate 37.45", async () => {
    const app = await renderApp({ path: `/drafts/${ID}`, session: signedIn(), routes: routes() });
    expect(await app.screen.findByTestId('draft-gross')).toHaveProperty('textContent', '37.44 PLN');
    app.unmount();
    const summary = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({}, draft({ vatAlgorithm: 'invoice-summary' })),
    });
    expect(await summary.screen.findByTestId('draft-gross')).toHaveProperty('textContent', '37.45 PLN');
  });

  it('saves what is typed over the version it read, then Check shows the problems at their fields', async () => {
    const saved: unknown[] = [];
    const check: DraftCheck = {
      ok: false,
      problems: [{ field: 'number', code: 'required' }],
      findings: [],
      omitted: [],
      edifact: null,
      messageType: 'INVOIC',
      directory: null,
    };
    const app = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({
        [`PUT /api/drafts/${ID}`]: ({ body }) => {
          saved.push(body);
          return { body: draft({ version: 2 }, (body as { form: DraftForm }).form) };
        },
        [`POST /api/drafts/${ID}/check`]: { body: check },
      }),
    });
    const line = await app.screen.findByTestId('draft-line-0');
    fireEvent.change(within(line).getByTestId('draft-line-0-quantity'), { target: { value: '2' } });
    await waitFor(() => expect(app.screen.getByTestId('draft-save-state').textContent).toBe('All changes saved'), {
      timeout: 4000,
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ version: 1, partnerId: PARTNER, form: { lines: [{ quantity: '2' }, {}, {}] } });

    fireEvent.click(app.screen.getByTestId('draft-check'));
    expect(
      await app.screen.findByText('The document has errors. Correct the fields marked and check again.'),
    ).toBeTruthy();
    expect(app.screen.getByText('Document number: This field is required', { exact: false })).toBeTruthy();
    await waitFor(() => expect(app.screen.getByTestId('draft-number').getAttribute('aria-invalid')).toBe('true'));
  });

  it('a sent draft is read-only, with its document and a copy offered', async () => {
    const app = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({}, draft({ state: 'sent', sentDocumentId: '88888888-8888-4888-8888-888888888888' })),
    });
    expect(await app.screen.findByTestId('draft-sent')).toBeTruthy();
    expect(app.screen.queryByTestId('draft-send')).toBeNull();
    expect(app.screen.getByRole('link', { name: 'Open the sent document' })).toBeTruthy();
    expect(app.screen.getByRole('button', { name: 'Copy to a new draft' })).toBeTruthy();
  });

  it('a line takes a discount: its net and the totals follow exactly, and a percentage over 100 is refused at its field', async () => {
    const saved: DraftForm[] = [];
    const app = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({
        [`PUT /api/drafts/${ID}`]: ({ body }) => {
          saved.push((body as { form: DraftForm }).form);
          return { body: draft({ version: saved.length + 1 }, (body as { form: DraftForm }).form) };
        },
      }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'Add an allowance or charge to line 1' }));
    const line = app.screen.getByTestId('draft-line-0');
    const group = within(line).getByRole('group', { name: 'Allowance or charge 1' });
    expect((within(group).getByRole('combobox', { name: 'Reason' }) as HTMLInputElement).value).toBe('Discount');
    fireEvent.change(within(group).getByRole('textbox', { name: 'Percentage' }), { target: { value: '10' } });
    // 10.15 − 10 % (1.015 → 1.02) = 9.13, VAT 2.10; the other lines 10.15 + 2.33 each: 36.19.
    expect((await within(line).findByTestId('draft-line-0-net')).textContent).toBe('Line net amount: 9.13');
    expect(app.screen.getByTestId('draft-gross').textContent).toBe('36.19 PLN');

    fireEvent.change(within(group).getByRole('textbox', { name: 'Percentage' }), { target: { value: '150' } });
    fireEvent.click(app.screen.getByTestId('draft-send'));
    expect(await within(group).findByText('Enter a percentage from 0 to 100')).toBeTruthy();
    await waitFor(
      () =>
        expect(saved.at(-1)?.lines[0]?.allowances).toEqual([
          { type: 'allowance', reason: 'DI', calculation: 'percentage', value: '150' },
        ]),
      { timeout: 4000 },
    );
  });

  it('fills the buyer from the address book and the delivery point from the company’s delivery points', async () => {
    const entry = {
      id: 'e1',
      name: 'Kupiec Sp. z o.o.',
      displayedName: null,
      gln: '5901234000017',
      personType: 'J',
      taxId: '5260250274',
      residenceType: 'R',
      phone: null,
      street: 'ul. Marszałkowska 100',
      postalCode: '00-001',
      city: 'Warszawa',
      province: null,
      accountNumber: 'PL61109010140000071219812874',
      country: 'PL',
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:00.000Z',
    };
    const point = {
      gln: '4012345000023',
      kind: 'delivery_point',
      name: 'Store Berlin',
      street: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      code: 'B1',
      createdAt: '2026-11-01T10:00:00.000Z',
    };
    const app = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({
        'GET /api/address-book': { body: { items: [entry], nextCursor: null } },
        'GET /api/company/locations': { body: { items: [point], nextCursor: null } },
        [`GET /api/drafts/partners/${PARTNER}/delivery-points`]: {
          body: {
            items: [{ ...point, gln: '4012345000030', name: 'Store Hamburg', city: 'Hamburg' }],
            nextCursor: null,
          },
        },
      }),
    });
    const buyer = await app.screen.findByTestId('draft-party-buyer');
    await app.user.click(within(buyer).getByRole('combobox', { name: 'Fill from the address book' }));
    await app.user.click(
      await app.screen.findByRole('option', { name: 'Kupiec Sp. z o.o. · 5901234000017 · Warszawa' }),
    );
    const value = (scope: HTMLElement, name: string) =>
      (within(scope).getByRole('textbox', { name }) as HTMLInputElement).value;
    await waitFor(() => expect(value(buyer, 'GLN')).toBe('5901234000017'));
    expect([value(buyer, 'Name'), value(buyer, 'City'), value(buyer, 'VAT ID')]).toEqual([
      'Kupiec Sp. z o.o.',
      'Warszawa',
      '5260250274',
    ]);

    const delivery = app.screen.getByTestId('draft-party-deliveryPoint');
    await app.user.click(
      within(delivery).getByRole('combobox', { name: 'Fill from delivery points and the address book' }),
    );
    expect(await app.screen.findByText('Your delivery points')).toBeTruthy();
    // The partner's own delivery points are offered too (Demo Retailer's stores, for a supplier's document).
    expect(await app.screen.findByText("The partner's delivery points")).toBeTruthy();
    expect(await app.screen.findByRole('option', { name: 'Store Hamburg · 4012345000030 · Hamburg' })).toBeTruthy();
    await app.user.click(await app.screen.findByRole('option', { name: 'Store Berlin · 4012345000023 · Berlin' }));
    await waitFor(() => expect(value(delivery, 'GLN')).toBe('4012345000023'));
    expect([value(delivery, 'Street and number'), value(delivery, 'Country')]).toEqual(['Hauptstraße 1', 'DE']);
    // The supplier from the address book brings its bank account as the payee's IBAN.
    const supplier = app.screen.getByTestId('draft-party-supplier');
    await app.user.click(within(supplier).getByRole('combobox', { name: 'Fill from the address book' }));
    await app.user.click(
      await app.screen.findByRole('option', { name: 'Kupiec Sp. z o.o. · 5901234000017 · Warszawa' }),
    );
    await waitFor(() =>
      expect((app.screen.getByTestId('draft-payment-iban') as HTMLInputElement).value).toBe(
        'PL61109010140000071219812874',
      ),
    );
  });

  it('payment terms: net days ask for the days, the IBAN is checked by its checksum', async () => {
    const app = await renderApp({ path: `/drafts/${ID}`, session: signedIn(), routes: routes() });
    const payment = await app.screen.findByTestId('draft-payment');
    await app.user.click(within(payment).getByRole('combobox', { name: 'Terms' }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Net days after the invoice date' }));
    const days = await within(payment).findByRole('textbox', { name: /Days after the invoice date/ });
    fireEvent.change(within(payment).getByTestId('draft-payment-iban'), {
      target: { value: 'PL61 1090 1014 0000 0712 1981 2875' },
    });
    fireEvent.click(app.screen.getByTestId('draft-send'));
    expect(await within(payment).findByText('This IBAN is incorrect (its check digits do not match)')).toBeTruthy();
    expect(within(payment).getByText('This field is required')).toBeTruthy();
    fireEvent.change(days, { target: { value: '30' } });
    fireEvent.change(within(payment).getByTestId('draft-payment-iban'), {
      target: { value: 'PL61 1090 1014 0000 0712 1981 2874' },
    });
    await waitFor(() => expect(within(payment).queryByText('This field is required')).toBeNull());
    expect(within(payment).queryByText('This IBAN is incorrect (its check digits do not match)')).toBeNull();
  });
});
