import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { documentsRoutes, signedIn } from '../documents-test-data.ts';
import { moveColumn } from './column-chooser.tsx';

/** The column headers, less the selection's checkbox column (its header is for screen readers only). */
const headers = (table: HTMLElement) =>
  Array.from(table.querySelectorAll('thead th'))
    .map((th) => th.textContent?.trim())
    .filter((header) => header !== 'Selection');

describe('column chooser', () => {
  it('moves a column up and down, and not past either end', () => {
    expect(moveColumn(['Status', 'DocumentNumber', 'TestOut'], 2, -1)).toEqual(['Status', 'TestOut', 'DocumentNumber']);
    expect(moveColumn(['Status', 'DocumentNumber'], 0, 1)).toEqual(['DocumentNumber', 'Status']);
    expect(moveColumn(['Status', 'DocumentNumber'], 0, -1)).toEqual(['Status', 'DocumentNumber']);
    expect(moveColumn(['Status', 'DocumentNumber'], 1, 1)).toEqual(['Status', 'DocumentNumber']);
  });

  it('shows, hides and reorders with buttons, saves for the list, and the saved order comes back on a new visit', async () => {
    const data = documentsRoutes();
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes: data.routes });
    await app.screen.findByTestId('documents-table');
    await app.user.click(app.screen.getByRole('button', { name: 'Columns' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Columns of the list' });

    await app.user.click(within(dialog).getByRole('button', { name: 'Show Version' }));
    // From the keyboard: focus the button and press Enter.
    within(dialog).getByRole('button', { name: 'Move Version up' }).focus();
    await app.user.keyboard('{Enter}');
    await app.user.click(within(dialog).getByRole('button', { name: 'Move Document number down' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Hide Platform time' }));
    expect(within(dialog).getByRole('button', { name: 'Move Partner up' })).toBeTruthy();
    // The first shown column cannot move further up, the last not further down.
    expect(within(dialog).getByRole('button', { name: 'Move Partner up' }).hasAttribute('disabled')).toBe(true);
    expect(within(within(dialog).getByTestId('chooser-hidden')).getByText('Platform time')).toBeTruthy();

    await app.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(app.screen.queryByRole('dialog', { name: 'Columns of the list' })).toBeNull());
    const expected = ['PartnerName', 'DocumentNumber', 'DeliveryPointIln', 'DocumentBusinessDate', 'Version', 'Status'];
    expect(app.api.calls.find((c) => c.path === '/api/users/setColumns')?.body).toEqual({
      list: 'inbox',
      columns: expected,
    });
    expect(data.saved['inbox']).toEqual(expected);
    const labels = ['Partner', 'Document number', 'Delivery point GLN', 'Document date', 'Version', 'Status'];
    await waitFor(() => expect(headers(app.screen.getByTestId('documents-table'))).toEqual(labels));
    app.unmount();

    // A new visit (a reload) asks the server and shows the saved columns.
    const again = await renderApp({ path: '/documents/in', session: signedIn(), routes: data.routes });
    expect(headers(await again.screen.findByTestId('documents-table'))).toEqual(labels);
  });

  it('keeps at least one column and goes back to the defaults', async () => {
    const data = documentsRoutes();
    data.saved['inbox'] = ['Status'];
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes: data.routes });
    await app.screen.findByTestId('documents-table');
    await app.user.click(app.screen.getByRole('button', { name: 'Columns' }));
    const dialog = await app.screen.findByRole('dialog', { name: 'Columns of the list' });
    expect(within(dialog).getByRole('button', { name: 'Hide Status' }).hasAttribute('disabled')).toBe(true);
    await app.user.click(within(dialog).getByRole('button', { name: 'Default columns' }));
    expect(
      Array.from(within(dialog).getByTestId('chooser-shown').querySelectorAll('li')).map((li) =>
        li.getAttribute('data-column'),
      ),
    ).toEqual([
      'DocumentNumber',
      'PartnerName',
      'DeliveryPointIln',
      'DocumentBusinessDate',
      'WebDocumentTimeStamp',
      'Status',
    ]);
    // Cancel saves nothing.
    await app.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(app.api.calls.some((c) => c.path === '/api/users/setColumns')).toBe(false);
  });
});
