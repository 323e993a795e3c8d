import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_QUESTION_MAX_LENGTH } from '@portal/contracts';
import { bearer, createTestApp, login, type TestApp } from './helper.ts';

const ADMIN = { login: 'admin@demo.example.com', password: 'Admin#Demo2026' };
const CLERK = { login: 'clerk@demo.example.com', password: 'Clerk#Demo2026' };
const BUYER = { login: 'buyer@demo.example.com', password: 'Buyer#Demo2026' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const EN = ['portal-help-en'];

type Answer = {
  conversationId: string;
  response: string;
  responseMessageId: string;
  sources: { articleId: string; title: string; url: string }[];
  answered: boolean;
};

let t: TestApp;
let user: string;
let buyer: string;
let clerk: string;
let admin: string;

function post(url: string, token: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });
}
const ask = (token: string, question: string, extra: Record<string, unknown> = {}) =>
  post('/api/chat/question', token, { question, labels: EN, ...extra });
const fields = (res: { json(): { error?: { details?: { field: string; code: string }[] } } }) =>
  (res.json().error?.details ?? []).map((d) => `${d.field}:${d.code}`);

beforeAll(async () => {
  // Each test moves the clock a minute on (below): the access tokens must outlive the file.
  t = await createTestApp({ accessTtlSeconds: 3600 });
  const tokens = await Promise.all(
    [undefined, BUYER, CLERK, ADMIN].map(async (c) => (await login(t.app, c)).access_token),
  );
  [user, buyer, clerk, admin] = tokens as [string, string, string, string];
});
afterAll(async () => {
  await t?.close();
});
// Each test starts a new minute, so the rate limit of one never reaches into another.
beforeEach(() => t.clock.advance(61));

