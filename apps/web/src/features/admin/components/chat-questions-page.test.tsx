import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminChatItem } from '@portal/contracts';
import { currentHref, renderApp } from '../../../test/render-app.tsx';
import { adminSession } from '../admin-test-data.ts';

function item(overrides: Partial<AdminChatItem> = {}): AdminChatItem {
  return {
    messageId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    conversationId: '3f1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    askedAt: '2026-11-20T09:30:00.000Z',
    userEmail: 'user@demo.example.com',
    companyName: 'Demo Retailer',
    question: 'How do I validate a document?',
    response: 'Open Document validation and press Validate.',
    answered: true,
    model: 'extractive-1',
    sources: [
      { articleId: 'document-validation', title: 'Document validation', url: '/help?article=document-validation' },
    ],
    feedback: { isPositive: false, comment: 'No example', at: '2026-11-20T09:31:00.000Z' },
    ...overrides,
  };
}

describe('AI assistant questions (admin)', () => {
  it('lists question, answer, sources, model, feedback and comment, and filters by negative feedback and no answer', async () => {
    const unanswered = item({
      messageId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
      question: 'Weather tomorrow?',
      response: 'I found nothing in the help about that.',
      answered: false,
      sources: [],
      feedback: null,
    });
    const app = await renderApp({
      path: '/admin/chat',
      session: adminSession(),
      routes: {
        'GET /api/admin/chat': ({ url }) => {
          const query = new URL(url, 'http://localhost').searchParams;
          const items = [item(), unanswered].filter(
            (i) =>
              (query.get('feedback') !== 'negative' || i.feedback?.isPositive === false) &&
              (query.get('unanswered') !== 'true' || !i.answered),
          );
          return { body: { items, nextCursor: null } };
        },
      },
    });
    const table = await app.screen.findByRole('table', { name: 'AI assistant questions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Asked', 'Question', 'Answer', 'Sources', 'Model', 'Feedback', 'Comment', 'From']);
    const first = within(table).getByText('How do I validate a document?').closest('tr')!;
    expect(within(first).getByText('Document validation')).toBeTruthy();
    expect(within(first).getByText('extractive-1')).toBeTruthy();
    expect(within(first).getByText('Not helpful')).toBeTruthy();
    expect(within(first).getByText('No example')).toBeTruthy();
    const second = within(table).getByText('Weather tomorrow?').closest('tr')!;
    expect(within(second).getByTestId('chat-no-answer').textContent).toBe('No answer found');
    expect(within(second).getByText('No feedback')).toBeTruthy();
    expect(app.screen.getByRole('link', { name: 'AI assistant' }).getAttribute('aria-current')).toBe('page');

    await app.user.click(app.screen.getByRole('combobox', { name: 'Feedback' }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Negative' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/admin/chat?feedback=negative'));
    await waitFor(() => expect(within(table).queryByText('Weather tomorrow?')).toBeNull());

    // Negative chosen again clears it: all feedback, only what found no answer.
    await app.user.click(app.screen.getByRole('combobox', { name: 'Feedback' }));
    await app.user.click(await app.screen.findByRole('option', { name: 'Negative' }));
    await waitFor(() => expect(currentHref(app.router)).toBe('/admin/chat'));
    await app.user.click(app.screen.getByRole('checkbox', { name: 'No answer found' }));
    await waitFor(() => expect(within(table).queryByText('How do I validate a document?')).toBeNull());
    expect(within(table).getByText('Weather tomorrow?')).toBeTruthy();
    expect(currentHref(app.router)).toBe('/admin/chat?unanswered=true');
  });
});
