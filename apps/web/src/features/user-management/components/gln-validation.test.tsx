import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isValidGln } from '@portal/contracts';
import { renderApp } from '../../../test/render-app.tsx';
import { ALL_PERMISSIONS, signedIn, userManagementRoutes } from './user-management-test-data.ts';
import { inputLabelled } from '../../../test/queries.ts';

const VALID = '4006381333931';
const WRONG_CHECK_DIGIT = '4006381333932';

describe('restriction form GLN validation', () => {
  it('knows a valid GLN-13 from a wrong check digit', () => {
    expect(isValidGln(VALID)).toBe(true);
    expect(isValidGln(WRONG_CHECK_DIGIT)).toBe(false);
  });

  it('refuses a GLN with a wrong check digit as it is typed and saves the valid ones', async () => {
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      'POST /api/restrictions': ({ body }: { body: unknown }) => ({
        status: 201,
        body: {
          id: 'r1',
          ...(body as object),
          description: null,
          assignees: { users: [], groups: [] },
          createdAt: 'x',
          updatedAt: 'x',
        },
      }),
    };
    const app = await renderApp({ path: '/restrictions', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'New restriction' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'New restriction' });
    await app.user.type(within(dialog).getByLabelText(/^Name/), 'North stores');
    const gln = inputLabelled(dialog, 'Delivery points (GLN)');
    await app.user.type(gln, `${WRONG_CHECK_DIGIT}{Enter}`);
    expect(
      await within(dialog).findByText(
        `“${WRONG_CHECK_DIGIT}” is not a valid GLN (13 digits with a correct check digit)`,
      ),
    ).toBeTruthy();
    await app.user.type(gln, `${VALID}{Enter}`);
    await waitFor(() => expect(within(dialog).queryByText(/is not a valid GLN/)).toBeNull());
    await app.user.click(within(dialog).getByLabelText('Invoice (INVOIC)'));
    await app.user.click(within(dialog).getByLabelText('Incoming'));
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path === '/api/restrictions' && c.method === 'POST')?.body).toEqual({
        name: 'North stores',
        description: null,
        partners: [],
        deliveryPointGlns: [VALID],
        documentTypes: ['INVOIC'],
        directions: ['in'],
        assignees: { userIds: [], groupIds: [] },
      }),
    );
  });
});