describe('POST /api/chat/question', () => {
  it('answers from the help articles, quoting the passages under their titles, with the sources', async () => {
    const res = await ask(user, 'How do I invite a new colleague?');
    expect(res.statusCode).toBe(200);
    const answer = res.json<Answer>();
    expect(answer.answered).toBe(true);
    expect(answer.sources[0]).toEqual({
      articleId: 'user-management',
      title: 'Users, groups and restrictions',
      url: '/help?article=user-management',
    });
    expect(answer.response).toContain('From the help article “Users, groups and restrictions”:');
    expect(answer.response).toContain('invite a colleague by e-mail');
    expect(answer.conversationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.responseMessageId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers from the Polish collection in Polish wording for a Polish question and label', async () => {
    const setLanguage = (language: string) =>
      t.app.inject({ method: 'POST', url: '/api/users/setLanguage', headers: bearer(buyer), payload: { language } });
    expect((await setLanguage('pl')).statusCode).toBe(200);
    try {
      const res = await ask(buyer, 'Jak zmienić hasło?', { labels: ['portal-help-pl', 'portal-help-en'] });
      const answer = res.json<Answer>();
      expect(answer.answered).toBe(true);
      expect(answer.sources.map((s) => s.articleId)).toContain('profile');
      expect(answer.response).toMatch(/^Z artykułu pomocy „/);
      const missed = (await ask(buyer, 'Przepis na ciasto czekoladowe', { labels: ['portal-help-pl'] })).json<Answer>();
      expect(missed.answered).toBe(false);
      expect(missed.response).toMatch(/^Nie znalazłem w pomocy nic na ten temat/);
    } finally {
      await setLanguage('en');
    }
  });

  it('continues a conversation by its id, and a follow-up is read with the question before', async () => {
    const first = (await ask(user, 'How do I send an invoice to KSeF?')).json<Answer>();
    expect(first.sources[0]?.articleId).toBe('e-invoicing');
    const next = await ask(user, 'Can I undo it?', { conversationId: first.conversationId });
    expect(next.statusCode).toBe(200);
    const answer = next.json<Answer>();
    expect(answer.conversationId).toBe(first.conversationId);
    expect(answer.responseMessageId).not.toBe(first.responseMessageId);
    expect(answer.sources.map((s) => s.articleId)).toContain('e-invoicing');
  });

  it("refuses another user's conversation, and an unknown one, as not found", async () => {
    const mine = (await ask(user, 'How do I add a trading partner?')).json<Answer>();
    const other = await ask(buyer, 'Tell me more', { conversationId: mine.conversationId });
    expect(other.statusCode).toBe(404);
    expect((await ask(user, 'Partners?', { conversationId: UNKNOWN })).statusCode).toBe(404);
  });

  it('says plainly that nothing was found, without sources, instead of guessing', async () => {
    const res = await ask(user, 'What is the best recipe for a chocolate cake?');
    const answer = res.json<Answer>();
    expect(answer.answered).toBe(false);
    expect(answer.sources).toEqual([]);
    expect(answer.response).toMatch(/^I found nothing in the help about that/);
  });

  it('refuses an empty or too long question, and an unknown label, with the field', async () => {
    const empty = await ask(user, '   ');
    expect(empty.statusCode).toBe(400);
    expect(fields(empty)).toEqual(['question:required']);
    const long = await ask(user, 'x'.repeat(CHAT_QUESTION_MAX_LENGTH + 1));
    expect(long.statusCode).toBe(400);
    expect(fields(long)).toEqual(['question:tooLong']);
    const label = await ask(user, 'Partners', { labels: ['elsewhere'] });
    expect(label.statusCode).toBe(400);
    expect(fields(label)).toEqual(['labels.0:oneOf']);
  });

  it('is refused without the role chat-ai, and without the company toggle CHAT_AI', async () => {
    const withoutRole = await ask(clerk, 'How do I invite a user?');
    expect(withoutRole.statusCode).toBe(403);
    expect(withoutRole.json().error.code).toBe('auth.forbidden');
    // The platform admin has neither.
    expect((await ask(admin, 'How do I invite a user?')).statusCode).toBe(403);

    const companies = await t.app.inject({
      url: '/api/admin/companies?search=Demo%20Retailer',
      headers: bearer(admin),
    });
    const retailer = companies.json().items.find((c: { name: string }) => c.name === 'Demo Retailer');
    const setToggles = (toggles: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/companies/${retailer.id}/toggles`,
        headers: bearer(admin),
        payload: { toggles },
      });
    expect((await setToggles([])).statusCode).toBe(200);
    try {
      const withoutToggle = await ask(buyer, 'How do I invite a user?');
      expect(withoutToggle.statusCode).toBe(403);
      expect((await post('/api/chat/feedback', buyer, { messageId: UNKNOWN, isPositive: true })).statusCode).toBe(403);
    } finally {
      expect((await setToggles(['CHAT_AI'])).statusCode).toBe(200);
    }
    expect((await ask(buyer, 'How do I invite a user?')).statusCode).toBe(200);
  });

  it('limits the questions of a user per minute, with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await ask(buyer, `Where is the address book? ${i}`)).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    t.clock.advance(20);
    const over = await ask(buyer, 'One more about the address book');
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('chat.too_many_questions');
    expect(over.headers['retry-after']).toBe('40');
    // Another user is not held back.
    expect((await ask(user, 'Where is the address book?')).statusCode).toBe(200);
    t.clock.advance(41);
    expect((await ask(buyer, 'One more about the address book')).statusCode).toBe(200);
  });
});

describe('POST /api/chat/feedback', () => {
  it('takes one feedback per answer, answered with text, then refuses another with 409', async () => {
    const answer = (await ask(user, 'How do I validate an EDIFACT message?')).json<Answer>();
    const res = await post('/api/chat/feedback', user, {
      messageId: answer.responseMessageId,
      isPositive: false,
      comment: 'Too short',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('Thank you for your feedback.');
    const again = await post('/api/chat/feedback', user, { messageId: answer.responseMessageId, isPositive: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('chat.feedback_exists');
  });

  it("refuses feedback on another user's answer, and on an unknown one, as not found", async () => {
    const answer = (await ask(user, 'How do I report an issue?')).json<Answer>();
    const res = await post('/api/chat/feedback', buyer, { messageId: answer.responseMessageId, isPositive: true });
    expect(res.statusCode).toBe(404);
    expect((await post('/api/chat/feedback', user, { messageId: UNKNOWN, isPositive: true })).statusCode).toBe(404);
    // The owner still may.
    expect(
      (await post('/api/chat/feedback', user, { messageId: answer.responseMessageId, isPositive: true })).statusCode,
    ).toBe(200);
  });

  it('refuses a comment over the limit with the field', async () => {
    const answer = (await ask(user, 'How do I change my password?')).json<Answer>();
    const res = await post('/api/chat/feedback', user, {
      messageId: answer.responseMessageId,
      isPositive: true,
      comment: 'x'.repeat(1001),
    });
    expect(res.statusCode).toBe(400);
    expect(fields(res)).toEqual(['comment:tooLong']);
  });
});

describe('POST /api/chat/explain', () => {
  it('explains a finding from its data and links its article (the document-validation article when it has none)', async () => {
    const res = await post('/api/chat/explain', user, {
      finding: {
        code: 'EDI_NO_SUCH_CODE_FOR_TEST',
        path: 'SG2/NAD/C082/3039',
        fieldName: 'Party identifier',
        expected: '13 digits',
        actual: '12345',
        line: 7,
      },
      language: 'en',
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json<Answer>();
    expect(answer.answered).toBe(true);
    expect(answer.sources.map((s) => s.articleId)).toEqual(['document-validation']);
    expect(answer.response).toContain('The validation reported the finding EDI_NO_SUCH_CODE_FOR_TEST.');
    expect(answer.response).toContain('Where: SG2/NAD/C082/3039');
    expect(answer.response).toContain('Field: Party identifier');
    expect(answer.response).toContain('Expected: 13 digits');
    expect(answer.response).toContain('Found: 12345');
    expect(answer.response).toContain('From the help article “Document validation”:');
    expect(answer.response).toContain('How to fix it:');
  });

  it('links the finding’s own article when the help has one, in the requested language', async () => {
    const res = await post('/api/chat/explain', user, {
      finding: { code: 'EDI_MISSING_UNH', path: 'UNH' },
      language: 'pl',
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json<Answer>();
    expect(answer.response).toContain('Walidacja zgłosiła błąd EDI_MISSING_UNH.');
    expect(answer.sources).toEqual([
      {
        articleId: 'finding-EDI_MISSING_UNH',
        title: 'Brak nagłówka komunikatu UNH (EDI_MISSING_UNH)',
        url: '/help?article=finding-EDI_MISSING_UNH',
      },
    ]);
    expect(answer.response).toContain('Z artykułu pomocy „Brak nagłówka komunikatu UNH (EDI_MISSING_UNH)”:');
    // The finding's own article says how to fix it: no generic sentence.
    expect(answer.response).not.toContain('Jak to naprawić:');
  });

  it('is refused without the role', async () => {
    expect((await post('/api/chat/explain', clerk, { finding: { code: 'EDI_MISSING_UNH' } })).statusCode).toBe(403);
  });
});

describe('GET /api/admin/chat', () => {
  it('lists the questions newest first with answers and feedback; filters negative feedback and unanswered', async () => {
    const answered = (await ask(buyer, 'How do I import contacts into the address book from CSV?')).json<Answer>();
    t.clock.advance(1);
    const missed = (await ask(buyer, 'Which football team won the cup in 1954?')).json<Answer>();
    await post('/api/chat/feedback', buyer, {
      messageId: answered.responseMessageId,
      isPositive: false,
      comment: 'Not what I asked',
    });

    const all = await t.app.inject({ url: '/api/admin/chat?limit=2', headers: bearer(admin) });
    expect(all.statusCode).toBe(200);
    const page = all.json();
    expect(page.items.map((i: { messageId: string }) => i.messageId)).toEqual([
      missed.responseMessageId,
      answered.responseMessageId,
    ]);
    expect(page.items[1]).toMatchObject({
      userEmail: 'buyer@demo.example.com',
      companyName: 'Demo Retailer',
      question: 'How do I import contacts into the address book from CSV?',
      answered: true,
      model: null,
      feedback: { isPositive: false, comment: 'Not what I asked' },
    });
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await t.app.inject({
      url: `/api/admin/chat?limit=2&cursor=${page.nextCursor}`,
      headers: bearer(admin),
    });
    expect(next.statusCode).toBe(200);
    expect(next.json().items.map((i: { messageId: string }) => i.messageId)).not.toContain(missed.responseMessageId);

    const negative = (await t.app.inject({ url: '/api/admin/chat?feedback=negative', headers: bearer(admin) })).json();
    expect(negative.items.length).toBeGreaterThan(0);
    expect(
      negative.items.every((i: { feedback: { isPositive: boolean } | null }) => i.feedback?.isPositive === false),
    ).toBe(true);
    expect(negative.items.map((i: { messageId: string }) => i.messageId)).toContain(answered.responseMessageId);

    const unanswered = (await t.app.inject({ url: '/api/admin/chat?unanswered=true', headers: bearer(admin) })).json();
    expect(
      unanswered.items.every((i: { answered: boolean; sources: unknown[] }) => !i.answered && !i.sources.length),
    ).toBe(true);
    expect(unanswered.items.map((i: { messageId: string }) => i.messageId)).toContain(missed.responseMessageId);
    expect(unanswered.items.map((i: { messageId: string }) => i.messageId)).not.toContain(answered.responseMessageId);
  });

  it('is for platform admins only, and refuses a forged cursor with the field', async () => {
    expect((await t.app.inject({ url: '/api/admin/chat', headers: bearer(user) })).statusCode).toBe(403);
    const forged = await t.app.inject({ url: '/api/admin/chat?cursor=bm90LWEtY3Vyc29y', headers: bearer(admin) });
    expect(forged.statusCode).toBe(400);
    expect(fields(forged)).toEqual(['cursor:cursor']);
  });
});

describe('with a model (an OpenAI-compatible endpoint)', () => {
  let modelApp: TestApp;
  let server: Server;
  let token: string;
  const received: {
    path: string;
    authorization: string | undefined;
    body: { model: string; messages: { role: string; content: string }[] };
  }[] = [];
  let mode: 'answer' | 'silent' | 'error' | 'huge' = 'answer';

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => resolve(body));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = await readBody(req);
      received.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(body) });
      if (mode === 'silent') return; // never answers: the time-out must end the wait
      if (mode === 'huge') {
        // An answer far over the cap: read no further than the cap, and answer from the passages.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"choices":[{"message":{"content":"${'x'.repeat(400 * 1024)}"}}]}`);
        return;
      }
      if (mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"overloaded"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'x',
          model: 'test-model',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Invite them from Users (see “Users, groups and restrictions”).' },
            },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    modelApp = await createTestApp({
      accessTtlSeconds: 3600,
      env: {
        CHAT_LLM_URL: `http://127.0.0.1:${port}/v1`,
        CHAT_LLM_MODEL: 'test-model',
        CHAT_LLM_API_KEY: 'sk-test',
        CHAT_LLM_TIMEOUT_MS: '500',
      },
    });
    token = (await login(modelApp.app)).access_token;
  });
  afterAll(async () => {
    await modelApp?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
    mode = 'answer';
    modelApp.clock.advance(61);
  });
  const askModel = (question: string) =>
    modelApp.app.inject({
      method: 'POST',
      url: '/api/chat/question',
      headers: bearer(token),
      payload: { question, labels: EN },
    });

  it("uses the model's answer; the model got the question and the passages, and nothing of the user", async () => {
    const res = await askModel('How do I invite a new colleague?');
    expect(res.statusCode).toBe(200);
    const answer = res.json<Answer>();
    expect(answer.response).toBe('Invite them from Users (see “Users, groups and restrictions”).');
    expect(answer.answered).toBe(true);
    expect(answer.sources[0]?.articleId).toBe('user-management');

    expect(received).toHaveLength(1);
    const call = received[0]!;
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.authorization).toBe('Bearer sk-test');
    expect(call.body.model).toBe('test-model');
    const prompt = call.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('How do I invite a new colleague?');
    expect(prompt).toContain('invite a colleague by e-mail');
    expect(prompt).toContain('Answer in English.');
    expect(prompt).not.toContain('user@demo.example.com');

    const listed = await modelApp.app.inject({
      url: '/api/admin/chat',
      headers: bearer((await login(modelApp.app, ADMIN)).access_token),
    });
    expect(listed.json().items[0]).toMatchObject({ messageId: answer.responseMessageId, model: 'test-model' });
  });

  it('falls back to the passages when the model does not answer in time, fails, or answers too much', async () => {
    mode = 'silent';
    const started = Date.now();
    const late = (await askModel('How do I invite a new colleague?')).json<Answer>();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(late.response).toContain('From the help article “Users, groups and restrictions”:');
    expect(received).toHaveLength(1);

    mode = 'error';
    const failed = (await askModel('How do I invite a new colleague?')).json<Answer>();
    expect(failed.response).toContain('From the help article “Users, groups and restrictions”:');

    mode = 'huge';
    const huge = (await askModel('How do I invite a new colleague?')).json<Answer>();
    expect(huge.response).toContain('From the help article “Users, groups and restrictions”:');
  });

  it('does not ask the model when no article is relevant', async () => {
    const answer = (await askModel('What is the best recipe for a chocolate cake?')).json<Answer>();
    expect(answer.answered).toBe(false);
    expect(received).toHaveLength(0);
  });

  it('lets the model phrase the explanation of a finding from its data and article', async () => {
    const res = await modelApp.app.inject({
      method: 'POST',
      url: '/api/chat/explain',
      headers: bearer(token),
      payload: { finding: { code: 'EDI_MISSING_UNH', path: 'UNH', expected: 'UNH' } },
    });
    expect(res.statusCode).toBe(200);
    expect(received).toHaveLength(1);
    const prompt = received[0]!.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('EDI_MISSING_UNH');
    expect(prompt).toContain('Help passages:');
  });
});
