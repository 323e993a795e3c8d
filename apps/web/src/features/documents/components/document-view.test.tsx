import { waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { sumOfLineAmounts } from '../document-body.ts';
import { makeAccessToken } from '../../../test/tokens.ts';
import { DOC_ID, ORIGINAL, detail, documentsRoutes, signedIn } from '../documents-test-data.ts';
import { prettyXml, splitSegments } from './document-original.tsx';

function routesWith(overrides: Record<string, unknown> = {}) {
  const { routes } = documentsRoutes();
  return {
    ...routes,
    [`GET /api/documents/${DOC_ID}`]: { body: detail() },
    ...overrides,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('document view', () => {
  it('shows the parties, dates, references, lines with their total, history and no findings', async () => {
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes: routesWith() });
    const view = await app.screen.findByTestId('document-view');
    expect(app.screen.getByRole('heading', { level: 1, name: 'Order PO-1001' })).toBeTruthy();
    expect(within(view).getByText('Read')).toBeTruthy();
    const buyer = within(view).getByTestId('party-BY');
    expect(buyer.textContent).toContain('Buyer');
    expect(buyer.textContent).toContain('Demo Retailer');
    expect(buyer.textContent).toContain('4012345000016');
    expect(within(view).getByTestId('party-SU').textContent).toContain('Demo Supplier');
    expect(within(view).getByText('Document date')).toBeTruthy();
    expect(within(view).getByText('Contract number')).toBeTruthy();
    expect(within(view).getByText('K-77')).toBeTruthy();
    expect(within(view).getByText('9 · Original')).toBeTruthy();

    const lines = within(view).getByTestId('document-lines');
    const rows = lines.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('4000862141404');
    expect(rows[0]?.textContent).toContain('Apple juice 1 l');
    expect(rows[0]?.textContent).toContain('10 PCE');
    expect(rows[0]?.textContent).toContain('12.50 EUR');
    // No totals sent: the sum of the line amounts, in decimals.
    expect(within(view).getByTestId('document-totals').textContent).toContain('18.10 EUR');

    const history = within(view).getByTestId('document-history');
    expect(history.textContent).toContain('Received → Read');
    // The platform's reasons in words, a reason a user typed as typed.
    expect(history.textContent).toContain('Received (delivered by the platform)');
    expect(history.textContent).toContain('(asked by the buyer)');
    expect(within(view).getByText('No findings.')).toBeTruthy();
    expect(within(view).getByText('No related documents.')).toBeTruthy();
  });

  it('shows the original one segment a line in its tab', async () => {
    // Files come through the authorized fetch (not the JSON client): the browser's fetch answers with the bytes.
    const files = vi.fn(async (url: string) =>
      url === `/api/documents/${DOC_ID}/original?encoding=utf-8`
        ? new Response(ORIGINAL)
        : new Response(null, { status: 404 }),
    );
    vi.stubGlobal('fetch', files);
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes: routesWith() });
    const view = await app.screen.findByTestId('document-view');
    await app.user.click(within(view).getByRole('tab', { name: 'Original' }));
    const original = await within(view).findByTestId('document-original');
    const lines = original.textContent?.split('\n');
    expect(lines?.[0]).toBe("UNA:+.? '");
    expect(lines).toContain("BGM+220+PO-1001+9'");
    expect(lines?.at(-1)).toBe("UNZ+1+1'");
    // Asked for in UTF-8: the server converts a file of another syntax level (UNOC: ISO 8859-1) for reading.
    expect(files.mock.calls[0]?.[0]).toBe(`/api/documents/${DOC_ID}/original?encoding=utf-8`);
  });

  it('shows the original of a KSeF invoice as XML, one element a line, not cut into segments', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/"><Naglowek>' +
      '<KodFormularza kodSystemowy="FA (3)">FA</KodFormularza></Naglowek><Fa><P_2>FV/1\'2</P_2><P_7/></Fa></Faktura>';
    vi.stubGlobal('fetch', async (url: string) =>
      url === `/api/documents/${DOC_ID}/original?encoding=utf-8`
        ? new Response(xml)
        : new Response(null, { status: 404 }),
    );
    const app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({
        [`GET /api/documents/${DOC_ID}`]: {
          body: detail({
            standard: 'ksef',
            messageType: 'FA(3)',
            documentType: 'KSEF_INVOICE',
            version: 'FA(3)',
            body: {
              ...detail().body,
              currency: 'PLN',
              taxes: [
                {
                  qualifier: '7',
                  type: 'VAT',
                  rate: '23',
                  amounts: [
                    { qualifier: '125', value: '80.00' },
                    { qualifier: '124', value: '18.40' },
                  ],
                },
                {
                  qualifier: '7',
                  type: 'VAT',
                  rate: '8',
                  amounts: [
                    { qualifier: '125', value: '12.90' },
                    { qualifier: '124', value: '1.03' },
                  ],
                },
              ],
            },
          }),
        },
      }),
    });
    const view = await app.screen.findByTestId('document-view');
    // The VAT summary: a row per rate, net and VAT.
    const vat = within(view).getByRole('table', { name: 'VAT summary' });
    expect(Array.from(vat.querySelectorAll('tbody tr')).map((tr) => tr.textContent)).toEqual([
      '23 %80.00 PLN18.40 PLN',
      '8 %12.90 PLN1.03 PLN',
    ]);
    await app.user.click(within(view).getByRole('tab', { name: 'Original' }));
    const original = await within(view).findByTestId('document-original');
    expect(original.dataset.format).toBe('xml');
    // The apostrophe is EDIFACT's terminator, not XML's: the number stays whole on its line.
    expect(original.textContent?.split('\n')).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<Faktura xmlns="http://crd.gov.pl/wzor/2025/06/25/13775/">',
      '  <Naglowek>',
      '    <KodFormularza kodSystemowy="FA (3)">FA</KodFormularza>',
      '  </Naglowek>',
      '  <Fa>',
      "    <P_2>FV/1'2</P_2>",
      '    <P_7/>',
      '  </Fa>',
      '</Faktura>',
    ]);
    expect(original.querySelector('[data-element]')).toBeNull();
  });

  it('lays XML out one element a line, and leaves laid-out or unreadable XML as it is', () => {
    expect(prettyXml('<a><b>1</b><c><d/></c></a>')).toBe('<a>\n  <b>1</b>\n  <c>\n    <d/>\n  </c>\n</a>');
    const laidOut = '<a>\n  <b>1</b>\n</a>';
    expect(prettyXml(`  ${laidOut}\n`)).toBe(laidOut);
    expect(prettyXml('<a><b>1</a>')).toBe('<a><b>1</a>');
    expect(prettyXml('<a>1</b></a>')).toBe('<a>1</b></a>');
  });

  it('lists findings with their place, and says so when the document is not there', async () => {
    const withFindings = detail({
      status: 'error',
      findings: [
        { code: 'EDI_MISSING_UNT', severity: 'error', level: 'syntax', path: 'UNZ', line: 3, column: 1, actual: 'UNZ' },
        { code: 'duplicate_document', severity: 'warning', level: 'document', path: '', line: 0, column: 0 },
      ],
    });
    const app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({ [`GET /api/documents/${DOC_ID}`]: { body: withFindings } }),
    });
    const findings = await app.screen.findByTestId('document-findings');
    expect(findings.textContent).toContain('Error');
    // In words, as the Document validation screen says them, and the store's own findings too.
    expect(findings.textContent).toContain(
      'Line 3, column 1: The message is not closed by a UNT segment before segment UNZ.',
    );
    expect(findings.textContent).toContain('A document with this number, type and partner was stored before');
    app.unmount();

    const missing = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({
        [`GET /api/documents/${DOC_ID}`]: {
          status: 404,
          body: { error: { code: 'resource.not_found', message: 'x' } },
        },
      }),
    });
    await waitFor(() =>
      expect(missing.screen.getByText('This document does not exist or you may not see it.')).toBeTruthy(),
    );
  });

  it('offers Explain beside the findings of a document in Error to a user with the AI assistant', async () => {
    const stored = {
      code: 'EDI_MISSING_UNT',
      severity: 'error',
      level: 'syntax',
      path: 'UNZ',
      line: 3,
      column: 1,
    } as const;
    const view = (status: 'error' | 'read') =>
      renderApp({
        path: `/documents/${DOC_ID}`,
        session: {
          accessToken: makeAccessToken({ roles: ['chat-ai'] }),
          refreshToken: 'r',
          refreshExpiresAt: Math.floor(Date.now() / 1000) + 1800,
        },
        routes: {
          ...documentsRoutes().routes,
          'GET /api/users/permissions': { body: { permissions: ['INBOX_READ'], toggles: ['CHAT_AI'] } },
          [`GET /api/documents/${DOC_ID}`]: { body: detail({ status, findings: [stored] }) },
          'POST /api/chat/explain': {
            body: {
              conversationId: '3f1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b',
              response: 'Close the message with UNT.',
              responseMessageId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
              sources: [],
              answered: true,
            },
          },
        },
      });
    const read = await view('read');
    await read.screen.findByTestId('document-findings');
    expect(read.screen.queryByTestId('explain-finding')).toBeNull();
    read.unmount();

    const app = await view('error');
    const findings = await app.screen.findByTestId('document-findings');
    await app.user.click(await within(findings).findByTestId('explain-finding'));
    const dialog = await app.screen.findByRole('dialog', { name: 'AI assistant' });
    expect((await within(dialog).findByTestId('chat-answer')).textContent).toContain('Close the message with UNT.');
    expect(within(dialog).getByTestId('chat-question').textContent).toMatch(/Explain: /);
    expect(within(dialog).getByTestId('chat-question').textContent).toContain(
      'The message is not closed by a UNT segment',
    );
    expect(app.api.calls.find((c) => c.path === '/api/chat/explain')?.body).toEqual({
      finding: stored,
      language: 'en',
      conversationId: null,
    });
  });
  it("names a party the message gives only by GLN with the partner's name, links related documents, and leaves out empty references", async () => {
    const base = detail();
    const body = {
      ...base.body,
      references: [],
      parties: [
        { role: 'BY', gln: '4012345000016' },
        { role: 'SU', gln: '5901234000017' },
      ],
    };
    const app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({
        [`GET /api/documents/${DOC_ID}`]: {
          body: {
            ...base,
            body,
            links: [{ documentId: '66666666-6666-4666-8666-666666666666', kind: 'reference', side: 'from' }],
          },
        },
      }),
    });
    const view = await app.screen.findByTestId('document-view');
    expect(within(view).getByTestId('party-BY').textContent).toContain('Demo Retailer');
    const links = within(view).getByTestId('document-links');
    const other = within(links).getByRole('link', { name: 'Document this one refers to' });
    expect(other.getAttribute('href')).toBe('/documents/66666666-6666-4666-8666-666666666666');
    expect(within(view).getByTestId('party-SU').textContent).not.toContain('Demo');
    expect(within(view).queryByRole('heading', { name: 'References' })).toBeNull();
  });

  it("shows an invoice's payment terms, means and the payee's account, and a line's allowances", async () => {
    const base = detail();
    const body = {
      ...base.body,
      parties: [
        { role: 'BY', gln: '4012345000016', name: 'Demo Retailer' },
        {
          role: 'SU',
          gln: '5901234000017',
          name: 'Demo Supplier',
          accounts: [{ qualifier: 'RB', account: 'PL61109010140000071219812874' }],
        },
      ],
      paymentMeans: '30',
      paymentTerms: [
        {
          type: '1',
          timeReference: '5',
          timeRelation: '3',
          periodUnit: 'D',
          periodCount: '30',
          dates: [{ qualifier: '13', type: 'date', value: '2026-12-20' }],
        },
        { type: '22', timeReference: '5', timeRelation: '3', periodUnit: 'D', periodCount: '10', percentage: '2' },
      ],
      lines: [
        {
          lineNumber: '1',
          description: 'Apple juice 1 l',
          quantities: [{ qualifier: '47', value: '10', unit: 'PCE' }],
          prices: [{ qualifier: 'AAB', value: '1.25' }],
          amounts: [{ qualifier: '203', value: '11.25' }],
          allowances: [
            { type: 'allowance', reasonCode: 'DI', percentage: '10', amounts: [{ qualifier: '204', value: '1.25' }] },
          ],
        },
      ],
    };
    const app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({ [`GET /api/documents/${DOC_ID}`]: { body: { ...base, body } } }),
    });
    const payment = await app.screen.findByTestId('document-payment');
    const text = payment.textContent ?? '';
    expect(text).toContain('Payment terms');
    expect(text).toContain('30 days after the invoice date');
    expect(text).toContain('Early payment discount');
    expect(text).toContain('2 % discount');
    expect(text).toContain('Payment means');
    expect(text).toContain('PL61109010140000071219812874');
    expect(app.screen.getByTestId('document-line-allowance').textContent).toBe('Allowance · DI · 10 % · 1.25');
  });

  it("shows an outbox invoice's way to KSeF: its state, the KSeF labels, the Ministry's reasons and the UPO", async () => {
    const invoice = detail({ direction: 'out', documentKind: 'invoice', documentType: 'INVOIC', status: 'sent' });
    const accepted = {
      state: 'accepted',
      ksefNumber: '7010002139-20261116-0123456789AB-2C',
      acquisitionDate: '2026-11-16T10:00:05.000Z',
      sessionReference: '20261116-SO-0000000001-0000000001-01',
      elementReference: '20261116-EE-0000000001-0000000001-02',
      tokenReference: '20261116-AU-0000000001-0000000001-03',
      errorCode: null,
      errorDetails: [],
      hasUpo: true,
      updatedAt: '2026-11-16T10:00:06.000Z',
    };
    let app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({
        [`GET /api/documents/${DOC_ID}`]: { body: invoice },
        [`GET /api/documents/${DOC_ID}/ksef`]: { body: accepted },
      }),
    });
    const panel = await app.screen.findByTestId('ksef-submission');
    expect(within(panel).getByText('Accepted by KSeF')).toBeTruthy();
    expect(within(panel).getByText('KSeF reference number')).toBeTruthy();
    expect(within(panel).getByTestId('ksef-submission-number').textContent).toBe(accepted.ksefNumber);
    expect(within(panel).getByTestId('ksef-submission-session').textContent).toBe(accepted.sessionReference);
    expect(within(panel).getByRole('button', { name: 'Download UPO' })).toBeTruthy();
    app.unmount();

    app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({
        [`GET /api/documents/${DOC_ID}`]: { body: invoice },
        [`GET /api/documents/${DOC_ID}/ksef`]: {
          body: {
            ...accepted,
            state: 'rejected',
            ksefNumber: null,
            hasUpo: false,
            errorCode: 450,
            errorDetails: ['P_2: not expected'],
          },
        },
      }),
    });
    const refused = await app.screen.findByTestId('ksef-submission');
    expect(within(refused).getByText('Refused')).toBeTruthy();
    expect(within(refused).getByTestId('ksef-submission-reasons').textContent).toContain('Reasons (KSeF code 450)');
    expect(within(refused).getByText('P_2: not expected')).toBeTruthy();
    expect(within(refused).queryByRole('button', { name: 'Download UPO' })).toBeNull();
  });

  it('shows every code with its meaning from the directory', async () => {
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes: routesWith() });
    const view = await app.screen.findByTestId('document-view');
    await waitFor(() => expect(within(view).getByTestId('document-name-code').textContent).toBe('220 · Order'));
    const hints = within(view)
      .getAllByTestId('code-hint')
      .map((hint) => hint.textContent);
    expect(hints).toEqual(
      expect.arrayContaining([
        'BY · Buyer',
        'SU · Supplier',
        '137 · Document/message date/time',
        'CT · Contract number',
      ]),
    );
    expect(within(view).getAllByTitle('Piece')[0]?.textContent).toBe('PCE');
  });

  it('shows codes without names when the directory is not imported', async () => {
    const app = await renderApp({
      path: `/documents/${DOC_ID}`,
      session: signedIn(),
      routes: routesWith({
        [`GET /api/documents/${DOC_ID}/codes`]: { body: { directory: null, codeNames: {}, segments: {} } },
      }),
    });
    const view = await app.screen.findByTestId('document-view');
    await waitFor(() => expect(within(view).getByTestId('document-name-code').textContent).toBe('220'));
    expect(within(view).getByText('Document date')).toBeTruthy();
  });

  it('names a segment’s elements on hover and on keyboard focus in the original', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(ORIGINAL)),
    );
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes: routesWith() });
    const view = await app.screen.findByTestId('document-view');
    await waitFor(() => expect(within(view).getByTestId('document-name-code').textContent).toBe('220 · Order'));
    await app.user.click(within(view).getByRole('tab', { name: 'Original' }));
    const original = await within(view).findByTestId('document-original');
    const bgm = original.querySelector<HTMLElement>('[data-element="BGM"]')!;
    await app.user.hover(bgm);
    expect((await within(view).findByRole('tooltip')).textContent).toBe('BGM · BEGINNING OF MESSAGE');
    const code = original.querySelector<HTMLElement>('[data-element="BGM01.1"]')!;
    expect(code.textContent).toBe('220');
    await app.user.hover(code);
    expect(within(view).getByRole('tooltip').textContent).toBe(
      'BGM01.1 · 1001 Document/message name, coded (C002 DOCUMENT/MESSAGE NAME)',
    );
    // The keyboard: one tab stop, the arrow keys move from element to element, the tooltip follows the focus.
    await app.user.unhover(code);
    bgm.focus();
    await app.user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(code);
    expect(within(view).getByRole('tooltip').textContent).toContain('1001 Document/message name, coded');
    expect(code.getAttribute('aria-describedby')).toBe(within(view).getByRole('tooltip').id);
    await app.user.keyboard('{ArrowRight}');
    expect((document.activeElement as HTMLElement).dataset.element).toBe('BGM02');
    expect(within(view).getByRole('tooltip').textContent).toBe('BGM02 · 1004 Document/message number');
  });

  it('downloads the original, offers UTF-8 when the profile’s encoding cannot hold a character, and the PDF', async () => {
    const calls: string[] = [];
    const unencodable = {
      error: {
        code: 'documents.unencodable',
        message: 'x',
        details: [
          {
            field: 'encoding',
            code: 'unencodable',
            params: { encoding: 'iso-8859-1', character: 'ł', codePoint: 'U+0142', line: 3, column: 9 },
          },
        ],
      },
      requestId: 'r',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(url);
        if (url === `/api/documents/${DOC_ID}/original`) return Response.json(unencodable, { status: 422 });
        if (url.includes('/pdf?'))
          return new Response('%PDF-1.3', { headers: { 'content-disposition': 'attachment; filename="a.pdf"' } });
        return new Response(ORIGINAL, { headers: { 'content-disposition': 'attachment; filename="ORDERS_x.edi"' } });
      }),
    );
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes: routesWith() });
    const view = await app.screen.findByTestId('document-view');
    await app.user.click(within(view).getByRole('button', { name: 'Download' }));
    await app.user.click(await app.screen.findByRole('menuitem', { name: "Original file (your profile's encoding)" }));
    const alert = await app.screen.findByTestId('unencodable-text');
    expect(alert.textContent).toBe(
      'The character “ł” (U+0142) at line 3, column 9 does not exist in the encoding iso-8859-1.',
    );
    await app.user.click(app.screen.getByRole('button', { name: 'Download as UTF-8 instead' }));
    await waitFor(() => expect(saved).toEqual(['ORDERS_x.edi']));
    expect(calls).toContain(`/api/documents/${DOC_ID}/original?encoding=utf-8`);

    await app.user.click(within(view).getByRole('button', { name: 'Download' }));
    await app.user.click(await app.screen.findByRole('menuitem', { name: 'PDF' }));
    await waitFor(() => expect(saved).toEqual(['ORDERS_x.edi', 'a.pdf']));
    expect(calls).toContain(`/api/documents/${DOC_ID}/pdf?language=en&purpose=download`);
    click.mockRestore();
  });

  it('splits an original at segment terminators, keeping released ones', () => {
    expect(splitSegments("UNA:+.? 'UNB+A'FTX+AAI+++It?'s'\nUNZ+1'")).toEqual([
      "UNA:+.? '",
      "UNB+A'",
      "FTX+AAI+++It?'s'",
      "UNZ+1'",
    ]);
    expect(splitSegments("UNH+1'\r\nBGM+220'")).toEqual(["UNH+1'", "BGM+220'"]);
  });

  it('sums line amounts as decimals', () => {
    const line = (value: string) => ({
      quantities: [],
      prices: [],
      amounts: [{ qualifier: '203', value }],
      allowances: [],
    });
    expect(sumOfLineAmounts([line('0.10'), line('0.20')])).toBe('0.30');
    expect(sumOfLineAmounts([line('1'), line('-2.5')])).toBe('-1.5');
    expect(sumOfLineAmounts([])).toBeUndefined();
  });
});
