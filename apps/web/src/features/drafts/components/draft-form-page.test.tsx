import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  emptyDraftForm,
  FEATURE_PERMISSIONS,
  type Draft,
  type DraftCheck,
  type DraftForm,
  type FeaturePermission,
} from '@portal/contracts';
import type { StoredSession } from '../../../app/session/session.ts';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const ALL: FeaturePermission[] = [...FEATURE_PERMISSIONS];
const ID = '66666666-6666-4666-8666-666666666666';
const PARTNER = '77777777-7777-4777-8777-777777777777';

function signedIn(): StoredSession {
  const exp = Math.floor(Date.now() / 1000) + 300;
  return { accessToken: makeAccessToken({ exp, roles: [] }), refreshToken: 'refresh-1', refreshExpiresAt: exp + 1500 };
}

function draft(over: Partial<Draft> = {}, form: Partial<DraftForm> = {}): Draft {
  return {
    id: ID,
    kind: 'invoice',
    state: 'draft',
    version: 1,
    partnerId: PARTNER,
    partnerName: 'Demo Retailer',
    sourceDocumentId: null,
    sentDocumentId: null,
    form: {
      ...emptyDraftForm(),
      documentDate: '2026-11-20',
      currency: 'PLN',
      buyer: { ...emptyDraftForm().buyer, gln: '4012345000016', name: 'Demo Retailer' },
      supplier: { ...emptyDraftForm().supplier, gln: '5901234000017', name: 'Demo Supplier' },
      lines: [1, 2, 3].map(() => ({
        ...emptyDraftForm().lines[0]!,
        gtin: '',
        buyerArticleNumber: '',
        supplierArticleNumber: '',
        description: 'Gift basket',
        quantity: '1',
        expectedQuantity: '',
        unit: 'PCE',
        price: '10.15',
        vatRate: '23',
        orderLineNumber: '',
        packageNumber: '',
      })),
      ...form,
    },
    vatAlgorithm: 'lines',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

function routes(extra: Record<string, MockHandler | MockReply> = {}, value: Draft = draft()) {
  return {
    'GET /api/users/permissions': { body: { permissions: ALL, toggles: [] } },
    [`GET /api/drafts/${ID}`]: { body: value },
    'GET /api/drafts/kinds': {
      body: { kinds: [{ kind: 'invoice', partners: [{ id: PARTNER, name: 'Demo Retailer', gln: '4012345000016' }] }] },
    },
    'GET /api/products': { body: { items: [], nextCursor: null } },
    ...extra,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the draft form', () => {
  it("totals an invoice by the user's VAT algorithm as it is typed: per line 37.44, per rate 37.45", async () => {
    const app = await renderApp({ path: `/drafts/${ID}`, session: signedIn(), routes: routes() });
    expect(await app.screen.findByTestId('draft-gross')).toHaveProperty('textContent', '37.44 PLN');
    app.unmount();
    const summary = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({}, draft({ vatAlgorithm: 'invoice-summary' })),
    });
    expect(await summary.screen.findByTestId('draft-gross')).toHaveProperty('textContent', '37.45 PLN');
  });

  it('saves what is typed over the version it read, then Check shows the problems at their fields', async () => {
    const saved: unknown[] = [];
    const check: DraftCheck = {
      ok: false,
      problems: [{ field: 'number', code: 'required' }],
      findings: [],
      omitted: [],
      edifact: null,
      messageType: 'INVOIC',
      directory: null,
    };
    const app = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({
        [`PUT /api/drafts/${ID}`]: ({ body }) => {
          saved.push(body);
          return { body: draft({ version: 2 }, (body as { form: DraftForm }).form) };
        },
        [`POST /api/drafts/${ID}/check`]: { body: check },
      }),
    });
    const line = await app.screen.findByTestId('draft-line-0');
    fireEvent.change(within(line).getByTestId('draft-line-0-quantity'), { target: { value: '2' } });
    await waitFor(() => expect(app.screen.getByTestId('draft-save-state').textContent).toBe('All changes saved'), {
      timeout: 4000,
    });
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ version: 1, partnerId: PARTNER, form: { lines: [{ quantity: '2' }, {}, {}] } });

    fireEvent.click(app.screen.getByTestId('draft-check'));
    expect(
      await app.screen.findByText('The document has errors. Correct the fields marked and check again.'),
    ).toBeTruthy();
    expect(app.screen.getByText('Document number: This field is required', { exact: false })).toBeTruthy();
    await waitFor(() => expect(app.screen.getByTestId('draft-number').getAttribute('aria-invalid')).toBe('true'));
  });

  it('a sent draft is read-only, with its document and a copy offered', async () => {
    const app = await renderApp({
      path: `/drafts/${ID}`,
      session: signedIn(),
      routes: routes({}, draft({ state: 'sent', sentDocumentId: '88888888-8888-4888-8888-888888888888' })),
    });
    expect(await app.screen.findByTestId('draft-sent')).toBeTruthy();
    expect(app.screen.queryByTestId('draft-send')).toBeNull();
    expect(app.screen.getByRole('link', { name: 'Open the sent document' })).toBeTruthy();
    expect(app.screen.getByRole('button', { name: 'Copy to a new draft' })).toBeTruthy();
  });
});
