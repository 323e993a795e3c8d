import { notifications } from '@mantine/notifications';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHAT_HISTORY_MAX_ELEMENTS,
  type ChatAnswer,
  type FeatureToggle,
  type ValidateEdifactResponse,
} from '@portal/contracts';
import type { MockHandler, MockReply } from '../../../test/fetch-mock.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const EMAIL = 'User@Demo.example.com';
const HISTORY_KEY = createHash('sha256').update(EMAIL.toLowerCase()).digest('hex');
const CONVERSATION = '3f1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const MESSAGE_1 = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const MESSAGE_2 = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';

const inFiveMinutes = () => Math.floor(Date.now() / 1000) + 300;

function answer(overrides: Partial<ChatAnswer> = {}): ChatAnswer {
  return {
    conversationId: CONVERSATION,
    response: 'Open Document validation, paste the message and press Validate.',
    responseMessageId: MESSAGE_1,
    sources: [
      { articleId: 'document-validation', title: 'Document validation', url: '/help?article=document-validation' },
    ],
    answered: true,
    ...overrides,
  };
}

/** A reply the test sends when it wants: the waiting state can be looked at meanwhile. */
function deferred() {
  let resolve: (reply: MockReply) => void = () => {};
  const promise = new Promise<MockReply>((r) => {
    resolve = r;
  });
  return { handler: (() => promise) as MockHandler, resolve };
}

type Options = {
  roles?: string[];
  toggles?: FeatureToggle[];
  path?: string;
  routes?: Record<string, MockHandler | MockReply>;
};

async function render({
  roles = ['chat-ai'],
  toggles = ['CHAT_AI'],
  path = '/documents/in',
  routes = {},
}: Options = {}) {
  const app = await renderApp({
    path,
    session: {
      accessToken: makeAccessToken({ exp: inFiveMinutes(), email: EMAIL, roles }),
      refreshToken: 'r',
      refreshExpiresAt: inFiveMinutes() + 1500,
    },
    routes: {
      'GET /api/users/permissions': {
        body: { permissions: ['INBOX_READ', 'DOCUMENT_VALIDATION_READ', 'DOCUMENT_VALIDATION_CREATE'], toggles },
      },
      'POST /api/chat/question': { body: answer() },
      'POST /api/chat/feedback': { body: 'OK', headers: { 'Content-Type': 'text/plain' } },
      ...routes,
    },
  });
  await app.screen.findByTestId('nav-inbox');
  return app;
}

type App = Awaited<ReturnType<typeof render>>;

async function openChat(app: App) {
  await app.user.click(await app.screen.findByRole('button', { name: 'AI assistant' }));
  return app.screen.findByRole('dialog', { name: 'AI assistant' });
}

async function ask(app: App, question: string) {
  const dialog = await openChat(app);
  await app.user.type(within(dialog).getByRole('textbox', { name: /Your question/ }), question);
  await app.user.keyboard('{Enter}');
  return dialog;
}

const calls = (app: App, path: string) => app.api.calls.filter((c) => c.path === path);

afterEach(() => {
  notifications.clean();
});

