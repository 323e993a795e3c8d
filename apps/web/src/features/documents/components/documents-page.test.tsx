import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { documentsRoutes, listItem, signedIn } from '../documents-test-data.ts';
import { validateDocumentsSearch } from '../documents-search.ts';

/** The column headers, less the selection's checkbox column (its header is for screen readers only). */
const headers = (table: HTMLElement) =>
  Array.from(table.querySelectorAll('thead th'))
    .map((th) => th.textContent?.trim())
    .filter((header) => header !== 'Selection');

describe('documents list', () => {
  it("shows the user's columns in their order, with the status label", async () => {
    const { routes } = documentsRoutes();
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes });
    const table = await app.screen.findByTestId('documents-table');
    expect(headers(table)).toEqual([
      'Document number',
      'Partner',
      'Delivery point GLN',
      'Document date',
      'Platform time',
      'Status',
    ]);
    const row = app.screen.getByTestId('document-row-PO-1001');
    expect(within(row).getByText('Received')).toBeTruthy();
    expect(within(row).getByText('Demo Retailer')).toBeTruthy();
    expect(app.api.calls.find((c) => c.path === '/api/users/getColumns')?.body).toEqual({ list: 'inbox' });
  });

  it('shows saved columns in the saved order on the outbox, and its own column list', async () => {
    const data = documentsRoutes({ items: [listItem({ direction: 'out', status: 'sent', test: true })] });
    data.saved['outbox'] = ['Status', 'TestOut', 'DocumentNumber', 'DocumentType'];
    const app = await renderApp({ path: '/documents/out', session: signedIn(), routes: data.routes });
    const table = await app.screen.findByTestId('documents-table');
    expect(headers(table)).toEqual(['Status', 'Test', 'Document number', 'Document type']);
    const row = app.screen.getByTestId('document-row-PO-1001');
    expect(within(row).getByText('Sent')).toBeTruthy();
    expect(within(row).getByText('Yes')).toBeTruthy();
    expect(within(row).getByText('Order')).toBeTruthy();
  });

  it('shows the KSeF number column for received KSeF invoices, and leaves it empty for others', async () => {
    const ksefNumber = '5260001246-20261127-0A1B2C3D4E5F-7A';
    const data = documentsRoutes({
      items: [
        listItem({
          id: '11111111-1111-4111-8111-111111111111',
          documentNumber: 'FV/1',
          documentReferenceNumber: ksefNumber,
          ksefNumber,
          standard: 'ksef',
          messageType: 'FA(3)',
          documentType: 'KSEF_INVOICE',
          documentKind: 'invoice',
        }),
        listItem({ documentReferenceNumber: 'REF-9' }),
      ],
    });
    data.saved['inbox'] = ['DocumentNumber', 'KsefNumber'];
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes: data.routes });
    const table = await app.screen.findByTestId('documents-table');
    expect(headers(table)).toEqual(['Document number', 'KSeF number']);
    const cells = (number: string) =>
      Array.from(app.screen.getByTestId(`document-row-${number}`).querySelectorAll('td')).map((td) =>
        td.textContent?.trim(),
      );
    expect(cells('FV/1')).toContain(ksefNumber);
    expect(cells('PO-1001')).not.toContain('REF-9');
  });

  it('shows the KSeF number of a sent invoice KSeF accepted, whatever its reference number', async () => {
    const ksefNumber = '5260001246-20261127-0A1B2C3D4E5F-7A';
    const data = documentsRoutes({
      items: [
        listItem({
          id: '11111111-1111-4111-8111-111111111111',
          direction: 'out',
          status: 'sent',
          documentNumber: 'FV/OUT/1',
          documentReferenceNumber: 'ORDER-7',
          ksefNumber,
          documentType: 'INVOIC',
          documentKind: 'invoice',
        }),
        listItem({ direction: 'out', status: 'sent', documentReferenceNumber: 'REF-9' }),
      ],
    });
    data.saved['outbox'] = ['DocumentNumber', 'KsefNumber'];
    const app = await renderApp({ path: '/documents/out', session: signedIn(), routes: data.routes });
    const table = await app.screen.findByTestId('documents-table');
    expect(headers(table)).toEqual(['Document number', 'KSeF number']);
    const cells = (number: string) =>
      Array.from(app.screen.getByTestId(`document-row-${number}`).querySelectorAll('td')).map((td) =>
        td.textContent?.trim(),
      );
    expect(cells('FV/OUT/1')).toContain(ksefNumber);
    expect(cells('FV/OUT/1')).not.toContain('ORDER-7');
    expect(cells('PO-1001')).not.toContain('REF-9');
  });

  it('sends the filters of the address to the server and keeps the applied filters in the address', async () => {
    const { routes } = documentsRoutes();
    const urls: URL[] = [];
    const app = await renderApp({
      path: '/documents/in?documentNumber=PO-1&documentStatus=received,read&documentDateFrom=2026-11-01&partnerIds=5901234000017&bogus=1&mode=nope',
      session: signedIn(),
      routes: {
        ...routes,
        'GET /api/documents': ({ url }: { url: string }) => {
          urls.push(new URL(url, 'http://x'));
          return { body: { items: [listItem()], nextCursor: null, total: 1 } };
        },
      },
    });
    await app.screen.findByTestId('documents-table');
    const first = urls[0]!;
    expect(first.searchParams.get('direction')).toBe('in');
    expect(first.searchParams.get('documentNumber')).toBe('PO-1');
    expect(first.searchParams.get('documentStatus')).toBe('received,read');
    expect(first.searchParams.get('documentDateFrom')).toBe('2026-11-01');
    expect(first.searchParams.get('partnerIds')).toBe('5901234000017');
    expect(first.searchParams.get('mode')).toBeNull();
    expect(first.searchParams.get('bogus')).toBeNull();

    // The panel is open (filters are active) and shows them; a new filter goes into the address.
    const panel = app.screen.getByRole('search');
    const number = within(panel).getByLabelText('Document number starts with') as HTMLInputElement;
    expect(number.value).toBe('PO-1');
    await app.user.clear(number);
    await app.user.type(number, 'PO-2');
    await app.user.click(within(panel).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(currentHref(app.router)).toContain('documentNumber=PO-2'));
    const href = decodeURIComponent(currentHref(app.router));
    expect(href).toContain('documentStatus');
    await waitFor(() =>
      expect(
        urls.some(
          (u) =>
            u.searchParams.get('documentNumber') === 'PO-2' &&
            u.searchParams.get('documentStatus') === 'received,read' &&
            // The filters the panel did not touch stay.
            u.searchParams.get('documentDateFrom') === '2026-11-01' &&
            u.searchParams.get('partnerIds') === '5901234000017',
        ),
      ).toBe(true),
    );

    await app.user.click(within(panel).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in'));
  });

  it('sorts by the column and order in the address', async () => {
    const { routes } = documentsRoutes();
    const urls: URL[] = [];
    const app = await renderApp({
      path: '/documents/out?sort=partnerName&order=asc',
      session: signedIn(),
      routes: {
        ...routes,
        'GET /api/documents': ({ url }: { url: string }) => {
          urls.push(new URL(url, 'http://x'));
          return { body: { items: [], nextCursor: null, total: 0 } };
        },
      },
    });
    expect(await app.screen.findByText('No documents sent yet.')).toBeTruthy();
    expect(urls[0]?.searchParams.get('direction')).toBe('out');
    expect(urls[0]?.searchParams.get('sort')).toBe('partnerName');
    expect(urls[0]?.searchParams.get('order')).toBe('asc');
    await app.user.click(app.screen.getByRole('button', { name: 'Filters' }));
    const sortBy = app.screen.getAllByLabelText('Sort by').map((el) => (el as HTMLInputElement).value);
    expect(sortBy).toContain('Partner');
  });

  it('drops unreadable search parameters', () => {
    expect(
      validateDocumentsSearch({
        documentNumber: '  A1 ',
        documentDateFrom: '2026-02-30',
        documentDateTo: '2026-02-28',
        businessTypeIds: 'order,nope,invoice,order',
        partnerIds: 'abc,4012345000016',
        sort: 'bogus',
        order: 'asc',
      }),
    ).toEqual({
      documentNumber: 'A1',
      documentDateTo: '2026-02-28',
      businessTypeIds: ['order', 'invoice'],
      partnerIds: ['4012345000016'],
      order: 'asc',
    });
  });

  it('reads a GLN the router took for a number as its text, and an emptied date as no date', () => {
    // A hand-written `?partnerIds=5901234000017&deliveryPointGln=4012345000030` reaches the page as numbers.
    expect(
      validateDocumentsSearch({ partnerIds: 5901234000017, deliveryPointGln: 4012345000030, documentDateFrom: '' }),
    ).toEqual({ partnerIds: ['5901234000017'], deliveryPointGln: '4012345000030' });
  });

  it('opens a document over the list from its number and goes back to the filtered list on close', async () => {
    const { routes } = documentsRoutes();
    const app = await renderApp({ path: '/documents/in?documentNumber=PO', session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('link', { name: 'PO-1001' }));
    await waitFor(() =>
      expect(currentHref(app.router)).toContain('/documents/in/44444444-4444-4444-8444-444444444444'),
    );
    const dialog = await app.screen.findByRole('dialog', { name: 'Order PO-1001' });
    expect(within(dialog).getByTestId('document-view')).toBeTruthy();
    // The list stays under the dialog.
    expect(app.screen.getByTestId('documents-table')).toBeTruthy();
    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(currentHref(app.router)).toBe('/documents/in?documentNumber=PO'));
  });

  it('hides the upload without the permission to upload into the list', async () => {
    const { routes } = documentsRoutes({ permissions: ['INBOX_READ'] });
    const app = await renderApp({ path: '/documents/in', session: signedIn(), routes });
    await app.screen.findByTestId('documents-table');
    expect(app.screen.queryByRole('button', { name: 'Upload files' })).toBeNull();
  });
});
