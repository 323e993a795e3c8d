import type { FastifyBaseLogger } from 'fastify';
import {
  isLanguage,
  type AdminChatItem,
  type AdminChatQuery,
  type ChatAnswer,
  type ChatExplainRequest,
  type ChatFeedbackRequest,
  type ChatHelpLabel,
  type ChatQuestionRequest,
  type ChatSource,
  type Language,
  type Page,
} from '@portal/contracts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { catalogTranslator, hasCatalogText, type Translate } from '../../lib/catalog-text.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, takePage, timestampText, uuid } from '../../lib/keyset.ts';
import type { ChatModel, ChatModelMessage } from './chat-model.ts';
import type { AdminChatRow, ChatMessageRow, ChatRepository } from './chat.repository.ts';
import type { HelpCollection, HelpLibrary, HelpPassage } from './help-index.ts';

export type ChatCaller = { userId: string; companyId: string | null; language: string };
export type ChatService = ReturnType<typeof createChatService>;

/** The collection each help label names (description, section 7). */
const LABEL_COLLECTION: Record<ChatHelpLabel, HelpCollection> = { 'portal-help-pl': 'pl', 'portal-help-en': 'en' };
/** The article a finding without an article of its own links. */
export const FALLBACK_FINDING_ARTICLE = 'document-validation';
/** Exchanges of the conversation so far that the model sees. */
const HISTORY_EXCHANGES = 3;
const RATE_WINDOW_SECONDS = 60;

/** Languages by their English names, for the model's instructions. */
const LANGUAGE_NAMES: Record<Language, string> = {
  ar: 'Arabic',
  de: 'German',
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  hu: 'Hungarian',
  it: 'Italian',
  ms: 'Malay',
  pl: 'Polish',
  th: 'Thai',
  uk: 'Ukrainian',
};

/** Where the web app opens an article: the help dialog at that article. */
export const articleUrl = (articleId: string) => `/help?article=${encodeURIComponent(articleId)}`;

const ANSWER_RULES = [
  'You are the help assistant of an EDI and e-invoicing web portal.',
  'Use only the help passages given in the last message; do not add steps, menu names or settings they do not name.',
  'Name the help article each part of your answer comes from by its title in quotation marks.',
  'If the passages do not answer the question, say so plainly instead of guessing.',
  'Keep the answer short: a few sentences or a short list, in plain text without Markdown headings.',
];

/**
 * The help assistant (issue 15, decision 0031): answers from the help articles' passages, phrased by a model when
 * one is configured and answers in time, composed from the passages themselves otherwise; every exchange is stored
 * with its sources, and the asker may rate each answer once.
 */
