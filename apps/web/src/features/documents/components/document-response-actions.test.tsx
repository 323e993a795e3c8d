import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DocumentDetail, FeaturePermission } from '@portal/contracts';
import { FEATURE_PERMISSIONS } from '@portal/contracts';
import { renderApp } from '../../../test/render-app.tsx';
import { DOC_ID, detail, documentsRoutes, signedIn } from '../documents-test-data.ts';

const ANSWERED = {
  status: 409,
  body: { error: { code: 'documents.already_answered', message: 'x' }, requestId: 'r' },
};

function setup(options: { doc?: Partial<DocumentDetail>; permissions?: FeaturePermission[]; answer?: unknown } = {}) {
  const sent: unknown[] = [];
  const { routes } = documentsRoutes(options.permissions ? { permissions: options.permissions } : {});
  return {
    sent,
    routes: {
      ...routes,
      [`GET /api/documents/${DOC_ID}`]: { body: detail(options.doc) },
      [`POST /api/documents/${DOC_ID}/response`]: ({ body }: { body: unknown }) => {
        sent.push(body);
        return (options.answer as object | undefined) ?? { body: { decision: 'accept', responseDocumentId: 'a' } };
      },
    },
  };
}

describe('answering a received document', () => {
  it('accepts with one click and says so', async () => {
    const { routes, sent } = setup();
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes });
    const group = await app.screen.findByRole('group', { name: 'Answer to the sender' });
    await app.user.click(within(group).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(sent).toEqual([{ decision: 'accept' }]));
    expect(await app.screen.findByText('Accepted. The sender has been notified.')).toBeTruthy();
  });

  it('rejects with a reason typed in a dialog, by keyboard; the reason is required and counted', async () => {
    const { routes, sent } = setup();
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes });
    const reject = await app.screen.findByRole('button', { name: 'Reject…' });
    reject.focus();
    await app.user.keyboard('{Enter}');
    const dialog = await app.screen.findByRole('dialog', { name: 'Reject the document' });
    const reason = within(dialog).getByRole('textbox', { name: /Reason for the rejection/ });
    await waitFor(() => expect(document.activeElement).toBe(reason));
    await app.user.click(within(dialog).getByRole('button', { name: 'Reject and notify the sender' }));
    expect(await within(dialog).findByText('Enter the reason for the rejection.')).toBeTruthy();
    expect(sent).toEqual([]);

    await app.user.type(reason, 'Wrong prices');
    expect(within(dialog).getByTestId('response-counter').textContent).toBe('12 / 350');
    await app.user.click(within(dialog).getByRole('button', { name: 'Reject and notify the sender' }));
    await waitFor(() => expect(sent).toEqual([{ decision: 'reject', reason: 'Wrong prices' }]));
    expect(await app.screen.findByText('Rejected. The sender has been notified.')).toBeTruthy();
  }, 20_000);

  it('shows the 409 of a document answered meanwhile', async () => {
    const { routes } = setup({ answer: ANSWERED });
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes });
    await app.user.click(await app.screen.findByRole('button', { name: 'Accept' }));
    expect(
      await app.screen.findByText(
        'This document has been answered already (accepted or rejected). It can be answered only once.',
      ),
    ).toBeTruthy();
  });

  it('is disabled once answered, and the history says how', async () => {
    const answered = detail().history.concat({
      field: 'response',
      from: null,
      to: 'rejected',
      userId: 'u',
      at: '2026-11-20T12:00:00.000Z',
      reason: 'Wrong prices',
    });
    const { routes } = setup({ doc: { history: answered } });
    const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes });
    expect((await app.screen.findByRole('button', { name: 'Accept' })).hasAttribute('disabled')).toBe(true);
    expect(app.screen.getByRole('button', { name: 'Reject…' }).hasAttribute('disabled')).toBe(true);
    expect(app.screen.getByTestId('document-answered').textContent).toBe('You rejected this document.');
    expect(app.screen.getByTestId('document-history').textContent).toContain('12:00 Rejected (Wrong prices)');
  });

  it('is not offered without inbox modify, on an outbox document or a kind that has no answer', async () => {
    const readOnly = FEATURE_PERMISSIONS.filter((p) => p !== 'INBOX_MODIFY');
    for (const options of [
      { permissions: readOnly },
      { doc: { direction: 'out' as const } },
      { doc: { documentKind: 'price_catalogue' } },
    ]) {
      const { routes } = setup(options);
      const app = await renderApp({ path: `/documents/${DOC_ID}`, session: signedIn(), routes });
      await app.screen.findByTestId('document-view');
      expect(app.screen.queryByRole('group', { name: 'Answer to the sender' })).toBeNull();
      app.unmount();
    }
  });
});
