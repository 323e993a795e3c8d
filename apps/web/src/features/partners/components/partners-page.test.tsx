import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FeaturePermission, PartnerDetail } from '@portal/contracts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { makeAccessToken } from '../../../test/tokens.ts';

const ID = '44444444-4444-4444-8444-444444444444';

function signedIn() {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

function partner(overrides: Partial<PartnerDetail> = {}): PartnerDetail {
  return {
    id: ID,
    gln: '4012345000016',
    name: 'Demo Retailer',
    linkedCompany: { id: '55555555-5555-4555-8555-555555555555', name: 'Demo Retailer' },
    vatId: null,
    country: 'DE',
    contactName: null,
    contactEmail: null,
    contactPhone: null,
    status: 'active',
    testMode: true,
    edifactDirectory: 'D96A',
    syntaxIdentifier: 'UNOC',
    una: false,
    docTypesIn: ['INVOIC', 'DESADV'],
    docTypesOut: ['ORDERS'],
    createdAt: '2026-11-01T10:00:00.000Z',
    lastExchangeAt: null,
    ...overrides,
  };
}

function routes(permissions: FeaturePermission[], extra: Record<string, MockHandler | MockReply> = {}) {
  return {
    'GET /api/users/permissions': { body: { permissions, toggles: [] } },
    'GET /api/partners': { body: { items: [partner()], nextCursor: null, total: 1 } },
    [`GET /api/partners/${ID}`]: { body: partner() },
    ...extra,
  };
}

describe('partners page', () => {
  it('sends a user without PARTNERS_READ to the start page', async () => {
    const app = await renderApp({ path: '/partners', session: signedIn(), routes: routes(['INBOX_READ']) });
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
  });

  it('lists partners read-only without COMPANY_PROFILE_MODIFY: linked, status, test mode, types per direction', async () => {
    const app = await renderApp({ path: '/partners', session: signedIn(), routes: routes(['PARTNERS_READ']) });
    const row = await app.screen.findByTestId('partner-row-4012345000016');
    expect(within(row).getByRole('link', { name: 'Demo Retailer' })).toBeTruthy();
    expect(within(row).getByTestId('partner-linked').textContent).toBe('On the platform');
    expect(within(row).getByTestId('partner-status').textContent).toBe('Active');
    expect(within(row).getByTestId('partner-test-mode').textContent).toBe('Test');
    expect(row.textContent).toContain('Invoice (INVOIC), Despatch advice (DESADV)');
    expect(row.textContent).toContain('ORDERS');
    expect(app.screen.queryByRole('button', { name: 'Add partner' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Edit Demo Retailer' })).toBeNull();
  });

  it('adds a partner by GLN: shows the platform company it links to, then posts the GLN', async () => {
    const added = partner({ id: '66666666-6666-4666-8666-666666666666', gln: '5901234000017', name: 'Demo Supplier' });
    const app = await renderApp({
      path: '/partners',
      session: signedIn(),
      routes: routes(['PARTNERS_READ', 'COMPANY_PROFILE_MODIFY'], {
        'GET /api/partners/lookup': {
          body: { gln: '5901234000017', company: { id: 'c', name: 'Demo Supplier' }, partnerId: null },
        },
        'POST /api/partners': { status: 201, body: added },
      }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'Add partner' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Add trading partner' });
    await app.user.type(within(dialog).getByRole('textbox', { name: /GLN/ }), '5901234000017');
    expect((await within(dialog).findByTestId('gln-lookup')).textContent).toBe(
      'Linked to Demo Supplier, a company on the platform.',
    );
    await app.user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(app.api.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(app.api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ gln: '5901234000017' });
  });

  it('shows and edits how documents are sent to the partner: EANCOM version, character set, UNA', async () => {
    const app = await renderApp({
      path: `/partners/${ID}`,
      session: signedIn(),
      routes: routes(['PARTNERS_READ', 'COMPANY_PROFILE_MODIFY'], {
        [`PUT /api/partners/${ID}`]: {
          body: partner({ edifactDirectory: 'D01B', syntaxIdentifier: 'UNOD', una: true }),
        },
      }),
    });
    expect(await app.screen.findByText('EANCOM 97 (D96A)')).toBeTruthy();
    expect(app.screen.getByText('UNOC – Western European (ISO 8859-1)')).toBeTruthy();
    await app.user.click(app.screen.getByRole('button', { name: 'Edit' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Edit Demo Retailer' });
    const version = within(dialog).getByRole('combobox', { name: 'EANCOM version' }) as HTMLInputElement;
    expect(version.value).toBe('EANCOM 97 (D96A)');
    await app.user.click(version);
    await app.user.click(await app.screen.findByRole('option', { name: 'EANCOM 2002 (D01B)' }));
    const charset = within(dialog).getByRole('combobox', { name: 'Character set' });
    expect(within(dialog).getByText(/UNOD is needed for Polish letters/)).toBeTruthy();
    await app.user.click(charset);
    await app.user.click(await app.screen.findByRole('option', { name: 'UNOD – Central European (ISO 8859-2)' }));
    const una = within(dialog).getByRole('checkbox', { name: 'Start each interchange with UNA' }) as HTMLInputElement;
    expect(una.checked).toBe(false);
    await app.user.click(una);
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(app.api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(app.api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      testMode: true,
      edifactDirectory: 'D01B',
      syntaxIdentifier: 'UNOD',
      una: true,
    });
  });

  it("edits from a list row on the partner's detail, so saving keeps its sending settings", async () => {
    const app = await renderApp({
      path: '/partners',
      session: signedIn(),
      routes: routes(['PARTNERS_READ', 'COMPANY_PROFILE_MODIFY'], {
        [`GET /api/partners/${ID}`]: {
          body: partner({ edifactDirectory: 'D01B', syntaxIdentifier: 'UNOD', una: true }),
        },
        [`PUT /api/partners/${ID}`]: { body: partner() },
      }),
    });
    await app.user.click(await app.screen.findByRole('button', { name: 'Edit Demo Retailer' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Edit Demo Retailer' });
    const charset = (await within(dialog).findByRole('combobox', { name: 'Character set' })) as HTMLInputElement;
    expect(charset.value).toBe('UNOD – Central European (ISO 8859-2)');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(app.api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(app.api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      edifactDirectory: 'D01B',
      syntaxIdentifier: 'UNOD',
      una: true,
    });
  });

  it('shows the notifications editor only with PARTNERS_NOTIFICATIONS', async () => {
    const without = await renderApp({
      path: `/partners/${ID}`,
      session: signedIn(),
      routes: routes(['PARTNERS_READ']),
    });
    expect(await without.screen.findByRole('heading', { level: 1, name: 'Demo Retailer' })).toBeTruthy();
    expect(without.screen.queryByRole('heading', { name: 'Notifications' })).toBeNull();
    without.unmount();

    const withIt = await renderApp({
      path: `/partners/${ID}`,
      session: signedIn(),
      routes: routes(['PARTNERS_READ', 'PARTNERS_NOTIFICATIONS'], {
        [`GET /api/partners/${ID}`]: {
          body: partner({ notifications: [{ email: 'ops@x.example.com', language: 'de', events: ['failed'] }] }),
        },
      }),
    });
    expect(await withIt.screen.findByRole('heading', { name: 'Notifications' })).toBeTruthy();
    expect((withIt.screen.getByRole('textbox', { name: /E-mail/ }) as HTMLInputElement).value).toBe(
      'ops@x.example.com',
    );
  });
});
