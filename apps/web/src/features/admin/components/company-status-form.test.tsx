import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { COMPANY_ID, adminSession, company } from '../admin-test-data.ts';
import { toStatusRequest } from './company-status-form.tsx';

const path = `/admin/companies/${COMPANY_ID}`;

describe('company status form', () => {
  it('explains every status', async () => {
    const { screen } = await renderApp({
      path,
      session: adminSession(),
      routes: { [`GET /api/admin/companies/${COMPANY_ID}`]: { body: company() } },
    });
    for (const name of [
      'Active (OK)',
      'Limited (OK_LIMITED)',
      'Blocked (BLOCKED)',
      'System disabled (SYS_DISABLE)',
      'Error (ERROR)',
      'Not set (NOTSET)',
    ]) {
      expect(await screen.findByRole('radio', { name })).toBeTruthy();
    }
    expect(screen.getByText(/Users work in windows/)).toBeTruthy();
  });

  it('refuses OK_LIMITED without a working time, then sends the status', async () => {
    let sent: unknown;
    const { user, screen, api } = await renderApp({
      path,
      session: adminSession(),
      routes: {
        [`GET /api/admin/companies/${COMPANY_ID}`]: { body: company() },
        [`PUT /api/admin/companies/${COMPANY_ID}/status`]: ({ body }) => {
          sent = body;
          return { body: company({ loginStatus: 'OK_LIMITED', restrictionWorkingTime: 30, restrictionWaitTime: 15 }) };
        },
        'GET /api/admin/users': { body: { items: [], nextCursor: null } },
      },
    });
    await user.click(await screen.findByRole('radio', { name: 'Limited (OK_LIMITED)' }));
    await user.click(screen.getByRole('button', { name: 'Save status' }));
    expect(
      await screen.findByText('With the Limited status the working time must be more than 0 minutes.'),
    ).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    const workingTime = screen.getByLabelText(/Working time/);
    await user.clear(workingTime);
    await user.type(workingTime, '30');
    const waitTime = screen.getByLabelText(/Wait time/);
    await user.clear(waitTime);
    await user.type(waitTime, '15');
    await user.type(screen.getByLabelText('Message to users'), 'Please settle invoice 42.');
    await user.click(screen.getByRole('button', { name: 'Save status' }));
    await waitFor(() => expect(sent).toBeDefined());
    // The working start was not touched: it is left out, so a running window is kept.
    expect(sent).toEqual({
      loginStatus: 'OK_LIMITED',
      restrictionWorkingTime: 30,
      restrictionWaitTime: 15,
      restrictionMessage: 'Please settle invoice 42.',
    });
  });

  it('sends the working start only when changed: null when cleared, ISO when set', () => {
    const base = {
      loginStatus: 'BLOCKED' as const,
      restrictionWaitTime: 0,
      restrictionWorkingTime: 0,
      restrictionMessage: ' ',
    };
    expect(
      toStatusRequest({ ...base, restrictionWorkingStart: '2026-03-01T08:00' }, '2026-03-01T08:00')
        .restrictionWorkingStart,
    ).toBeUndefined();
    expect(
      toStatusRequest({ ...base, restrictionWorkingStart: '' }, '2026-03-01T08:00').restrictionWorkingStart,
    ).toBeNull();
    expect(toStatusRequest({ ...base, restrictionWorkingStart: '2026-03-02T09:30' }, '').restrictionWorkingStart).toBe(
      new Date('2026-03-02T09:30').toISOString(),
    );
    expect(toStatusRequest({ ...base, restrictionWorkingStart: '' }, '').restrictionMessage).toBeNull();
  });
});