export function createChatService(deps: {
  repo: ChatRepository;
  clock: Clock;
  log: FastifyBaseLogger;
  help: HelpLibrary;
  model: ChatModel | undefined;
  questionsPerMinute: number;
}) {
  const { repo, clock, log, help } = deps;

  const languageOf = (language: string | undefined, caller: ChatCaller): Language => {
    if (language && isLanguage(language)) return language;
    return isLanguage(caller.language) ? caller.language : 'en';
  };

  /** The article's title in the reader's language, else in the collection's. */
  const titleOf = (articleId: string, language: Language, collection: HelpCollection) =>
    hasCatalogText('help', language, `articles.${articleId}.title`)
      ? catalogTranslator('help', language)(`articles.${articleId}.title`)
      : (help.index(collection).articles.get(articleId)?.title ?? articleId);

  const sourcesOf = (passages: HelpPassage[], language: Language, collection: HelpCollection): ChatSource[] => {
    const ids = [...new Set(passages.map((p) => p.articleId))];
    return ids.map((id) => ({ articleId: id, title: titleOf(id, language, collection), url: articleUrl(id) }));
  };

  /** The passages quoted under their articles' titles, in the platform's wording of the reader's language. */
  const quotePassages = (t: Translate, passages: HelpPassage[], sources: ChatSource[]) => {
    const parts: string[] = [];
    let article: string | undefined;
    for (const p of passages) {
      if (p.articleId !== article) {
        article = p.articleId;
        const title = sources.find((s) => s.articleId === p.articleId)?.title ?? p.title;
        parts.push(t('server.fromArticle', { title }));
      }
      parts.push(p.text);
    }
    return parts.join('\n\n');
  };

  const passagesBlock = (passages: HelpPassage[]) =>
    passages.map((p, i) => `[${i + 1}] “${p.title}” (${p.articleId})\n${p.text}`).join('\n\n');

  /** The model's phrasing, or null (none configured, failed, late): the caller then keeps the passages' answer. */
  async function phrase(messages: ChatModelMessage[]): Promise<string | null> {
    const model = deps.model;
    if (!model) return null;
    // The prompt holds the question and the passages: at debug level only.
    log.debug({ chatModel: model.name, messages }, 'chat: prompt sent to the model');
    const started = Date.now();
    const answer = await model.complete(messages, (reason) =>
      log.warn({ chatModel: model.name, reason }, 'chat: the model did not answer; the passages answer instead'),
    );
    log.debug({ chatModel: model.name, ms: Date.now() - started, answered: answer !== null }, 'chat: model answer');
    return answer;
  }

  /** A's conversation, or a new one; another user's or an unknown id is not found. */
  async function conversationFor(caller: ChatCaller, id: string | null | undefined) {
    if (!id) return { id: undefined, history: [] as ChatMessageRow[] };
    const conversation = await repo.findConversation(id);
    if (!conversation || conversation.userId !== caller.userId) throw notFound();
    return { id: conversation.id, history: await repo.recentMessages(conversation.id, HISTORY_EXCHANGES) };
  }

  /** A user's questions and explanations within a minute (each may cost a model call). */
  async function checkRate(caller: ChatCaller) {
    const now = clock.now();
    const since = new Date(now.getTime() - RATE_WINDOW_SECONDS * 1000);
    const recent = await repo.countSince(caller.userId, since);
    if (recent.count < deps.questionsPerMinute) return;
    const oldest = recent.oldest ?? now;
    const retryAfter = Math.max(
      1,
      RATE_WINDOW_SECONDS - Math.floor((now.getTime() - new Date(oldest).getTime()) / 1000),
    );
    throw new AppError('chat.too_many_questions', {
      data: { retryAfter },
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  async function store(
    caller: ChatCaller,
    conversationId: string | undefined,
    exchange: Omit<ChatMessageRow, 'id' | 'conversationId' | 'userId' | 'createdAt'>,
  ): Promise<ChatAnswer> {
    const now = clock.now();
    const id =
      conversationId ??
      (await repo.createConversation({ userId: caller.userId, companyId: caller.companyId, createdAt: now })).id;
    const message = await repo.insertMessage({
      ...exchange,
      conversationId: id,
      userId: caller.userId,
      createdAt: now,
    });
    return {
      conversationId: id,
      response: message.response,
      responseMessageId: message.id,
      sources: message.sources,
      answered: message.answered,
    };
  }

  function historyMessages(history: ChatMessageRow[]): ChatModelMessage[] {
    return history.flatMap((m): ChatModelMessage[] => [
      { role: 'user', content: m.question },
      { role: 'assistant', content: m.response },
    ]);
  }

  return {
    /** `POST /api/chat/question`. */
    async ask(caller: ChatCaller, request: ChatQuestionRequest): Promise<ChatAnswer> {
      const conversation = await conversationFor(caller, request.conversationId);
      await checkRate(caller);
      const language = languageOf(undefined, caller);
      const t = catalogTranslator('chat', language);
      const collections = [...new Set(request.labels.map((l) => LABEL_COLLECTION[l]))];
      if (!collections.length) collections.push(language === 'pl' ? 'pl' : 'en');

      // The labels' collections in their order; a follow-up that finds nothing alone is read with the question before.
      const previous = conversation.history.at(-1)?.kind === 'question' ? conversation.history.at(-1) : undefined;
      const queries = [request.question, ...(previous ? [`${previous.question} ${request.question}`] : [])];
      let found: { collection: HelpCollection; passages: HelpPassage[] } | undefined;
      for (const query of queries) {
        for (const collection of collections) {
          const passages = help.index(collection).retrieve(query);
          if (passages.length) {
            found = { collection, passages };
            break;
          }
        }
        if (found) break;
      }

      if (!found) {
        return store(caller, conversation.id, {
          kind: 'question',
          question: request.question,
          response: t('server.nothingFound'),
          answered: false,
          sources: [],
          model: null,
          language,
        });
      }
      const sources = sourcesOf(found.passages, language, found.collection);
      const phrased = await phrase([
        { role: 'system', content: [...ANSWER_RULES, `Answer in ${LANGUAGE_NAMES[language]}.`].join(' ') },
        ...historyMessages(conversation.history),
        {
          role: 'user',
          content: `Help passages:\n\n${passagesBlock(found.passages)}\n\nQuestion: ${request.question}`,
        },
      ]);
      return store(caller, conversation.id, {
        kind: 'question',
        question: request.question,
        response: phrased ?? quotePassages(t, found.passages, sources),
        answered: true,
        sources,
        model: phrased === null ? null : (deps.model?.name ?? null),
        language,
      });
    },

    /**
     * `POST /api/chat/explain`: what the finding means (its own data), how to fix it and its article (`finding-<CODE>`
     * when the collection has one, else the document-validation article), in the requested language or the user's.
     */
    async explain(caller: ChatCaller, request: ChatExplainRequest): Promise<ChatAnswer> {
      const conversation = await conversationFor(caller, request.conversationId);
      await checkRate(caller);
      const language = languageOf(request.language, caller);
      const t = catalogTranslator('chat', language);
      const collection: HelpCollection = language === 'pl' ? 'pl' : 'en';
      const index = help.index(collection);
      const { finding } = request;
      const own = `finding-${finding.code}`;
      const articleId = index.articles.has(own) ? own : FALLBACK_FINDING_ARTICLE;
      const passages = index.passagesOfArticle(articleId).slice(0, 3);
      const sources = passages.length
        ? sourcesOf(passages, language, collection)
        : [{ articleId, title: titleOf(articleId, language, collection), url: articleUrl(articleId) }];

      const facts = [
        t('server.explainIntro', { code: finding.code }),
        ...(finding.path ? [t('server.explainPath', { path: finding.path })] : []),
        ...(finding.fieldName ? [t('server.explainField', { fieldName: finding.fieldName })] : []),
        ...(finding.line !== undefined ? [t('server.explainLine', { line: String(finding.line) })] : []),
        ...(finding.expected ? [t('server.explainExpected', { expected: finding.expected })] : []),
        ...(finding.actual ? [t('server.explainActual', { actual: finding.actual })] : []),
      ];
      const composed = [
        facts.join('\n'),
        ...(passages.length ? [quotePassages(t, passages, sources)] : []),
        ...(articleId === FALLBACK_FINDING_ARTICLE ? [t('server.explainFix')] : []),
      ].join('\n\n');

      const findingData = Object.fromEntries(
        Object.entries(finding).filter(([, v]) => v !== undefined && v !== null && v !== ''),
      );
      const phrased = await phrase([
        {
          role: 'system',
          content: [
            ...ANSWER_RULES,
            'Explain in plain words what is wrong with the user’s EDIFACT message, using the finding’s data, and how',
            'to fix it, from the passages. Then name the article to read.',
            `Answer in ${LANGUAGE_NAMES[language]}.`,
          ].join(' '),
        },
        ...historyMessages(conversation.history),
        {
          role: 'user',
          content: `Help passages:\n\n${passagesBlock(passages)}\n\nFinding: ${JSON.stringify(findingData)}`,
        },
      ]);
      return store(caller, conversation.id, {
        kind: 'explain',
        question: t('server.explainQuestion', { code: finding.code }),
        response: phrased ?? composed,
        answered: true,
        sources,
        model: phrased === null ? null : (deps.model?.name ?? null),
        language,
      });
    },

    /** `POST /api/chat/feedback`: by the conversation's owner (anyone else: not found), once per answer. */
    async feedback(caller: ChatCaller, request: ChatFeedbackRequest): Promise<string> {
      const message = await repo.findMessage(request.messageId);
      if (!message || message.ownerId !== caller.userId) throw notFound();
      const stored = await repo.insertFeedback({
        messageId: message.id,
        isPositive: request.isPositive,
        comment: request.comment ? request.comment : null,
        createdAt: clock.now(),
      });
      if (!stored) throw new AppError('chat.feedback_exists');
      return catalogTranslator('chat', languageOf(undefined, caller))('server.feedbackThanks');
    },

    /** `GET /api/admin/chat`: newest first; the cursor is opaque (created_at as stored, id). */
    async list(query: AdminChatQuery): Promise<Page<AdminChatItem>> {
      const rows = await repo.list({
        feedback: query.feedback,
        unanswered: query.unanswered,
        after: decodeCursor(query.cursor, [timestampText, uuid]),
        limit: query.limit,
      });
      const page = takePage(rows, query.limit, (r) => [r.cursorAt, r.message.id]);
      return { items: page.rows.map(toAdminItem), nextCursor: page.nextCursor };
    },
  };
}

function toAdminItem(row: AdminChatRow): AdminChatItem {
  const m = row.message;
  return {
    messageId: m.id,
    conversationId: m.conversationId,
    askedAt: m.createdAt.toISOString(),
    userEmail: row.userEmail,
    companyName: row.companyName,
    question: m.question,
    response: m.response,
    answered: m.answered,
    model: m.model,
    sources: m.sources,
    feedback: row.feedback
      ? { isPositive: row.feedback.isPositive, comment: row.feedback.comment, at: row.feedback.createdAt.toISOString() }
      : null,
  };
}
