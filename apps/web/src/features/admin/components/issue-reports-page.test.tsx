import { notifications } from '@mantine/notifications';
import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IssueReport, IssueReportStatus } from '@portal/contracts';
import type { MockHandler } from '../../../test/fetch-mock.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { COMPANY_ID, adminSession } from '../admin-test-data.ts';

const REPORT_ID = '7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b';
const PATCH = `PATCH /api/admin/issue-reports/${REPORT_ID}`;

function report(overrides: Partial<IssueReport> = {}): IssueReport {
  return {
    id: REPORT_ID,
    type: 'technical',
    priority: 'critical',
    subject: 'Invoices do not arrive',
    description: 'Since Monday no invoice has reached our inbox.',
    status: 'new',
    createdAt: '2026-03-02T09:30:00.000Z',
    company: { id: COMPANY_ID, name: 'Demo Retailer' },
    user: { id: 'u1', email: 'user@demo.example.com', firstName: 'Uma', lastName: 'User' },
    files: [],
    ...overrides,
  };
}

/** The list endpoint over a report whose status the PATCH handler changes. */
function server(patch?: MockHandler) {
  let status: IssueReportStatus = 'new';
  const sent: unknown[] = [];
  const routes: Record<string, MockHandler> = {
    'GET /api/admin/issue-reports': () => ({ body: { items: [report({ status })], nextCursor: null } }),
    [PATCH]:
      patch ??
      (({ body }) => {
        sent.push(body);
        status = (body as { status: IssueReportStatus }).status;
        return { body: report({ status }) };
      }),
  };
  return { routes, sent };
}

async function openReport(app: Awaited<ReturnType<typeof renderApp>>) {
  await app.user.click(await app.screen.findByRole('button', { name: 'Invoices do not arrive' }));
  return app.screen.findByRole('dialog', { name: 'Invoices do not arrive' });
}

// Toasts live in a store of their own, outside the rendered tree: one test's toast must not reach the next.
afterEach(() => {
  notifications.clean();
  vi.restoreAllMocks();
});

describe('issue reports page', () => {
  it('shows the status in the list and saves a new one from the dialog', async () => {
    const { routes, sent } = server();
    const app = await renderApp({ path: '/admin/issue-reports', session: adminSession(), routes });
    const table = await app.screen.findByRole('table', { name: 'Issue reports' });
    expect(within(table).getByRole('columnheader', { name: 'Status' })).toBeTruthy();
    expect(within(table).getByTestId('issue-status').textContent).toBe('New');

    const dialog = await openReport(app);
    const select = within(dialog).getByRole('combobox', { name: 'Status' });
    expect((select as HTMLInputElement).value).toBe('New');
    await app.user.click(select);
    await app.user.click(await app.screen.findByRole('option', { name: 'Resolved' }));

    await waitFor(() => expect(sent).toEqual([{ status: 'resolved' }]));
    expect(await app.screen.findByText('Report status set to Resolved.')).toBeTruthy();
    // The list is fetched again and shows the new status; the dialog keeps it.
    await waitFor(() => expect(within(table).getByTestId('issue-status').textContent).toBe('Resolved'));
    expect((within(dialog).getByRole('combobox', { name: 'Status' }) as HTMLInputElement).value).toBe('Resolved');
    expect(app.api.calls.filter((c) => c.path === '/api/admin/issue-reports').length).toBeGreaterThan(1);
  });

  it('explains a refused change under the select and keeps the saved status', async () => {
    const { routes } = server(() => ({
      status: 404,
      body: { error: { code: 'resource.not_found', message: 'Not found' } },
    }));
    const app = await renderApp({ path: '/admin/issue-reports', session: adminSession(), routes });
    const dialog = await openReport(app);
    await app.user.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Closed' }));

    expect(await within(dialog).findByText('The requested item was not found.')).toBeTruthy();
    expect((within(dialog).getByRole('combobox', { name: 'Status' }) as HTMLInputElement).value).toBe('New');
    expect(app.screen.queryByText(/Report status set to/)).toBeNull();
  });

  it('shows the status as a labelled line of the phone card', async () => {
    // Every `max-width` media query matches, as on a phone.
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
      Object.assign(new EventTarget(), {
        matches: query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
      }),
    );
    const app = await renderApp({ path: '/admin/issue-reports', session: adminSession(), routes: server().routes });
    const list = await app.screen.findByRole('list', { name: 'Issue reports' });
    const card = within(list).getByRole('listitem');
    const term = within(card).getByText('Status', { selector: 'dt' });
    expect(term.nextElementSibling?.textContent).toBe('New');
  });
});
