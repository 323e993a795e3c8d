import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminChatPageSchema,
  AdminChatQuerySchema,
  ChatAnswerSchema,
  ChatExplainRequestSchema,
  ChatFeedbackRequestSchema,
  ChatQuestionRequestSchema,
} from '@portal/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { principalOf, requireRole } from '../../plugins/auth.ts';
import { createChatModel } from './chat-model.ts';
import { createChatRepository } from './chat.repository.ts';
import { createChatService, type ChatCaller, type ChatService } from './chat.service.ts';
import { HelpLibrary } from './help-index.ts';

const tags = ['chat'];

/** The assistant is for users holding the role `chat-ai` in a company with the toggle `CHAT_AI` (issue 15). */
async function requireChat(request: FastifyRequest) {
  const p = principalOf(request);
  if (!p.roles.includes('chat-ai') || !p.toggles.includes('CHAT_AI')) throw new AppError('auth.forbidden');
}

const callerOf = (request: FastifyRequest): ChatCaller => {
  const p = principalOf(request);
  return { userId: p.userId, companyId: p.companyId, language: p.language };
};

/**
 * The help assistant's parts: the index of the help articles (built now; rebuilt when the files change if
 * `CHAT_HELP_WATCH`), the model when one is configured, the service and its routes. `close` stops the watching.
 */
export function chatFeature(deps: { db: Db; clock: Clock; log: FastifyBaseLogger; config: Config['chat'] }) {
  const help = new HelpLibrary();
  if (deps.config.watchHelp) {
    help.watch(
      () => deps.log.info('chat: help articles changed; index rebuilt'),
      (error) => deps.log.warn({ err: error }, 'chat: help articles could not be indexed'),
    );
  }
  const service = createChatService({
    repo: createChatRepository(deps.db),
    clock: deps.clock,
    log: deps.log,
    help,
    model: deps.config.model ? createChatModel(deps.config.model) : undefined,
    questionsPerMinute: deps.config.questionsPerMinute,
  });
  return { service, routes: chatRoutes(service), close: () => help.close() };
}

/** The AI help assistant: questions, explanations of findings, feedback; the admins' list of what was asked. */
export function chatRoutes(service: ChatService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/chat/question', {
      // Before the body is validated: a caller without the assistant learns nothing about its input rules.
      onRequest: requireChat,
      schema: {
        tags,
        summary: 'Ask the help assistant; the answer names the help articles it rests on',
        description:
          'Needs the role chat-ai and the company toggle CHAT_AI. `answered` is false when no article answered the ' +
          'question (the response says so). A conversationId of another user is a 404; too many questions in a ' +
          'minute are a 429 `chat.too_many_questions` with Retry-After.',
        body: ChatQuestionRequestSchema,
        response: { 200: ChatAnswerSchema },
      },
      handler: (request) => service.ask(callerOf(request), request.body),
    });

    app.post('/chat/explain', {
      onRequest: requireChat,
      schema: {
        tags,
        summary: 'Explain a validation finding: what is wrong, how to fix it, and its help article',
        body: ChatExplainRequestSchema,
        response: { 200: ChatAnswerSchema },
      },
      handler: (request) => service.explain(callerOf(request), request.body),
    });

    app.post('/chat/feedback', {
      onRequest: requireChat,
      schema: {
        tags,
        summary: 'Rate an answer once, with an optional comment; answered with a thank-you text (text/plain)',
        description:
          'A second feedback on the same answer is a 409 `chat.feedback_exists`; another user’s answer a 404.',
        body: ChatFeedbackRequestSchema,
        response: { 200: z.string().describe('A thank-you in the user’s language (text/plain)') },
      },
      handler: async (request, reply) => {
        const text = await service.feedback(callerOf(request), request.body);
        return reply.type('text/plain; charset=utf-8').send(text);
      },
    });

    app.get('/admin/chat', {
      onRequest: requireRole('admin'),
      schema: {
        tags: [...tags, 'admin'],
        summary: 'Questions asked to the help assistant, newest first, with answers, sources and feedback',
        querystring: AdminChatQuerySchema,
        response: { 200: AdminChatPageSchema },
      },
      handler: (request) => service.list(request.query),
    });
  };
}
