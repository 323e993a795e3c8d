import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EDIFACT_MAX_BYTES, type FeaturePermission, type ValidateEdifactResponse } from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;
const session = (): StoredSession => ({
  accessToken: makeAccessToken({ exp: inFiveMinutes() }),
  refreshToken: 'refresh-1',
  refreshExpiresAt: inFiveMinutes() + 1500,
});

const ORDERS = [
  "UNA:+.? '",
  "UNB+UNOC:3+5412345000013:14+4012345500004:14+261116:1000+REF0001'",
  "UNH+1+ORDERS:D:96A:UN:EAN008'",
  "BGM+999+PO12345+9'",
  "DTM+137:20261116:102'",
  "UNT+4+1'",
  "UNZ+1+REF0001'",
].join('\n');

const message = {
  reference: '1',
  type: 'ORDERS',
  version: 'D96A',
  association: 'EAN008',
  documentNumber: 'PO12345',
  line: 3,
  status: 'error',
} as const;

function response(errorLevel: ValidateEdifactResponse['summary']['errorLevel']): ValidateEdifactResponse {
  const findings: ValidateEdifactResponse['findings'] =
    errorLevel === null
      ? []
      : [
          {
            code: 'EDI_INVALID_CODE',
            severity: 'error',
            level: 'map',
            path: 'BGM[1]/C002/1001',
            fieldName: 'Document/message name, coded',
            messageType: 'ORDERS',
            version: 'EAN008',
            documentNumber: 'PO12345',
            line: 4,
            column: 5,
            offset: 110,
            expected: '220, 221',
            actual: '999',
            params: { element: 'C002/1001', codes: '220,221' },
          },
          {
            code: 'EDI_UNT_COUNT_MISMATCH',
            severity: 'error',
            level: 'syntax',
            path: 'UNT[1]/0074',
            messageType: 'ORDERS',
            version: 'D96A',
            documentNumber: 'PO12345',
            line: 6,
            column: 5,
            offset: 160,
            expected: '4',
            actual: '12',
            params: { element: 1, declared: 12, counted: 4 },
          },
        ];
  return {
    ok: errorLevel === null,
    messages: [{ ...message, status: errorLevel === null ? 'valid' : 'error' }],
    findings,
    summary: { errors: findings.length, warnings: 0, errorLevel, truncated: false },
  };
}

async function openPage(
  options: { errorLevel?: ValidateEdifactResponse['summary']['errorLevel']; permissions?: FeaturePermission[] } = {},
) {
  const app = await renderApp({
    path: '/document-validation',
    session: session(),
    routes: {
      'GET /api/users/permissions': {
        body: {
          permissions: options.permissions ?? ['DOCUMENT_VALIDATION_READ', 'DOCUMENT_VALIDATION_CREATE'],
          toggles: [],
        },
      },
      'POST /api/validation/edifact': { body: response(options.errorLevel ?? null) },
    },
  });
  const textarea = await app.screen.findByLabelText('Document content');
  return { ...app, textarea: textarea as HTMLTextAreaElement };
}

