import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiKey } from '@portal/contracts';
import { ALL_FEATURE_PERMISSIONS_FOR_TEST, profileRoutes, profileSession } from './profile-test-data.ts';
import { renderApp } from '../../../test/render-app.tsx';

const SECRET = `edi_AbCdEfGh${'x'.repeat(35)}`;
const active: ApiKey = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'ERP production',
  prefix: 'edi_Zz9Yy8Xx',
  createdAt: '2026-11-16T10:00:00.000Z',
  createdBy: 'user@demo.example.com',
  lastUsedAt: null,
  revokedAt: null,
  revokedBy: null,
};
const revoked: ApiKey = {
  ...active,
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Old ERP',
  prefix: 'edi_Old00000',
  lastUsedAt: '2026-11-15T09:00:00.000Z',
  revokedAt: '2026-11-16T08:00:00.000Z',
  revokedBy: 'user@demo.example.com',
};

describe('API keys on the company-settings panel', () => {
  it('lists keys, shows a new key’s secret once with a warning, and revokes after confirming', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: profileSession(),
      routes: {
        ...profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST),
        'GET /api/company/api-keys': { body: { items: [active, revoked], nextCursor: null } },
        'POST /api/company/api-keys': {
          status: 201,
          body: {
            ...active,
            id: '33333333-3333-4333-8333-333333333333',
            name: 'Transport',
            prefix: SECRET.slice(0, 12),
            secret: SECRET,
          },
        },
        [`DELETE /api/company/api-keys/${active.id}`]: {
          status: 200,
          body: { ...active, revokedAt: '2026-11-16T11:00:00.000Z' },
        },
      },
    });
    const section = await app.screen.findByTestId('api-keys', {}, { timeout: 10_000 });
    expect(await within(section).findByText('ERP production')).toBeTruthy();
    expect(within(section).getByText('edi_Zz9Yy8Xx…')).toBeTruthy();
    expect(within(section).getByText('Never')).toBeTruthy();
    expect(within(section).getByText('Active')).toBeTruthy();
    // The help names this portal's address, never a secret.
    expect(within(section).getByTestId('api-keys-example').textContent).toContain(
      `${window.location.origin}/api/documents/inbound?direction=out`,
    );
    // A revoked key has nothing left to revoke.
    expect(within(section).queryByRole('button', { name: 'Revoke Old ERP' })).toBeNull();

    await app.user.click(within(section).getByRole('button', { name: 'Create API key' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Create an API key' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('This field is required')).toBeTruthy();
    expect(app.api.calls.filter((c) => c.method === 'POST' && c.path === '/api/company/api-keys')).toEqual([]);
    await app.user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Transport');
    await app.user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await app.screen.findByRole('dialog', { name: 'API key "Transport" created' });
    expect(within(shown).getByRole('alert').textContent).toContain('It will not be shown again.');
    expect((within(shown).getByRole('textbox', { name: 'API key' }) as HTMLInputElement).value).toBe(SECRET);
    expect(within(shown).getByRole('button', { name: 'Copy key' })).toBeTruthy();
    expect(app.api.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Transport' });
    await app.user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(app.screen.queryByText(SECRET)).toBeNull());
    expect(app.screen.queryByDisplayValue(SECRET)).toBeNull();

    await app.user.click(within(section).getByRole('button', { name: 'Revoke ERP production' }));
    const confirm = await app.screen.findByRole('dialog', { name: 'Revoke the API key "ERP production"?' });
    expect(within(confirm).getByText(/edi_Zz9Yy8Xx…/)).toBeTruthy();
    await app.user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(app.api.calls.some((c) => c.method === 'DELETE' && c.path === `/api/company/api-keys/${active.id}`)).toBe(
        true,
      ),
    );
  });

  it('is not shown without COMPANY_PROFILE_MODIFY, and asks nothing of the API', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: profileSession(),
      routes: profileRoutes(['COMPANY_PROFILE_READ']),
    });
    await app.screen.findByTestId('company-locations');
    expect(app.screen.queryByTestId('api-keys')).toBeNull();
    expect(app.api.calls.some((c) => c.path === '/api/company/api-keys')).toBe(false);
  });
});
