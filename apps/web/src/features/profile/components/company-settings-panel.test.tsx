import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ALL_FEATURE_PERMISSIONS_FOR_TEST, profileRoutes, profileSession } from './profile-test-data.ts';
import { renderApp } from '../../../test/render-app.tsx';

const taken = {
  status: 409,
  body: {
    error: {
      code: 'companies.gln_taken',
      message: 'x',
      details: [{ field: 'gln', code: 'glnOfAnotherCompany' }],
    },
    requestId: 'r',
  },
};

describe('GLNs and delivery points on the company-settings panel', () => {
  it('lists the GLNs, checks the check digit, puts a refusal on its field, and deletes after confirming', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: profileSession(),
      routes: {
        ...profileRoutes(ALL_FEATURE_PERMISSIONS_FOR_TEST),
        'POST /api/company/locations': taken,
        'DELETE /api/company/locations/5901234000017': { status: 204 },
      },
    });
    const section = await app.screen.findByTestId('company-locations');
    expect(await within(section).findByText('5901234000017')).toBeTruthy();
    expect(within(section).getByText('Company GLN')).toBeTruthy();

    await app.user.click(within(section).getByRole('button', { name: 'Add GLN or delivery point' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Add a GLN or delivery point' });
    await app.user.type(within(dialog).getByRole('textbox', { name: 'GLN' }), '5901234000018');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This GLN is incorrect (13 digits with a valid check digit)')).toBeTruthy();
    expect(app.api.calls.filter((c) => c.method === 'POST')).toEqual([]);

    // A company GLN needs no address; the server refuses another company's GLN on the field.
    const gln = within(dialog).getByRole('textbox', { name: 'GLN' });
    await app.user.clear(gln);
    await app.user.type(gln, '4012345000016');
    await app.user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Company GLN' }));
    await app.user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Head office');
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This GLN belongs to another company')).toBeTruthy();
    expect(app.api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      gln: '4012345000016',
      kind: 'company',
      name: 'Head office',
    });
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await app.user.click(within(section).getByRole('button', { name: 'Delete 5901234000017' }));
    const confirm = await app.screen.findByRole('dialog', { name: 'Delete GLN 5901234000017?' });
    await app.user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(
        app.api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/company/locations/5901234000017'),
      ).toBe(true),
    );
  });

  it('is read-only without COMPANY_PROFILE_MODIFY', async () => {
    const app = await renderApp({
      path: '/profile?panel=company-settings',
      session: profileSession(),
      routes: profileRoutes(['COMPANY_PROFILE_READ']),
    });
    const section = await app.screen.findByTestId('company-locations');
    expect(await within(section).findByText('5901234000017')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Add GLN or delivery point' })).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Delete 5901234000017' })).toBeNull();
  });
});