describe('DocumentValidationPage', () => {
  it('shows the subtitle and sends the pasted content to the API', async () => {
    const { screen, textarea, user, api } = await openPage();
    expect(screen.getByText('Paste document content below and press Validate')).toBeTruthy();
    fireEvent.change(textarea, { target: { value: ORDERS } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByTestId('validation-verdict');
    expect(api.calls.find((c) => c.path === '/api/validation/edifact')?.body).toEqual({ content: ORDERS });
  });

  it.each([
    ['map', 'The document contains errors according to map validation.'],
    ['specification', 'The document contains errors according to specification validation.'],
    [null, 'Document validated successfully.'],
  ] as const)('shows the notification of errorLevel %s', async (errorLevel, text) => {
    const { screen, textarea, user } = await openPage({ errorLevel });
    fireEvent.change(textarea, { target: { value: ORDERS } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const verdict = await screen.findByTestId('validation-verdict');
    expect(verdict.textContent).toContain(text);
    // Said once: no toast repeats the alert (on a phone it would lie over it).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByText(text)).toHaveLength(1);
  });

  it('lists the findings with every column and a translated error message', async () => {
    const { screen, textarea, user } = await openPage({ errorLevel: 'map' });
    fireEvent.change(textarea, { target: { value: ORDERS } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const table = await screen.findByTestId('findings-table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    // What is wrong first, so it needs no sideways scrolling; then the rest of the description's columns.
    expect(headers).toEqual([
      'Validation status',
      'Line number',
      'Error message',
      'Path',
      'Field name',
      'Field value',
      'Format',
      'Message',
      'Type',
      'Version',
      'Document number',
    ]);
    expect(within(table).getByText('Segment UNT says 12 segments, the message has 4.')).toBeTruthy();
    expect(
      within(table).getByText('The value “999” of C002/1001 is not allowed by the guide; allowed: 220, 221.'),
    ).toBeTruthy();
    expect(within(table).getAllByText('Error')).toHaveLength(2);
    expect(within(table).getByText('Map')).toBeTruthy();
    expect(within(screen.getByTestId('message-list')).getByText('EAN008')).toBeTruthy();

    // Filter by level, then sort by line descending.
    await user.type(screen.getByLabelText('Search'), 'UNT');
    expect(within(table).getAllByTestId('finding-row')).toHaveLength(1);
    await user.clear(screen.getByLabelText('Search'));
    await user.click(within(table).getByRole('button', { name: /Line number/ }));
    await user.click(within(table).getByRole('button', { name: /Line number/ }));
    expect(
      within(table)
        .getAllByTestId('finding-row')
        .map((row) => row.dataset['line']),
    ).toEqual(['6', '4']);
  });

  it('shows cards on a phone: the message of each finding, its other columns labelled, sortable from a list', async () => {
    const matchMedia = window.matchMedia;
    // A narrow screen: every max-width query matches.
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    })) as never;
    try {
      const { screen, textarea, user } = await openPage({ errorLevel: 'map' });
      fireEvent.change(textarea, { target: { value: ORDERS } });
      await user.click(screen.getByRole('button', { name: 'Validate' }));
      const cards = await screen.findByTestId('findings-cards');
      expect(screen.queryByTestId('findings-table')).toBeNull();
      const items = within(cards).getAllByTestId('finding-row');
      expect(items.map((card) => within(card).getByTestId('finding-message').textContent)).toEqual([
        'The value “999” of C002/1001 is not allowed by the guide; allowed: 220, 221.',
        'Segment UNT says 12 segments, the message has 4.',
      ]);
      expect(within(items[0]!).getByText('Path')).toBeTruthy();
      expect(within(items[0]!).getByText('BGM[1]/C002/1001')).toBeTruthy();
      expect(within(items[0]!).getByText('Field value')).toBeTruthy();

      await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
      await user.click(await screen.findByRole('option', { name: 'Message' }));
      expect(
        within(cards)
          .getAllByTestId('finding-row')
          .map((card) => card.dataset['line']),
      ).toEqual(['6', '4']);
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('moves the paste area to the line of a clicked row, and of a row chosen with Enter', async () => {
    const { screen, textarea, user } = await openPage({ errorLevel: 'map' });
    fireEvent.change(textarea, { target: { value: ORDERS } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    const rows = await screen.findAllByTestId('finding-row');
    await user.click(rows[0] as HTMLElement);
    expect(screen.getByTestId('line-highlight').dataset['line']).toBe('4');
    (rows[1] as HTMLElement).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('line-highlight').dataset['line']).toBe('6');
    expect(textarea.closest('[data-editor-frame]')?.getAttribute('data-highlight-line')).toBe('6');
  });

  it('refuses more than 10 MB before sending anything', async () => {
    const { screen, textarea, user, api } = await openPage();
    fireEvent.change(textarea, { target: { value: 'A'.repeat(EDIFACT_MAX_BYTES + 1) } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText(/larger than the 10 MB that can be validated/)).toBeTruthy();
    expect(api.calls.some((c) => c.path === '/api/validation/edifact')).toBe(false);
  });

  it("answers the server's 413 with the same message", async () => {
    const app = await renderApp({
      path: '/document-validation',
      session: session(),
      routes: {
        'GET /api/users/permissions': {
          body: { permissions: ['DOCUMENT_VALIDATION_READ', 'DOCUMENT_VALIDATION_CREATE'], toggles: [] },
        },
        'POST /api/validation/edifact': {
          status: 413,
          body: { error: { code: 'request.too_large', message: 'too large' } },
        },
      },
    });
    fireEvent.change(await app.screen.findByLabelText('Document content'), { target: { value: ORDERS } });
    await app.user.click(app.screen.getByRole('button', { name: 'Validate' }));
    expect(await app.screen.findByText(/larger than the 10 MB that can be validated/)).toBeTruthy();
    expect(app.onErrorToast).not.toHaveBeenCalled();
  });

  it('Reset clears the text, the result and the messages', async () => {
    const { screen, textarea, user } = await openPage({ errorLevel: 'specification' });
    fireEvent.change(textarea, { target: { value: ORDERS } });
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByTestId('validation-result');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(textarea.value).toBe('');
    expect(screen.queryByTestId('validation-result')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByText('Paste a document or drop a file first.')).toBeTruthy();
  });

  it('reads a chosen file, and Latin-1 when it is not UTF-8', async () => {
    const { screen, textarea, container } = await openPage();
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode("UNH+1+ORDERS:D:96A:UN'NAD+BY+++M"),
      0xfc,
      ...new TextEncoder().encode("ller'"),
    ]);
    fireEvent.change(input, { target: { files: [new File([latin1], 'order.edi')] } });
    await waitFor(() => expect(textarea.value).toBe("UNH+1+ORDERS:D:96A:UN'NAD+BY+++Müller'"));
    expect(await screen.findByText('order.edi is not valid UTF-8 and has been read as Latin-1.')).toBeTruthy();
  });

  it('lets a reader without the create permission see the page but not validate', async () => {
    const { screen } = await openPage({ permissions: ['DOCUMENT_VALIDATION_READ'] });
    expect(screen.getByRole('button', { name: 'Validate' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(/needs the permission to create document validations/)).toBeTruthy();
  });

  it('sends a user without the read permission away', async () => {
    const { router } = await renderApp({ path: '/document-validation', session: session() });
    expect(currentHref(router)).toBe('/documents/in');
  });
});
