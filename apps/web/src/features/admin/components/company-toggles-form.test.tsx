import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { COMPANY_ID, adminSession, company } from '../admin-test-data.ts';

const path = `/admin/companies/${COMPANY_ID}`;

describe('company feature toggles and payment flag', () => {
  it('lists the eight toggles with their labels and saves the chosen ones in catalogue order', async () => {
    let sent: unknown;
    const { user, screen } = await renderApp({
      path,
      session: adminSession(),
      routes: {
        [`GET /api/admin/companies/${COMPANY_ID}`]: { body: company({ toggles: ['ENRICHMENT'] }) },
        [`PUT /api/admin/companies/${COMPANY_ID}/toggles`]: ({ body }) => {
          sent = body;
          return { body: company({ toggles: ['KSEF', 'ENRICHMENT', 'CHAT_AI'] }) };
        },
        'GET /api/admin/users': { body: { items: [], nextCursor: null } },
      },
    });
    const labels = [
      'KSeF',
      'KSeF demo',
      'KSeF demo (Siemens)',
      'France PDP demo',
      'Spain FACe',
      'Enrichment',
      'CEN outbox',
      'AI assistant',
    ];
    for (const label of labels) expect(await screen.findByRole('checkbox', { name: label })).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Enrichment' }) as HTMLInputElement).checked).toBe(true);
    const save = screen.getByRole('button', { name: 'Save toggles' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    await user.click(screen.getByRole('checkbox', { name: 'AI assistant' }));
    await user.click(screen.getByRole('checkbox', { name: 'KSeF' }));
    await user.click(save);
    await waitFor(() => expect(sent).toEqual({ toggles: ['KSEF', 'ENRICHMENT', 'CHAT_AI'] }));
  });

  it('sets the overdue-payment flag at once', async () => {
    let sent: unknown;
    const { user, screen } = await renderApp({
      path,
      session: adminSession(),
      routes: {
        [`GET /api/admin/companies/${COMPANY_ID}`]: { body: company() },
        [`PUT /api/admin/companies/${COMPANY_ID}/overdue-payment`]: ({ body }) => {
          sent = body;
          return { body: company({ overduePayment: true }) };
        },
        'GET /api/admin/users': { body: { items: [], nextCursor: null } },
      },
    });
    await user.click(await screen.findByRole('switch', { name: /Overdue payment/ }));
    await waitFor(() => expect(sent).toEqual({ overduePayment: true }));
  });
});
