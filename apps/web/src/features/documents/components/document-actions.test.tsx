import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { DOC_ID, detail, documentsRoutes, listItem, signedIn } from '../documents-test-data.ts';
import type { FeaturePermission } from '@portal/contracts';
import { exportPath } from '../api/document-actions.ts';

const SECOND = '66666666-6666-4666-8666-666666666666';
const items = [listItem(), listItem({ id: SECOND, documentNumber: 'PO-1002', businessStatus: 'dispatched' })];

function routesWith(options: { permissions?: FeaturePermission[] } = {}) {
  const changes: unknown[] = [];
  const { routes } = documentsRoutes({ items, ...options });
  return {
    changes,
    routes: {
      ...routes,
      'POST /api/documents/status': ({ body }: { body: unknown }) => {
        changes.push(body);
        return { body: { changed: (body as { ids: string[] }).ids } };
      },
    },
  };
}

/** The browser's fetch for files (zip, export): records the call, answers with bytes; saving is stubbed. */
function stubFiles() {
  const files = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(new Blob(['PK']), { headers: { 'content-disposition': 'attachment; filename="documents.zip"' } }),
  );
  vi.stubGlobal('fetch', files);
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
  return files;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('selecting documents and the bulk bar', () => {
  it('selects rows, marks them read, sets an additional status, and downloads their originals as a zip', async () => {
    const { routes, changes } = routesWith();
    const files = stubFiles();
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes });
    await app.screen.findByTestId('documents-table');
    const bar = app.screen.getByTestId('documents-bulk-bar');
    // Nothing selected: only the export of the list is offered.
    expect(within(bar).queryByRole('button', { name: 'Mark as read' })).toBeNull();
    await app.user.click(app.screen.getByRole('checkbox', { name: 'Select document PO-1001' }));
    await app.user.click(app.screen.getByRole('checkbox', { name: 'Select document PO-1002' }));
    expect(within(bar).getByTestId('documents-selected-count').textContent).toBe('2 selected');
    expect(
      (within(bar).getByRole('checkbox', { name: 'Select all shown documents' }) as HTMLInputElement).checked,
    ).toBe(true);

    await app.user.click(within(bar).getByRole('button', { name: 'Mark as read' }));
    await waitFor(() => expect(changes).toEqual([{ ids: [DOC_ID, SECOND], read: true }]));
    expect(await app.screen.findByText('Status changed for 2 documents.')).toBeTruthy();

    await app.user.click(within(bar).getByRole('button', { name: 'Additional status' }));
    await app.user.click(await app.screen.findByRole('menuitem', { name: 'Completed' }));
    await waitFor(() => expect(changes).toContainEqual({ ids: [DOC_ID, SECOND], additionalStatus: 'completed' }));

    await app.user.click(within(bar).getByRole('button', { name: 'Download originals (ZIP)' }));
    await waitFor(() => expect(files).toHaveBeenCalled());
    const [url, init] = files.mock.calls[0]!;
    expect(url).toBe('/api/documents/zip');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ ids: [DOC_ID, SECOND] });

    await app.user.click(within(bar).getByRole('button', { name: 'Clear selection' }));
    expect(within(bar).getByTestId('documents-selected-count').textContent).toBe('');
    // Many clicks: a busy machine needs more than the default time.
  }, 40_000);

  it('shows the business status as a badge in its column', async () => {
    const data = documentsRoutes({ items });
    data.saved['inbox'] = ['DocumentNumber', 'BusinessStatus'];
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes: data.routes });
    const row = await app.screen.findByTestId('document-row-PO-1002');
    expect(within(row).getByTestId('document-business-status-dispatched').textContent).toBe('Dispatched');
  });

  it('exports the filtered list with the user’s columns, or the selection', async () => {
    const { routes } = routesWith();
    const files = stubFiles();
    const app = await renderApp({ path: '/documents/in?documentNumber=PO', session: signedIn(), routes });
    await app.screen.findByTestId('documents-table');
    const bar = app.screen.getByTestId('documents-bulk-bar');
    await app.user.click(within(bar).getByRole('button', { name: 'Export the list' }));
    await app.user.click(await app.screen.findByRole('menuitem', { name: 'Export CSV' }));
    await waitFor(() => expect(files).toHaveBeenCalled());
    const url = new URL(String(files.mock.calls[0]![0]), 'http://x');
    expect(url.pathname).toBe('/api/documents/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'csv',
      direction: 'in',
      documentNumber: 'PO',
      columns: 'DocumentNumber,PartnerName,DeliveryPointIln,DocumentBusinessDate,WebDocumentTimeStamp,Status',
      language: 'en',
    });
    expect(exportPath({ format: 'xlsx', direction: 'out', columns: ['Status'], search: {}, ids: ['a', 'b'] })).toBe(
      '/documents/export?format=xlsx&direction=out&columns=Status&ids=a%2Cb',
    );
  });

  it('offers the clerk (inbox read only) no status actions, in the list or in the view', async () => {
    const { routes } = routesWith({ permissions: ['INBOX_READ'] });
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes });
    await app.screen.findByTestId('documents-table');
    await app.user.click(app.screen.getByRole('checkbox', { name: 'Select document PO-1001' }));
    const bar = app.screen.getByTestId('documents-bulk-bar');
    expect(within(bar).getByRole('button', { name: 'Download originals (ZIP)' })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: 'Mark as read' })).toBeNull();
    expect(within(bar).queryByRole('button', { name: 'Additional status' })).toBeNull();
    app.unmount();

    const view = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes });
    await view.screen.findByTestId('document-view');
    expect(view.screen.queryByRole('button', { name: 'Mark as unread' })).toBeNull();
    expect(view.screen.queryByTestId('document-status-actions')).toBeNull();
  });
});

describe('the document view’s status actions', () => {
  it('marks the open document unread and sets its additional status, without reading it again', async () => {
    const { routes, changes } = routesWith();
    const reads: string[] = [];
    const app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: {
        ...routes,
        [`GET /api/documents/${DOC_ID}`]: () => {
          reads.push(DOC_ID);
          const linked = {
            field: 'businessStatus',
            from: 'new_order',
            to: 'confirmed',
            userId: null,
            at: '2026-11-21T10:00:00.000Z',
            reason: 'linked_document',
          };
          return { body: detail({ businessStatus: 'confirmed', history: [...detail().history, linked] }) };
        },
      },
    });
    const actions = await app.screen.findByTestId('document-status-actions');
    expect(within(actions).getByText('Confirmed')).toBeTruthy();
    expect(app.screen.getByTestId('document-history').textContent).toContain('New order → Confirmed');
    await app.user.click(within(actions).getByRole('button', { name: 'Mark as unread' }));
    await waitFor(() => expect(changes).toEqual([{ ids: [DOC_ID], read: false }]));
    // The view shows Received, and the button turns into "Mark as read".
    expect(await within(actions).findByRole('button', { name: 'Mark as read' })).toBeTruthy();
    expect(within(app.screen.getByTestId('document-view')).getByTestId('document-status-received')).toBeTruthy();
    expect(reads).toHaveLength(1);

    await app.user.click(within(actions).getByRole('button', { name: 'Additional status' }));
    await app.user.click(await app.screen.findByRole('menuitem', { name: 'Cancelled' }));
    await waitFor(() => expect(changes).toContainEqual({ ids: [DOC_ID], additionalStatus: 'cancelled' }));
    expect(await app.screen.findByTestId('document-additional-status-cancelled')).toBeTruthy();
  });
});