describe('chat assistant', () => {
  it('shows the button only with the chat-ai role and the CHAT_AI toggle', async () => {
    const both = await render();
    expect(await both.screen.findByRole('button', { name: 'AI assistant' })).toBeTruthy();
    both.unmount();

    const noToggle = await render({ toggles: [] });
    await noToggle.screen.findByTestId('nav-inbox');
    expect(noToggle.screen.queryByRole('button', { name: 'AI assistant' })).toBeNull();
    noToggle.unmount();

    const noRole = await render({ roles: [] });
    await noRole.screen.findByTestId('nav-inbox');
    expect(noRole.screen.queryByRole('button', { name: 'AI assistant' })).toBeNull();
  });

  it('asks: typing indicator and a disabled input while waiting, then the answer, its sources and the feedback question', async () => {
    const reply = deferred();
    const app = await render({ routes: { 'POST /api/chat/question': reply.handler } });
    const dialog = await ask(app, 'How do I validate a document?');

    expect(await within(dialog).findByRole('status', { name: 'The AI assistant is writing an answer…' })).toBeTruthy();
    const input = within(dialog).getByRole('textbox', { name: /Your question/ }) as HTMLTextAreaElement;
    expect(input.disabled).toBe(true);
    expect(within(dialog).getByTestId('chat-question').textContent).toContain('How do I validate a document?');
    expect(calls(app, '/api/chat/question')[0]?.body).toEqual({
      question: 'How do I validate a document?',
      labels: ['portal-help-en', 'portal-help-pl'],
      conversationId: null,
    });

    reply.resolve({ body: answer() });
    const answered = await within(dialog).findByTestId('chat-answer');
    expect(answered.textContent).toContain('paste the message and press Validate');
    expect(within(answered).getByRole('link', { name: 'Document validation' })).toBeTruthy();
    expect(within(dialog).getByText('Was this information helpful?')).toBeTruthy();
    expect(within(dialog).queryByTestId('chat-typing')).toBeNull();
    await waitFor(() => expect(input.disabled).toBe(false));
    expect(input.value).toBe('');
    // Announced to screen readers, politely.
    expect(app.screen.getByTestId('chat-announcer').getAttribute('aria-live')).toBe('polite');
    expect(app.screen.getByTestId('chat-announcer').textContent).toContain('press Validate');
    // The conversation goes on.
    await app.user.type(input, 'And then?');
    await app.user.click(within(dialog).getByRole('button', { name: 'Send question' }));
    await waitFor(() => expect(calls(app, '/api/chat/question')).toHaveLength(2));
    expect(calls(app, '/api/chat/question')[1]?.body).toMatchObject({ conversationId: CONVERSATION });
  });

  it('shows an answer that found nothing as it comes', async () => {
    const app = await render({
      routes: {
        'POST /api/chat/question': {
          body: answer({ answered: false, sources: [], response: 'I found nothing in the help about that.' }),
        },
      },
    });
    const dialog = await ask(app, 'Weather tomorrow?');
    const answered = await within(dialog).findByTestId('chat-answer');
    expect(answered.textContent).toContain('I found nothing in the help about that.');
    expect(within(answered).queryByTestId('chat-sources')).toBeNull();
  });

  it('keeps Shift+Enter as a new line, and Escape closes the window and returns the focus to the button', async () => {
    const app = await render();
    const dialog = await openChat(app);
    const input = within(dialog).getByRole('textbox', { name: /Your question/ }) as HTMLTextAreaElement;
    await waitFor(() => expect(document.activeElement).toBe(input));
    await app.user.type(input, 'one{Shift>}{Enter}{/Shift}two');
    expect(input.value).toBe('one\ntwo');
    expect(calls(app, '/api/chat/question')).toHaveLength(0);
    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(app.screen.queryByRole('dialog', { name: 'AI assistant' })).toBeNull());
    expect(document.activeElement).toBe(app.screen.getByRole('button', { name: 'AI assistant' }));
  });

  it('asks for a question when the input is empty', async () => {
    const app = await render();
    const dialog = await openChat(app);
    await app.user.type(within(dialog).getByRole('textbox', { name: /Your question/ }), '   ');
    await app.user.click(within(dialog).getByRole('button', { name: 'Send question' }));
    expect(await within(dialog).findByText('Please type a question.')).toBeTruthy();
    expect(calls(app, '/api/chat/question')).toHaveLength(0);
  });

  it('takes one feedback per answer: Yes is sent and the buttons are gone', async () => {
    const app = await render();
    const dialog = await ask(app, 'How do I validate a document?');
    await within(dialog).findByTestId('chat-answer');
    await app.user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await within(dialog).findByTestId('chat-feedback-sent')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Yes' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'No' })).toBeNull();
    expect(calls(app, '/api/chat/feedback').map((c) => c.body)).toEqual([{ messageId: MESSAGE_1, isPositive: true }]);
  });

  it('asks for a comment after No and sends it with the feedback', async () => {
    const app = await render();
    const dialog = await ask(app, 'How do I validate a document?');
    await within(dialog).findByTestId('chat-answer');
    await app.user.click(within(dialog).getByRole('button', { name: 'No' }));
    await app.user.type(within(dialog).getByRole('textbox', { name: 'What was missing? (optional)' }), 'No example');
    await app.user.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    expect(await within(dialog).findByTestId('chat-feedback-sent')).toBeTruthy();
    expect(calls(app, '/api/chat/feedback').map((c) => c.body)).toEqual([
      { messageId: MESSAGE_1, isPositive: false, comment: 'No example' },
    ]);
  });

  it('locks the feedback buttons while sending and brings them back when it fails', async () => {
    const reply = deferred();
    const app = await render({ routes: { 'POST /api/chat/feedback': reply.handler } });
    const dialog = await ask(app, 'How do I validate a document?');
    await within(dialog).findByTestId('chat-answer');
    await app.user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() =>
      expect((within(dialog).getByRole('button', { name: 'No' }) as HTMLButtonElement).disabled).toBe(true),
    );
    reply.resolve({ status: 503, body: { error: { code: 'server.unavailable', message: 'down' } } });
    expect(
      await app.screen.findByText('The AI assistant is temporarily unavailable. Please try again later.'),
    ).toBeTruthy();
    expect(app.screen.getByText('Error')).toBeTruthy();
    await waitFor(() =>
      expect((within(dialog).getByRole('button', { name: 'Yes' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(within(dialog).queryByTestId('chat-feedback-sent')).toBeNull();
  });

  it('reverts a failed question: the question stays in the input and the Error notification says so', async () => {
    const app = await render({
      routes: {
        'POST /api/chat/question': { status: 503, body: { error: { code: 'server.unavailable', message: 'down' } } },
      },
    });
    const dialog = await ask(app, 'How do I validate a document?');
    expect(
      await app.screen.findByText('The AI assistant is temporarily unavailable. Please try again later.'),
    ).toBeTruthy();
    expect(app.screen.getByText('Error')).toBeTruthy();
    const input = within(dialog).getByRole('textbox', { name: /Your question/ }) as HTMLTextAreaElement;
    await waitFor(() => expect(input.disabled).toBe(false));
    expect(input.value).toBe('How do I validate a document?');
    expect(within(dialog).queryByTestId('chat-question')).toBeNull();
    expect(within(dialog).queryByTestId('chat-typing')).toBeNull();
    // The chat's own notification, not the client's 'Error 503' as well.
    expect(app.onErrorToast).not.toHaveBeenCalled();
  });

  it('keeps the history under the SHA-256 of the lower-cased e-mail, shows it after a reload, and clears it', async () => {
    const app = await render();
    const dialog = await ask(app, 'How do I validate a document?');
    await within(dialog).findByTestId('chat-answer');
    await app.user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await within(dialog).findByTestId('chat-feedback-sent');
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem(HISTORY_KEY) ?? 'null')).toEqual({
        conversationId: CONVERSATION,
        elements: [
          { isResponseMessage: false, value: 'How do I validate a document?' },
          {
            isResponseMessage: true,
            value: answer().response,
            messageId: MESSAGE_1,
            sources: answer().sources,
            answered: true,
          },
          { responseMessageId: MESSAGE_1, wasFeedbackSent: true, wasFeedbackPositive: true },
        ],
      }),
    );
    app.unmount();

    const again = await render();
    const reopened = await openChat(again);
    expect((await within(reopened).findByTestId('chat-question')).textContent).toContain('How do I validate');
    expect(within(reopened).getByTestId('chat-answer').textContent).toContain('press Validate');
    expect(within(reopened).getByTestId('chat-feedback-sent')).toBeTruthy();
    await again.user.click(within(reopened).getByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(within(reopened).queryByTestId('chat-answer')).toBeNull());
    expect(window.localStorage.getItem(HISTORY_KEY)).toBeNull();
  });

  it(`keeps at most ${CHAT_HISTORY_MAX_ELEMENTS} elements, the oldest dropped`, async () => {
    const old = Array.from({ length: CHAT_HISTORY_MAX_ELEMENTS }, (_, i) => ({
      isResponseMessage: false,
      value: `old question ${i}`,
    }));
    window.localStorage.setItem(HISTORY_KEY, JSON.stringify({ conversationId: CONVERSATION, elements: old }));
    const app = await render({
      routes: { 'POST /api/chat/question': { body: answer({ responseMessageId: MESSAGE_2 }) } },
    });
    const dialog = await ask(app, 'Newest question');
    await within(dialog).findByTestId('chat-answer');
    await waitFor(() => {
      const stored = JSON.parse(window.localStorage.getItem(HISTORY_KEY) ?? '{}') as { elements: { value?: string }[] };
      expect(stored.elements).toHaveLength(CHAT_HISTORY_MAX_ELEMENTS);
      expect(stored.elements[0]?.value).toBe('old question 3');
      expect(stored.elements.at(-3)?.value).toBe('Newest question');
    });
  });

  it('opens the help dialog at the article of a source', async () => {
    const app = await render();
    const dialog = await ask(app, 'How do I validate a document?');
    const answered = await within(dialog).findByTestId('chat-answer');
    await app.user.click(within(answered).getByRole('link', { name: 'Document validation' }));
    const help = await app.screen.findByRole('dialog', { name: 'Help' });
    expect(app.router.state.location.search).toMatchObject({ help: 'open', article: 'document-validation' });
    expect(app.router.state.location.maskedLocation?.pathname).toBe('/help');
    const article = await within(help).findByTestId('help-article-document-validation');
    await waitFor(() => expect(within(article).getByRole('button').getAttribute('aria-expanded')).toBe('true'));
  });
});

