import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FEATURE_PERMISSIONS } from '@portal/contracts';
import { renderApp } from '../../../test/render-app.tsx';
import { PERMISSION_AREAS } from '../permission-areas.ts';
import { ALL_PERMISSIONS, companyUser, signedIn, userManagementRoutes } from './user-management-test-data.ts';
import { inputLabelled } from '../../../test/queries.ts';

const lockOut = {
  status: 409,
  body: { error: { code: 'user_management.would_lock_out', message: 'x' }, requestId: 'r' },
};

describe('group permission checklist', () => {
  it('groups every feature permission of contracts exactly once', () => {
    const listed = PERMISSION_AREAS.flatMap((a) => a.permissions);
    expect([...listed].sort()).toEqual([...FEATURE_PERMISSIONS].sort());
  });

  it('shows the 24 permissions with translated labels by area and creates a group with the checked ones and members', async () => {
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      'POST /api/groups': ({ body }: { body: unknown }) => ({
        status: 201,
        body: {
          id: '44444444-4444-4444-8444-444444444444',
          ...(body as object),
          memberCount: 0,
          createdAt: 'x',
          members: [],
        },
      }),
      'PUT /api/groups/44444444-4444-4444-8444-444444444444/members': {
        body: {
          id: '44444444-4444-4444-8444-444444444444',
          name: 'Dispatch',
          permissions: ['OUTBOX_SEND'],
          memberCount: 1,
          createdAt: 'x',
          members: [],
        },
      },
    };
    const app = await renderApp({ path: '/groups', session: signedIn(), routes });
    expect(await app.screen.findByTestId('group-row-Inbox readers')).toBeTruthy();
    await app.user.click(app.screen.getByRole('button', { name: 'New group' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'New group' });
    const checklist = within(dialog).getByTestId('permission-checklist');
    const boxes = within(checklist).getAllByRole('checkbox');
    expect(boxes).toHaveLength(24);
    for (const box of boxes) expect(box.closest('label, div')?.textContent ?? '').not.toMatch(/[A-Z]{2,}_[A-Z]/);
    expect(within(checklist).getByRole('group', { name: 'User management' })).toBeTruthy();
    expect(within(checklist).getByLabelText('Send documents')).toBeTruthy();

    await app.user.type(within(dialog).getByLabelText(/^Group name/), 'Dispatch');
    await app.user.click(within(checklist).getByLabelText('Send documents'));
    await app.user.click(within(checklist).getByLabelText('View sent documents'));
    expect(within(checklist).getByText(/Selected: 2 of 24/)).toBeTruthy();
    await app.user.click(inputLabelled(dialog, 'Members'));
    await app.user.click(await app.screen.findByRole('option', { name: /Uma User/ }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.method === 'POST' && c.path === '/api/groups')?.body).toEqual({
        name: 'Dispatch',
        permissions: ['OUTBOX_READ', 'OUTBOX_SEND'],
      }),
    );
    await waitFor(() =>
      expect(app.api.calls.find((c) => c.path.endsWith('/members'))?.body).toEqual({ userIds: [companyUser().id] }),
    );
  });

  it('shows the lock-out refusal clearly', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    const routes = {
      ...userManagementRoutes(ALL_PERMISSIONS),
      [`GET /api/groups/${id}`]: {
        body: {
          id,
          name: 'Administrators',
          permissions: ALL_PERMISSIONS,
          memberCount: 1,
          createdAt: 'x',
          members: [{ ...companyUser(), status: 'active' }],
        },
      },
      [`PUT /api/groups/${id}`]: lockOut,
    };
    const app = await renderApp({ path: '/groups', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'Edit group Administrators' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Edit group Administrators' });
    await app.user.click(await within(dialog).findByLabelText('Change groups and permissions'));
    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByTestId('lock-out-alert');
    expect(alert.textContent).toContain('would leave your company without anyone who can manage users and groups');
  });
});
