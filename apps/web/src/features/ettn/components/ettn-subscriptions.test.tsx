import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { aliasRegistration, ettnSession, refusal } from '../ettn-test-data.ts';

/** The profile page of a role ettn user (profile read, e-TTN): its other panels' answers, and the registry's. */
function profileRoutes(routes: Record<string, MockHandler | MockReply> = {}): Record<string, MockHandler | MockReply> {
  return {
    'GET /api/users/permissions': { body: { permissions: ['USER_PROFILE_READ', 'ETTN'], toggles: ['ETTN'] } },
    'GET /api/users/getUserData': {
      body: {
        id: 'user-1',
        email: 'supplier@demo.example.com',
        firstName: 'Olena',
        lastName: 'Shevchenko',
        language: 'en',
        telephone: null,
        companyId: 'company-1',
        companyName: 'Demo Supplier',
        roles: [],
      },
    },
    'GET /api/users/settings': {
      body: { fileEncoding: 'utf-8', vatAlgorithm: 'invoice-summary', fileNamingFormat: 'DocType_DocNumber' },
    },
    'POST /api/ettns/aliasRegistrationGet': { body: aliasRegistration() },
    ...routes,
  };
}

const PANEL = '/profile?panel=ettn-subscriptions';

describe('the profile’s e-TTN subscriptions panel', () => {
  it('lists aliases and subscriptions with their expiry: active, expiring within 14 days, expired', async () => {
    window.sessionStorage.setItem('ETTN_EXPIRY_SEEN', 'true');
    const app = await renderApp({ path: PANEL, session: ettnSession(['ettn']), routes: profileRoutes() });
    const aliases = await app.screen.findByRole('list', { name: 'Aliases' });
    const active = within(aliases).getByTestId('ettn-alias-32855961');
    expect(within(active).getByText('EDRPOU alias 32855961')).toBeTruthy();
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).getByText(/^Expires /)).toBeTruthy();
    const soon = within(aliases).getByTestId('ettn-alias-14360570');
    expect(within(soon).getByTestId('expiry-soon').textContent).toBe('Expires soon');
    const expired = within(aliases).getByTestId('ettn-alias-00032129');
    expect(within(expired).getByTestId('expiry-expired').textContent).toBe('Expired');
    const subscriptions = app.screen.getByRole('list', { name: 'Subscriptions' });
    const subscription = within(subscriptions).getByRole('listitem');
    expect(within(subscription).getByText('Event subscription for EDRPOU 14360570')).toBeTruthy();
    expect(within(subscription).getByTestId('expiry-soon')).toBeTruthy();
    // Aliases are renewed; a subscription follows its alias.
    expect(within(aliases).getAllByRole('button', { name: /^Renew / })).toHaveLength(3);
    expect(within(subscriptions).queryByRole('button')).toBeNull();
  });

  it('renews an alias: the endpoint with isRegistered true, a toast, the list asked again', async () => {
    window.sessionStorage.setItem('ETTN_EXPIRY_SEEN', 'true');
    const set: MockHandler = ({ body }) => ({
      body: {
        qualifier: 'EDRPOU',
        value: (body as { aliasValue: string }).aliasValue,
        registeredAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
        isRegistered: true,
      },
    });
    const app = await renderApp({
      path: PANEL,
      session: ettnSession(['ettn']),
      routes: profileRoutes({ 'POST /api/ettns/aliasRegistrationSet': set }),
    });
    const soon = await app.screen.findByTestId('ettn-alias-14360570');
    const gets = () => app.api.calls.filter((c) => c.path === '/api/ettns/aliasRegistrationGet').length;
    const before = gets();
    await app.user.click(within(soon).getByRole('button', { name: 'Renew EDRPOU alias 14360570' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path === '/api/ettns/aliasRegistrationSet')?.body).toEqual({
        aliasQualifier: 'EDRPOU',
        aliasValue: '14360570',
        isRegistered: true,
      }),
    );
    expect(await app.screen.findByText('Alias 14360570 renewed for a year.')).toBeTruthy();
    await waitFor(() => expect(gets()).toBeGreaterThan(before));
  });

  it('registers an alias only with a valid EDRPOU, and shows a refusal’s e-TTN text', async () => {
    window.sessionStorage.setItem('ETTN_EXPIRY_SEEN', 'true');
    const app = await renderApp({
      path: PANEL,
      session: ettnSession(['ettn']),
      routes: profileRoutes({ 'POST /api/ettns/aliasRegistrationSet': refusal('ettn.25') }),
    });
    const form = await app.screen.findByRole('form', { name: 'Register an alias' });
    const input = within(form).getByLabelText(/^EDRPOU code/);
    await app.user.type(input, '32855962');
    await app.user.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByText(/This EDRPOU code is incorrect/)).toBeTruthy();
    expect(app.api.calls.some((c) => c.path === '/api/ettns/aliasRegistrationSet')).toBe(false);

    await app.user.clear(input);
    await app.user.type(input, '12345678');
    await app.user.click(within(form).getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path === '/api/ettns/aliasRegistrationSet')?.body).toEqual({
        aliasQualifier: 'EDRPOU',
        aliasValue: '12345678',
        isRegistered: false,
      }),
    );
    // Another company's alias: the text of e-TTN code 25.
    expect(await app.screen.findByText('Incorrect operation to update representatives')).toBeTruthy();
  });

  it('shows an empty state without aliases or subscriptions', async () => {
    window.sessionStorage.setItem('ETTN_EXPIRY_SEEN', 'true');
    const app = await renderApp({
      path: PANEL,
      session: ettnSession(['ettn']),
      routes: profileRoutes({
        'POST /api/ettns/aliasRegistrationGet': { body: { aliases: [], subscriptions: [], expiresSoon: null } },
      }),
    });
    expect(await app.screen.findByText('No subscriptions yet')).toBeTruthy();
    expect(app.screen.getByRole('form', { name: 'Register an alias' })).toBeTruthy();
  });
});