describe('Explain', () => {
  const finding: ValidateEdifactResponse['findings'][number] = {
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
  };
  const validation: ValidateEdifactResponse = {
    ok: false,
    messages: [
      {
        reference: '1',
        type: 'ORDERS',
        version: 'D96A',
        association: 'EAN008',
        documentNumber: 'PO12345',
        line: 3,
        status: 'error',
      },
    ],
    findings: [finding],
    summary: { errors: 1, warnings: 0, errorLevel: 'map', truncated: false },
  };

  async function validate(options: Options) {
    const app = await renderApp({
      path: '/document-validation',
      session: {
        accessToken: makeAccessToken({ exp: inFiveMinutes(), email: EMAIL, roles: options.roles ?? ['chat-ai'] }),
        refreshToken: 'r',
        refreshExpiresAt: inFiveMinutes() + 1500,
      },
      routes: {
        'GET /api/users/permissions': {
          body: {
            permissions: ['DOCUMENT_VALIDATION_READ', 'DOCUMENT_VALIDATION_CREATE'],
            toggles: options.toggles ?? ['CHAT_AI'],
          },
        },
        'POST /api/validation/edifact': { body: validation },
        'POST /api/chat/explain': { body: answer({ response: 'The code 999 is not in the code list.' }) },
      },
    });
    fireEvent.change(await app.screen.findByLabelText('Document content'), { target: { value: 'UNA:+.? ' } });
    await app.user.click(app.screen.getByRole('button', { name: 'Validate' }));
    await app.screen.findByTestId('findings-table');
    return app;
  }

  it('sends the finding and the language, and answers in the chat window', async () => {
    const app = await validate({});
    const row = app.screen.getByTestId('finding-row');
    const text = within(row).getByTestId('finding-message').textContent ?? '';
    await app.user.click(within(row).getByRole('button', { name: `Explain: ${text}` }));
    const dialog = await app.screen.findByRole('dialog', { name: 'AI assistant' });
    expect((await within(dialog).findByTestId('chat-answer')).textContent).toContain('not in the code list');
    expect(within(dialog).getByTestId('chat-question').textContent).toContain(`Explain: ${text}`);
    expect(app.api.calls.find((c) => c.path === '/api/chat/explain')?.body).toEqual({
      finding: {
        code: 'EDI_INVALID_CODE',
        severity: 'error',
        level: 'map',
        path: 'BGM[1]/C002/1001',
        fieldName: 'Document/message name, coded',
        expected: '220, 221',
        actual: '999',
        line: 4,
        column: 5,
        params: { element: 'C002/1001', codes: '220,221' },
      },
      language: 'en',
      conversationId: null,
    });
    // The row was not selected by the button's click.
    expect(row.getAttribute('data-selected')).toBeNull();
  });

  it('is not offered without the assistant', async () => {
    const app = await validate({ toggles: [] });
    expect(within(app.screen.getByTestId('finding-row')).queryByTestId('explain-finding')).toBeNull();
  });
});
